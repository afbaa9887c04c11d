"""Builds, from a real download of the national standard data, a later download in which a
시·도 is renamed and two of its 시·군 merged — a lineage Raon's table does not know — and the
same later download without that lineage change; and counts, independently of Raon's Swift
code (national_events.py's reading of docs/NATIONAL.md), what a comparison should find.

  python3 national_merger.py build SOURCE.csv OUTDIR
      -> OUTDIR/merged.csv (the lineage change), OUTDIR/plain.csv (the same data, old names),
         OUTDIR/stops.csv (a provider that stops and an unrelated new one that starts);
         prints what it did (JSON)
  python3 national_merger.py count OLD.csv NEW.csv PROVINCE
      -> {"all": {...}, "province": {...}}: added, removed, changed and the changed fields'
         counts, for every event and for the events of the 시·도 PROVINCE (a lineage id, 충북)

The lineage change (merged.csv), on every row of 충청북도's providers:
- 충청북도 is renamed 충북특별자치도: each provider `충청북도 X` becomes `충북특별자치도 X` with a
  new 제공기관코드, and addresses beginning 충청북도 begin 충북특별자치도;
- 충청북도 음성군 and 충청북도 진천군 merge into 충북특별자치도 진천음성시 (one new code;
  addresses of 음성군 and 진천군 name 진천음성시).
Real changes, the same in merged.csv and plain.csv:
- in 충북: 관람요금 edited on 3 events of 청주시, 행사시작시각 on 2 of 음성군 and 1 of 진천군;
  4 events of 청주시 and 2 of 음성군 dropped; 3 new events under 청주시, 1 under 음성군 and 1
  under 진천군;
- elsewhere: 관람요금 edited on 2 events of 전라남도 강진군, 2 events of 충청남도 금산군 dropped,
  1 new event under 경상남도 통영시.
Rows whose text holds a replaced byte are left alone (re-encoding as UTF-8 would edit them).
"""
import collections, csv, io, json, os, sys
sys.path.insert(0, os.path.dirname(__file__))
import national_events as ne

OLD_PROVINCE, NEW_PROVINCE = "충청북도", "충북특별자치도"
MERGED = ("충청북도 음성군", "충청북도 진천군")
MERGED_INTO = NEW_PROVINCE + " 진천음성시"
ADDRESSES = ("소재지도로명주소", "소재지지번주소")
# Raon's names of the compared fields (CanonicalField), for the changed fields' counts.
FIELD = {"행사명": "title", "장소": "place", "행사내용": "programDescription", "행사시작일자": "startDate",
         "행사종료일자": "endDate", "행사시작시각": "startTime", "행사종료시각": "endTime", "요금정보": "feeKind",
         "주관기관명": "organizer", "주최기관명": "host", "전화번호": "inquiry", "후원기관명": "sponsor",
         "객석수": "seats", "관람요금": "feeText", "입장연령": "audience", "할인정보": "discount",
         "유의사항": "notes", "홈페이지주소": "orgLink", "예매정보": "booking", "주차장보유여부": "parking",
         "소재지도로명주소": "roadAddress", "소재지지번주소": "lotAddress", "위도": "latitude", "경도": "longitude"}


def read_cp949(path):
    text = open(path, "rb").read().decode("cp949", errors="replace")
    table = list(csv.reader(io.StringIO(text, newline="")))
    return table[0], table[1:]


def write(path, header, rows):
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows([header] + rows)


