"""An independent count of the national data's week, from docs/NATIONAL.md and DESIGN.md's
definitions of the week, beside national_events.py (whose key, provider lineage and 시·도 it
uses; nothing of Raon's Swift code).

  python3 national_week.py FILE.csv YYYY-MM-DD(monday) YYYY-MM-DD(report day)
    -> {"events", "rows", "free", "paid", "mixed", "running", "current", "starting", "ending",
        "runningByRegion": {name: n}, "eventsByRegion": {name: n}, "currentByRegion": {name: n}, "endBeforeStart",
        "referenceStale", "coordsMissing"}

Rows sharing the natural key are one event: its start is the key's, its end the latest of
its rows', its 요금정보 the one kind all rows share (else 혼합), its 시·도 its provider's (else
its address's, else 기타 기관) named as on the report's day.
"""
import datetime, json, os, sys

sys.path.insert(0, os.path.dirname(__file__))
import national_events as ne

def names_on(day):
    """시·도 id -> its name on `day`, from the shipped table's province lines."""
    text = open(ne.TABLE, encoding="utf-8").read()
    body = text.split('static let shippedTable = """', 1)[1].split('"""', 1)[0]
    names = {}
    for line in body.split("\n"):
        cells = [c.strip() for c in line.strip(" \r").split("\\t")]
        if cells[0] != "province":
            continue
        pid, name = cells[1], cells[2]
        start = cells[3] if len(cells) > 3 else ""
        until = cells[4] if len(cells) > 4 else ""
        if (not start or start <= day) and (not until or day <= until):
            names[pid] = name
    names["기타"] = "기타 기관"
    return names

def kind(text):
    f = ne.fold(text)
    free, paid = ("무료" in f or f == "free"), ("유료" in f or f == "paid")
    if free and paid:
        return "mixed"
    if free:
        return "free"
    if paid:
        return "paid"
    return "mixed" if "혼합" in f else "unknown"

def main():
    path, monday, today = sys.argv[1], sys.argv[2], sys.argv[3]
    sunday = (datetime.date.fromisoformat(monday) + datetime.timedelta(days=6)).isoformat()
    names = names_on(today)
    rows = ne.read(path)
    events = {}
    for row in rows:
        pid = ne.provider(row.get("제공기관명", ""), row.get("제공기관코드", ""))
        gov = ne.province_of_id(pid)
        if gov is None:
            gov = (ne.province_of_address(row.get("소재지도로명주소", ""))
                   or ne.province_of_address(row.get("소재지지번주소", "")) or "기타")
        events.setdefault(ne.key(row), []).append((row, gov))
    out = {"rows": len(rows), "events": len(events), "free": 0, "paid": 0, "mixed": 0, "unknown": 0,
           "running": 0, "current": 0, "starting": 0, "ending": 0, "runningByRegion": {},
           "eventsByRegion": {}, "currentByRegion": {}, "endBeforeStart": 0, "referenceStale": 0, "coordsMissing": 0}
    stale_before = (datetime.date.fromisoformat(today) - datetime.timedelta(days=365)).isoformat()
    for sessions in events.values():
        govs = {g for _, g in sessions}
        assert len(govs) == 1, "an event's rows name two 시·도: order them as docs/NATIONAL.md says"
        region = names[govs.pop()]
        start = ne.day(sessions[0][0].get("행사시작일자", ""))
        ends = [e for e in (ne.day(r.get("행사종료일자", "")) for r, _ in sessions) if e]
        end = max(ends) if ends else None
        kinds = {kind(r.get("요금정보", "")) for r, _ in sessions}
        k = kinds.pop() if len(kinds) == 1 else ("unknown" if kinds == {"unknown"} else "mixed")
        out[k] += 1
        out["eventsByRegion"][region] = out["eventsByRegion"].get(region, 0) + 1
        if end is None or end >= monday:
            out["current"] += 1
            out["currentByRegion"][region] = out["currentByRegion"].get(region, 0) + 1
        if start and end and start <= sunday and end >= monday:
            out["running"] += 1
            out["runningByRegion"][region] = out["runningByRegion"].get(region, 0) + 1
        if start and monday <= start <= sunday:
            out["starting"] += 1
        if end and monday <= end <= sunday:
            out["ending"] += 1
        if any((lambda s, e: s and e and e < s)(ne.day(r.get("행사시작일자", "")), ne.day(r.get("행사종료일자", "")))
               for r, _ in sessions):
            out["endBeforeStart"] += 1
        refs = [d for d in (ne.day(r.get("데이터기준일자", "")) for r, _ in sessions) if d]
        if refs and max(refs) < stale_before:
            out["referenceStale"] += 1
        if all(not ne.trimmed(r.get("위도", "") or "") or not ne.trimmed(r.get("경도", "") or "") for r, _ in sessions):
            out["coordsMissing"] += 1
    print(json.dumps(out, ensure_ascii=False))

if __name__ == "__main__":
    main()
