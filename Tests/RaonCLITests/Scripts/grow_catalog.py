#!/usr/bin/env python3
"""Writes a catalog N times the size of IN by repeating its rows with new cultcodes
(for kill tests and scale checks).  python3 grow_catalog.py IN.csv OUT.csv N"""
import csv, io, re, sys

src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
raw = open(src, "rb").read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    text = raw.decode("cp949", errors="replace")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, body = rows[0], rows[1:]
url = next(i for i, h in enumerate(header) if "URL" in h and "문화포털" in h)
with open(dst, "w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, lineterminator="\r\n")
    w.writerow(header)
    for k in range(n):
        for r in body:
            r = list(r)
            r[url] = re.sub(r"cultcode=(\d+)", lambda m: "cultcode=%d" % (int(m.group(1)) + 1000000 * k), r[url])
            w.writerow(r)
