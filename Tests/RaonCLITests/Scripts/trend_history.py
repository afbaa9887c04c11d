#!/usr/bin/env python3
"""Writes a history of catalogs built from the bundled sample, one UTF-8 CSV per day, for
the `raon trend` end-to-end test:  python3 trend_history.py SAMPLE.csv OUT_DIR

Each day D holds the sample's rows registered by D (신청일 <= D), minus the rows withdrawn
by then (a deterministic fiftieth more each day), with a few end days moved (an
edit), one row repeated, and one program that leaves and comes back unchanged. Prints
the days written, one per line, as YYYY-MM-DD."""
import csv, io, os, re, sys

DAYS = ["2024-08-12", "2024-08-19", "2024-08-21", "2024-08-23", "2024-08-26", "2024-09-02", "2024-09-09"]

src, out = sys.argv[1], sys.argv[2]
raw = open(src, "rb").read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    text = raw.decode("cp949", errors="replace")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, body = rows[0], rows[1:]
reg, end, url = header.index("신청일"), header.index("종료일"), header.index("문화포털상세URL")

def code(r):
    m = re.search(r"cultcode=(\d+)", r[url])
    return int(m.group(1)) if m else 0

returning = next(code(r) for r in body if code(r) % 97 == 3 and r[reg] <= DAYS[0])
os.makedirs(out, exist_ok=True)
for k, day in enumerate(DAYS):
    kept = []
    for r in body:
        if not r[reg] or r[reg] > day:
            continue
        if code(r) % 50 < k and code(r) != returning:
            continue  # withdrawn (more each day, for good)
        if code(r) == returning and k in (2, 3, 4):
            continue  # leaves, then comes back unchanged
        r = list(r)
        if k >= 4 and code(r) % 13 == 0 and r[end]:
            r[end] = "2025-12-31 00:00:00.0"  # an edit: the end day moves
        kept.append(r)
    if k == 5 and kept:
        kept.append(kept[0])  # a repeated row
    with open(os.path.join(out, day + ".csv"), "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")
        w.writerow(header)
        w.writerows(kept)
    print(day)
