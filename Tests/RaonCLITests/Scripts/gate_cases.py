#!/usr/bin/env python3
"""Catalogs that trip one gate of `raon weekly` each, built from the bundled sample, and
the figures each gate should find, computed here from the rows (not by Raon).

    gate_cases.py SAMPLE.csv OUTDIR CASE     CASE: same | minor | size | emptied | changed | columns

Writes OUTDIR/base.csv (the sample's rows as read here, UTF-8 with BOM), OUTDIR/case.csv
(the case), and prints JSON: {old, new, distinctOld, changed, gone, emptied: {district:
count}, addedColumns, removedColumns}. A program is its cultcode (문화포털상세URL); it is
"changed" when its row differs, "gone" when the case has no row of it; a district is the
자치구 column (empty: 미상, never counted as emptied).

- same: the rows again (the same data in a new file).
- minor: the title of ten rows edited (an ordinary week: no gate trips).
- size: every fourth row dropped (25 % fewer programs in every district).
- emptied: every row of 강남구 dropped (3 % of the catalog).
- changed: the title of three rows in five edited.
- columns: a column 문의 added (every row carries it).
"""
import csv
import io
import json
import re
import sys
from collections import Counter, defaultdict


def read(path):
    with open(path, "rb") as f:
        text = f.read().decode("cp949", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], rows[1:]


def write(path, header, rows):
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def ident(header, row):
    m = re.search(r"cultcode=(\d+)", row[header.index("문화포털상세URL")])
    return "cult:" + m[1] if m else "row:" + "|".join(row)


def main(argv):
    sample, out, case = argv
    header, rows = read(sample)
    new_header, new_rows = list(header), [list(r) for r in rows]
    if case == "size":
        new_rows = [r for i, r in enumerate(rows) if i % 4 != 3]
    elif case == "emptied":
        new_rows = [r for r in rows if r[header.index("자치구")] != "강남구"]
    elif case == "minor":
        t = header.index("공연/행사명")
        for r in new_rows[:10]:
            r[t] = r[t] + " (수정)"
    elif case == "changed":
        t = header.index("공연/행사명")
        for i, r in enumerate(new_rows):
            if i % 5 < 3:
                r[t] = r[t] + " (일정 변경)"
    elif case == "columns":
        new_header = header + ["문의"]
        new_rows = [r + ["02-2133-0000"] for r in new_rows]
    elif case != "same":
        raise SystemExit("unknown case " + case)
    write(out + "/base.csv", header, rows)
    write(out + "/case.csv", new_header, new_rows)

    def by_id(h, rs):
        d = defaultdict(list)
        for r in rs:
            d[ident(h, r)].append(tuple(zip(h, r)))
        return d

    old, new = by_id(header, rows), by_id(new_header, new_rows)
    changed = sum(1 for k in old if k in new and sorted(old[k]) != sorted(new[k]))
    gone = sum(1 for k in old if k not in new)

    def districts(h, rs):
        return Counter(r[h.index("자치구")] or "미상" for r in rs)

    before, after = districts(header, rows), districts(new_header, new_rows)
    emptied = {d: n for d, n in before.items() if d != "미상" and after.get(d, 0) == 0}
    print(json.dumps({
        "old": len(rows), "new": len(new_rows), "distinctOld": len(old), "changed": changed, "gone": gone,
        "emptied": emptied, "addedColumns": sorted(set(new_header) - set(header)),
        "removedColumns": sorted(set(header) - set(new_header)),
    }, ensure_ascii=False))


if __name__ == "__main__":
    main(sys.argv[1:])
