"""Moves some events of a national download (UTF-8, a BOM or none) to another road
address: every row of the first N events (by the order of their first row) that have a
소재지도로명주소 gets " 2층" after it — a changed field of those events, their 시·도 the
same. Prints the number of events moved.

  python3 national_addresses.py FILE.csv N
"""
import csv, io, sys

path, count = sys.argv[1], int(sys.argv[2])
text = open(path, "rb").read().decode("utf-8-sig")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, body = rows[0], rows[1:]
col = {name: i for i, name in enumerate(header)}
key = lambda r: (r[col["제공기관명"]], r[col["행사명"]], r[col["장소"]], r[col["행사시작일자"]])
moved = []
for r in body:
    if len(moved) >= count:
        break
    if r[col["소재지도로명주소"]].strip() and key(r) not in moved:
        moved.append(key(r))
chosen = set(moved)
for r in body:
    if key(r) in chosen:
        r[col["소재지도로명주소"]] = r[col["소재지도로명주소"]].rstrip() + " 2층"
with open(path, "w", encoding="utf-8-sig", newline="") as f:
    csv.writer(f).writerows([header] + body)
print(len(moved))
