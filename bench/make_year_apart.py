#!/usr/bin/env python3
"""Writes a pair of catalogs a year apart from one real download: most programs replaced.

  python3 bench/make_year_apart.py IN.csv OLD.csv NEW.csv [--replaced 0.9] [--changed 0.05] [--seed N]

NEW is IN as it is (copied byte for byte). OLD is "the same catalog a year earlier": a
seeded share of the rows (--replaced, default 90 %) are other programs — a new cultcode
(the old one + 700000) and every date a year earlier (시작일, 종료일, 날짜/시간, 신청일) — so
they are removed and the new ones added; of the rows kept, a share (--changed, of all rows)
has another title and fee text, so they count as changed. On the 4,998-program sample that
is ~4,500 removed, ~4,500 added and ~250 changed: the "two real downloads a year apart" of
issue 33 (~9,000 added, removed or changed). OLD is UTF-8 with a BOM; the report reads
either encoding.
"""
import argparse, csv, io, random, re, shutil

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("old")
ap.add_argument("new")
ap.add_argument("--replaced", type=float, default=0.9)
ap.add_argument("--changed", type=float, default=0.05)
ap.add_argument("--seed", type=int, default=33)
a = ap.parse_args()

raw = open(a.input, "rb").read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    text = raw.decode("cp949", errors="replace")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, body = rows[0], rows[1:]


def column(*words):
    return next(i for i, h in enumerate(header) if all(w in h for w in words))


url = column("문화포털")
dated = [column("시작일"), column("종료일"), column("날짜")] + [column("신청일")]
title, fee = column("공연/행사명"), column("이용요금")
YEAR = re.compile(r"(19|20)(\d\d)(?=[-./])")


def year_earlier(value):
    return YEAR.sub(lambda m: str(int(m.group(0)) - 1), value)


rng = random.Random(a.seed)
order = list(range(len(body)))
rng.shuffle(order)
replaced = set(order[: int(len(body) * a.replaced)])
changed = set(order[int(len(body) * a.replaced): int(len(body) * (a.replaced + a.changed))])
out = []
for i, r in enumerate(body):
    r = list(r)
    if i in replaced:
        r[url] = re.sub(r"cultcode=(\d+)", lambda m: "cultcode=%d" % (int(m.group(1)) + 700000), r[url])
        for c in dated:
            r[c] = year_earlier(r[c])
    elif i in changed:
        r[title] = r[title] + " (지난해)"
        r[fee] = "전석 9,000원"
    out.append(r)
with open(a.old, "w", encoding="utf-8-sig", newline="") as f:
    w = csv.writer(f, lineterminator="\r\n")
    w.writerow(header)
    w.writerows(out)
shutil.copyfile(a.input, a.new)
print(f"{len(replaced)} replaced, {len(changed)} changed, {len(body) - len(replaced) - len(changed)} kept")