def build(source, outdir):
    header, rows = read_cp949(source)
    pristine = [list(r) for r in rows]
    col = {name: i for i, name in enumerate(header)}
    as_dict = lambda r: dict(zip(header, r))
    by_key = collections.defaultdict(list)
    for i, r in enumerate(rows):
        by_key[ne.key(as_dict(r))].append(i)
    clean = lambda k: all("\ufffd" not in "".join(rows[i]) for i in by_key[k])

    def events_of(provider, sessions=1):
        """The provider's clean events of exactly `sessions` rows, in key order."""
        return [k for k in sorted(by_key)
                if clean(k) and len(by_key[k]) == sessions and rows[by_key[k][0]][col["제공기관명"]] == provider]

    # The merged bodies must not share an event: merged, two events would become one.
    signature = lambda r: (ne.fold(r[col["행사명"]]), ne.day(r[col["행사시작일자"]]), ne.fold(r[col["장소"]]))
    sigs = [{signature(r) for r in rows if r[col["제공기관명"]] == m} for m in MERGED]
    assert not (sigs[0] & sigs[1]), "the merged bodies share an event"

    done = {"changed": [], "removed": [], "added": 0}
    cheongju, eumseong, jincheon = (events_of("충청북도 청주시"), events_of("충청북도 음성군"),
                                    events_of("충청북도 진천군"))
    gangjin, geumsan = events_of("전라남도 강진군"), events_of("충청남도 금산군")
    tongyeong = events_of("경상남도 통영시")
    for k in cheongju[:3] + gangjin[:2]:
        r = rows[by_key[k][0]]
        r[col["관람요금"]] = (r[col["관람요금"]] + " (변경)").strip()
        done["changed"].append(k)
    for k in eumseong[:2] + jincheon[:1]:
        r = rows[by_key[k][0]]
        r[col["행사시작시각"]] = "20:05" if r[col["행사시작시각"]] != "20:05" else "20:10"
        done["changed"].append(k)
    drop = set()
    for k in cheongju[3:7] + eumseong[2:4] + geumsan[:2]:
        drop.update(by_key[k])
        done["removed"].append(k)
    extra = []
    for n, k in enumerate(cheongju[10:13] + eumseong[10:11] + jincheon[5:6] + tongyeong[:1]):
        row = list(rows[by_key[k][0]])
        row[col["행사명"]] = row[col["행사명"]] + " 앙코르 %d" % (n + 1)
        extra.append(row)
        done["added"] += 1
    plain = [r for i, r in enumerate(rows) if i not in drop] + extra

    def renamed(r):
        r = list(r)
        name = r[col["제공기관명"]]
        if name in MERGED:
            r[col["제공기관명"]] = MERGED_INTO
            r[col["제공기관코드"]] = "9990001"
        elif name.startswith(OLD_PROVINCE + " ") or name == OLD_PROVINCE:
            r[col["제공기관명"]] = NEW_PROVINCE + name[len(OLD_PROVINCE):]
            r[col["제공기관코드"]] = "9" + r[col["제공기관코드"]][1:]
        else:
            return r
        for a in ADDRESSES:
            v = r[col[a]]
            for m in MERGED:
                if v.startswith(m + " ") or v == m:
                    v = MERGED_INTO + v[len(m):]
            if v.startswith(OLD_PROVINCE):
                v = NEW_PROVINCE + v[len(OLD_PROVINCE):]
            r[col[a]] = v
        return r

    merged = [renamed(r) for r in plain]
    os.makedirs(outdir, exist_ok=True)
    write(os.path.join(outdir, "plain.csv"), header, plain)
    write(os.path.join(outdir, "merged.csv"), header, merged)

    # A provider that truly stops (its events gone) and an unrelated new one that starts,
    # listing six events of its own, two of the stopped provider's (a show both list) and
    # three more of its titles on their days at other places (a touring show).
    rows = pristine
    stopped = events_of("충청남도 청양군")
    stops = [r for r in rows if r[col["제공기관명"]] != "충청남도 청양군"]
    def starts(r):
        r[col["제공기관명"]], r[col["제공기관코드"]] = "충청남도 보령문화재단", "9990002"
        return r
    for n, k in enumerate(events_of("충청남도 보령시")[:6]):
        row = list(rows[by_key[k][0]])
        row[col["행사명"]] = "보령문화재단 기획공연 %d" % (n + 1)
        stops.append(starts(row))
    for k in stopped[:2]:
        stops.append(starts(list(rows[by_key[k][0]])))
    for k in stopped[2:5]:
        row = list(rows[by_key[k][0]])
        row[col["장소"]] = "보령문화예술회관"
        stops.append(starts(row))
    write(os.path.join(outdir, "stops.csv"), header, stops)
    print(json.dumps({"changed": len(done["changed"]), "removed": len(done["removed"]), "added": done["added"],
                      "providers": sorted({r[col["제공기관명"]] for r in merged if r[col["제공기관명"]].startswith(NEW_PROVINCE)})},
                     ensure_ascii=False))


def count(old_path, new_path, province):
    before, after = ne.read(old_path), ne.read(new_path)
    shared = [c for c in ne.COMPARED if c in before[0] and c in after[0]]
    where = {}

    def events(rows):
        out = {}
        for row in rows:
            k = ne.key(row)
            out.setdefault(k, []).append(ne.compared(row, shared))
            pid = ne.provider(row.get("제공기관명", ""), row.get("제공기관코드", ""))
            gov = ne.province_of_id(pid)
            where.setdefault(k, gov if gov is not None else (
                ne.province_of_address(row.get("소재지도로명주소", ""))
                or ne.province_of_address(row.get("소재지지번주소", "")) or "기타"))
        return {k: sorted(v) for k, v in out.items()}

    old, new = events(before), events(after)

    def tally(keep):
        fields = collections.Counter()
        changed = [k for k in old if k in new and old[k] != new[k] and keep(k)]
        for k in changed:
            if len(old[k]) != len(new[k]):
                fields["sessions"] += 1
            for i, name in enumerate(shared):
                if {r[i] for r in old[k]} != {r[i] for r in new[k]}:
                    fields[FIELD[name]] += 1
        return {"added": sum(1 for k in new if k not in old and keep(k)),
                "removed": sum(1 for k in old if k not in new and keep(k)),
                "changed": len(changed), "fields": dict(sorted(fields.items()))}

    print(json.dumps({"all": tally(lambda k: True), "province": tally(lambda k: where.get(k) == province)},
                     ensure_ascii=False))


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3])
    else:
        count(sys.argv[2], sys.argv[3], sys.argv[4])
