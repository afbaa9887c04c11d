#!/usr/bin/env python3
"""Writes a pair of national downloads a year apart from one real download: the churn of
two real downloads of 전국공연행사정보표준데이터 a year apart (issue 46: about 5,000 events
added, 3,600 removed, edits among the rest).

  python3 bench/make_national_year_apart.py IN.csv OLD.csv NEW.csv
      [--removed 3600] [--added 5000] [--edited 0.08] [--seed N]

OLD is IN as it is (copied byte for byte). NEW is "the same data a year later", UTF-8 with
a BOM, its rows in another order (a new download lists them its own way):
- `--removed` events of IN (every row of each, chosen by a seeded draw) are gone;
- `--added` new events: an event of IN (kept or removed) a year later — its start and end
  dates one year on, so its natural key (provider, title, start date, place) is new — with
  데이터기준일자 of the later download; a candidate whose key is already taken is skipped;
- of the events kept, a share (`--edited`) has its 관람요금 or 행사종료일자 edited (changed),
  and half of the kept rows carry the later 데이터기준일자 (re-stamped: no change).
Events are counted by the natural key of docs/NATIONAL.md, read by
Tests/RaonCLITests/Scripts/national_events.py (the independent reading the tests use); the
counts it makes are printed, so a run says what it built. Deterministic for a seed.
"""
import argparse, csv, io, os, random, re, shutil, sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Tests", "RaonCLITests", "Scripts"))
import national_events as ne  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("input")
ap.add_argument("old")
ap.add_argument("new")
ap.add_argument("--removed", type=int, default=3600)
ap.add_argument("--added", type=int, default=5000)
ap.add_argument("--edited", type=float, default=0.08)
ap.add_argument("--seed", type=int, default=46)
a = ap.parse_args()

raw = open(a.input, "rb").read()
try:
    text = raw.decode("utf-8-sig")
except UnicodeDecodeError:
    text = raw.decode("cp949", errors="replace")
table = list(csv.reader(io.StringIO(text, newline="")))
header, body = table[0], table[1:]
col = {name: i for i, name in enumerate(header)}
as_dict = lambda r: dict(zip(header, r))

by_key = {}
for i, r in enumerate(body):
    by_key.setdefault(ne.key(as_dict(r)), []).append(i)
keys = sorted(by_key)
rng = random.Random(a.seed)
removed = set(rng.sample(keys, min(a.removed, len(keys))))
kept = [k for k in keys if k not in removed]
LATER = "2026-03-31"
YEAR = re.compile(r"(?<!\d)(20\d\d)(?=\s*[-./년]|\d{4}(?!\d))")


def year_later(value):
    return YEAR.sub(lambda m: str(int(m.group(1)) + 1), value, count=1)


rows = []
edited = 0
for k in kept:
    edit = rng.random() < a.edited
    edited += edit
    for i in by_key[k]:
        r = list(body[i])
        if edit:
            if rng.random() < 0.5:
                r[col["관람요금"]] = (r[col["관람요금"]] + " (인상)").strip()
            else:
                r[col["행사종료일자"]] = year_later(r[col["행사종료일자"]])
        if rng.random() < 0.5:
            r[col["데이터기준일자"]] = LATER
        rows.append(r)

taken = set(kept)
candidates = list(keys)
rng.shuffle(candidates)
added = 0
for k in candidates:
    if added >= a.added:
        break
    later = []
    for i in by_key[k]:
        r = list(body[i])
        r[col["행사시작일자"]] = year_later(r[col["행사시작일자"]])
        r[col["행사종료일자"]] = year_later(r[col["행사종료일자"]])
        r[col["데이터기준일자"]] = LATER
        later.append(r)
    new_key = ne.key(as_dict(later[0]))
    if new_key in taken or any(ne.key(as_dict(r)) != new_key for r in later):
        continue
    taken.add(new_key)
    rows += later
    added += 1

rng.shuffle(rows)
shutil.copyfile(a.input, a.old)
with open(a.new, "w", encoding="utf-8-sig", newline="") as f:
    w = csv.writer(f)
    w.writerow(header)
    w.writerows(rows)
print(f"{len(keys)} events in {len(body)} rows -> {len(taken)} events in {len(rows)} rows: "
      f"{len(removed)} removed, {added} added, {edited} edited")
