#!/usr/bin/env python3
"""Counts, from a catalog CSV itself (no Raon code), the programs running in an ISO week
per district: start day on or before the week's Sunday and end day on or after its
Monday (a missing day counts as open), the district as the catalog writes it ('' = 미상).

  python3 running_by_district.py CATALOG.csv MONDAY   (MONDAY as 2024-09-16)

Prints {"district": count, ...} as JSON.
"""
import csv, datetime, io, json, sys

raw = open(sys.argv[1], "rb").read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    text = raw.decode("cp949", errors="replace")
monday = datetime.date.fromisoformat(sys.argv[2])
sunday = monday + datetime.timedelta(days=6)
counts = {}
for row in csv.DictReader(io.StringIO(text, newline="")):
    start, end = row["시작일"].strip()[:10], row["종료일"].strip()[:10]
    if (not start or start <= sunday.isoformat()) and (not end or end >= monday.isoformat()):
        district = row["자치구"].strip() or "미상"
        counts[district] = counts.get(district, 0) + 1
print(json.dumps(counts, ensure_ascii=False))
