"""Builds a "later download" of the national standard data from a real one, with every kind
of change a later download has, and prints what it did (the events each change touched).

  python3 national_later.py SOURCE.csv LATER.csv

The later file is UTF-8 with a BOM (the source is CP949) and its rows are in reverse order.
Changes, each on events of its own:
- a merger: every row of 인천광역시 동구 is now 인천광역시 제물포구 (another code; addresses
  renamed too) — no event added, removed or changed;
- a provider's new code and 특례시 name: 경기도 수원시 is 경기도 수원특례시, code 3741000 — none;
- 데이터기준일자 re-stamped on three providers' rows — none;
- sessions added (a 21:00 performance) to 5 events, removed from 5 — changed;
- 관람요금 edited on 10 events, the start time on 5, the title's spacing on 3, the
  coordinates on 2 — changed;
- 30 events dropped — removed; 15 new events — added.
"""
import csv, io, json, sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
import national_events as ne

source, target = sys.argv[1], sys.argv[2]
raw = open(source, "rb").read()
text = raw.decode("cp949", errors="replace")
reader = csv.reader(io.StringIO(text, newline=""))
header = next(reader)
rows = [r for r in reader]
col = {name: i for i, name in enumerate(header)}
as_dict = lambda r: dict(zip(header, r))
keys = [ne.key(as_dict(r)) for r in rows]
by_key = {}
for i, k in enumerate(keys):
    by_key.setdefault(k, []).append(i)
# Events whose rows carry no replaced byte (re-encoding would change them) and no touched provider.
touched_providers = {"인천광역시 동구", "경기도 수원시", "경상북도 안동시", "전라남도 장성군", "제주특별자치도 서귀포시"}
clean = lambda k: all("\ufffd" not in "".join(rows[i]) and rows[i][col["제공기관명"]] not in touched_providers for i in by_key[k])
multi = [k for k in sorted(by_key) if len(by_key[k]) > 1 and clean(k)]
single = [k for k in sorted(by_key) if len(by_key[k]) == 1 and clean(k)]
done = {"changed": [], "removed": [], "added": 0, "quiet": []}

# Quiet changes.
for i, r in enumerate(rows):
    name = r[col["제공기관명"]]
    if name == "인천광역시 동구":
        r[col["제공기관명"]] = "인천광역시 제물포구"
        r[col["제공기관코드"]] = "3501000"
        for a in ("소재지도로명주소", "소재지지번주소"):
            r[col[a]] = r[col[a]].replace("인천광역시 동구", "인천광역시 제물포구")
    elif name == "경기도 수원시":
        r[col["제공기관명"]] = "경기도 수원특례시"
        r[col["제공기관코드"]] = "3741000"
    if name in ("경상북도 안동시", "전라남도 장성군", "제주특별자치도 서귀포시"):
        r[col["데이터기준일자"]] = "2025-09-30"

new_rows = list(rows)
drop = set()
# Sessions added and removed.
for k in multi[:5]:
    extra = list(rows[by_key[k][0]])
    extra[col["행사시작시각"]] = "21:00"
    new_rows.append(extra)
    done["changed"].append(k)
for k in multi[5:10]:
    drop.add(by_key[k][-1])
    done["changed"].append(k)
# Fields edited.
for k in single[:10]:
    r = rows[by_key[k][0]]
    r[col["관람요금"]] = (r[col["관람요금"]] + " (변경)").strip()
    done["changed"].append(k)
for k in single[10:15]:
    r = rows[by_key[k][0]]
    r[col["행사시작시각"]] = "20:05" if r[col["행사시작시각"]] != "20:05" else "20:10"
    done["changed"].append(k)
spaced = [k for k in single[15:200] if " " in rows[by_key[k][0]][col["행사명"]].strip()][:3]
for k in spaced:
    r = rows[by_key[k][0]]
    r[col["행사명"]] = r[col["행사명"]].replace(" ", "  ", 1)
    done["changed"].append(k)
located = [k for k in single[200:400] if rows[by_key[k][0]][col["위도"]].strip()][:2]
for k in located:
    r = rows[by_key[k][0]]
    r[col["위도"]] = "%.8f" % (float(r[col["위도"]]) + 0.0001)
    done["changed"].append(k)
# Events dropped.
for k in single[400:420] + multi[10:20]:
    drop.update(by_key[k])
    done["removed"].append(k)
# New events.
for n, k in enumerate(single[500:515]):
    extra = list(rows[by_key[k][0]])
    extra[col["행사명"]] = extra[col["행사명"]] + " 앙코르 %d" % (n + 1)
    new_rows.append(extra)
    done["added"] += 1

out = [r for i, r in enumerate(new_rows) if i not in drop]
out.reverse()
with open(target, "w", encoding="utf-8-sig", newline="") as f:
    csv.writer(f, lineterminator="\r\n").writerows([header] + out)
print(json.dumps({"changed": sorted(done["changed"]), "removed": sorted(done["removed"]), "added": done["added"]}))
