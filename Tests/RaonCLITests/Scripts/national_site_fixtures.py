"""Two small downloads of the national standard data for `raon site`, cut from a real one,
and the events each holds, by the documented key (national_events.py; nothing of Raon's code).

  python3 national_site_fixtures.py SOURCE.csv FIRST.csv SECOND.csv -> {"first": [...], "second": [...]}

FIRST (CP949, as the portal gives it) holds every row of the events of 강원, 전북 and 세종
(the 시·도 by the provider, else the address); SECOND (UTF-8 with a BOM) is FIRST a while
later: the first 4 events (by key) dropped, 관람요금 edited on the next 3, and one new event
(a copy of the next one's first row under a new title). Taken before 2023-06-11, FIRST's
강원 is 강원도 and its 전북 전라북도; taken in 2025 they are 강원특별자치도 and 전북특별자치도.
"""
import csv, io, json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
import national_events as ne

KEPT = {"강원", "전북", "세종"}

source, first_path, second_path = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(source, "rb").read().decode("cp949")
table = list(csv.reader(io.StringIO(text, newline="")))
header, body = table[0], table[1:]
col = {name: i for i, name in enumerate(header)}

def province(row):
    d = dict(zip(header, row))
    gov = ne.province_of_id(ne.provider(d.get("제공기관명", ""), d.get("제공기관코드", "")))
    if gov is None:
        gov = ne.province_of_address(d.get("소재지도로명주소", "")) or ne.province_of_address(d.get("소재지지번주소", "")) or "기타"
    return gov

first = [r for r in body if province(r) in KEPT]
keys = [ne.key(dict(zip(header, r))) for r in first]
ordered = sorted(set(keys))
dropped, edited, copied = set(ordered[:4]), set(ordered[4:7]), ordered[7]
second = []
for r, k in zip(first, keys):
    if k in dropped:
        continue
    r = list(r)
    if k in edited:
        r[col["관람요금"]] = "전석 12,345원"
    second.append(r)
new = list(first[keys.index(copied)])
new[col["행사명"]] = "새로 등록된 전국 행사 " + new[col["행사명"]]
second.append(new)

with open(first_path, "w", encoding="cp949", newline="") as f:
    csv.writer(f, lineterminator="\r\n").writerows([header] + first)
with open(second_path, "w", encoding="utf-8-sig", newline="") as f:
    csv.writer(f, lineterminator="\r\n").writerows([header] + second)
print(json.dumps({
    "first": sorted(set(keys)),
    "second": sorted({ne.key(dict(zip(header, r))) for r in second}),
}))
