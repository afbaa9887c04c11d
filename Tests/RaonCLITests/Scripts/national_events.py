"""An independent reading of the national standard data's events, from docs/NATIONAL.md.

Written apart from Raon's Swift code: it parses the shipped region table out of
Sources/RaonCore/National/RegionLineage+Table.swift (the one thing both share: data, not
logic) and computes, from the documented rules alone, each row's provider lineage, the
natural key of each event and the comparison of two downloads.

  python3 national_events.py diff OLD.csv NEW.csv   -> {"added": [...], "removed": [...], "changed": [...]}
  python3 national_events.py keys FILE.csv          -> {"events": N, "rows": N, "ids": {...}}
  python3 national_events.py providers FILE.csv     -> [{"name", "code", "id", "provinces"}...]
  python3 national_events.py rows FILE.csv          -> {"header": [...], "rows": [[...]], "keys": [...],
                                                       "providers": [...], "provinces": [...]}
"""
import csv, hashlib, io, json, os, re, sys, unicodedata

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TABLE = os.path.join(ROOT, "Sources", "RaonCore", "National", "RegionLineage+Table.swift")

# ---- the region table ----------------------------------------------------------------
spelling = {}      # any spelling of a 시·도 -> id
full_names = []    # full 시·도 names, longest first
provinces = []     # ids in order
bodies = {}        # (province, local) -> body id
body_last_province = {}
body_ids = set()
merges = {}        # body id -> into

def read_table():
    text = open(TABLE, encoding="utf-8").read()
    body = text.split('static let shippedTable = """', 1)[1].split('"""', 1)[0]
    fulls = []
    for line in body.split("\n"):
        line = line.strip(" \r")
        if not line:
            continue
        cells = [c.strip() for c in line.split("\\t")]
        kind = cells[0]
        cell = lambda i: cells[i] if i < len(cells) else ""
        if kind == "province":
            pid, name = cell(1), cell(2)
            if pid not in provinces:
                provinces.append(pid)
            for s in [name, pid] + [x.strip() for x in cell(6).split(",") if x.strip()]:
                spelling[s] = pid
            fulls.append(name)
        elif kind == "body":
            bid, prov, name = cell(1), cell(2), cell(3)
            bodies[(prov, name)] = bid
            body_last_province[bid] = prov
            body_ids.add(bid)
        elif kind == "merge":
            merges[cell(1)] = cell(2)
    full_names.extend(sorted(fulls, key=lambda s: (len(s), s), reverse=True))

read_table()

def collapsed(s):
    return " ".join(unicodedata.normalize("NFC", s).split())

def local_name(w):
    if w.endswith("특례시"):
        return w[:-3] + "시"
    for suffix in ("구청", "군청", "시청"):
        if w.endswith(suffix) and len(w) > 2:
            return w[:-1]
    return w

def is_local(w):
    return 2 <= len(w) <= 6 and w[-1] in "시군구"

def body_of(pid):
    if pid in body_ids or pid in merges:
        return pid
    words = pid.split(" ")
    if len(words) > 2:
        two = " ".join(words[:2])
        if two in body_ids or two in merges or words[0] in provinces:
            return two
    return pid

def key_lineage(pid):
    seen = set()
    while body_of(pid) in merges and pid not in seen:
        seen.add(pid)
        body = body_of(pid)
        pid = merges[body] + pid[len(body):]
    return pid

def province_of_id(pid):
    if pid.startswith("@"):
        return None
    if pid in provinces:
        return pid
    body = body_of(pid)
    if body in body_last_province:
        return body_last_province[body]
    first = pid.split(" ")[0]
    return spelling.get(first, "기타")

def provider(name, code):
    clean = collapsed(name)
    if not clean:
        c = collapsed(code)
        return ("@" + c) if c else "@"
    words = clean.split(" ")
    if words[0] in spelling:
        prov = spelling[words[0]]
        rest = words[1:]
        if not rest:
            return prov
        local = local_name(rest[0])
        if is_local(local):
            pid = bodies.get((prov, local), prov + " " + local)
            extra = " ".join(rest[1:])
            return pid + (" " + extra if extra else "")
        return "@{" + prov + "} " + " ".join(rest)
    for full in full_names:
        if clean.startswith(full):
            return "@{" + spelling[full] + "}" + clean[len(full):]
    return "@" + clean

def province_of_address(addr):
    clean = collapsed(addr)
    if not clean:
        return None
    first = clean.split(" ")[0]
    if first in spelling:
        return spelling[first]
    for full in full_names:
        if clean.startswith(full):
            return spelling[full]
    return None

def address_key(addr):
    clean = collapsed(addr)
    words = clean.split(" ") if clean else []
    if not words or words[0] not in spelling:
        return clean
    prov = spelling[words[0]]
    if len(words) > 1:
        local = local_name(words[1])
        if (prov, local) in bodies:
            return " ".join(["{" + key_lineage(bodies[(prov, local)]) + "}"] + words[2:])
        if prov + " " + local in merges:
            return " ".join(["{" + key_lineage(prov + " " + local) + "}"] + words[2:])
    return " ".join(["{" + prov + "}"] + words[1:])

# ---- text, dates, keys ---------------------------------------------------------------
def fold(s):
    out = []
    for ch in unicodedata.normalize("NFKC", s):
        if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf"):
            continue
        out.append(ch.lower() if "A" <= ch <= "Z" else ch)
    return "".join(out)

TRIM = " \t\n\r\x0b\x0c\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff"

def trimmed(s):
    return s.strip(TRIM)

def day(text):
    t = trimmed(text)
    m = re.match(r"(\d{4})\s*[-./년]\s*(\d{1,2})\s*[-./월]\s*(\d{1,2})(?!\d)", t) or re.match(r"(\d{4})(\d{2})(\d{2})(?!\d)", t)
    if not m:
        return None
    import datetime
    try:
        return datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3))).isoformat()
    except ValueError:
        return None

def key(row):
    lineage = key_lineage(provider(row.get("제공기관명", ""), row.get("제공기관코드", "")))
    start_text = row.get("행사시작일자", "")
    start = day(start_text) or fold(start_text)
    text = "\x1f".join(["national-v1", lineage, fold(row.get("행사명", "")), start, fold(row.get("장소", ""))])
    return "n:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

COMPARED = ["행사명", "장소", "행사내용", "행사시작일자", "행사종료일자", "행사시작시각", "행사종료시각", "요금정보",
            "주관기관명", "주최기관명", "전화번호", "후원기관명", "객석수", "관람요금", "입장연령", "할인정보", "유의사항",
            "홈페이지주소", "예매정보", "주차장보유여부", "소재지도로명주소", "소재지지번주소", "위도", "경도"]

def compared(row, columns=COMPARED):
    values = []
    for name in columns:
        v = trimmed(row.get(name, "") or "")
        if name in ("소재지도로명주소", "소재지지번주소"):
            v = address_key(v)
        values.append(v)
    return tuple(values)

def read(path):
    raw = open(path, "rb").read()
    if raw.startswith(b"\xef\xbb\xbf"):
        text = raw[3:].decode("utf-8")
    else:
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp949", errors="replace")
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    return [r for r in rows if any(trimmed(v or "") for v in r.values())]

def events(rows, columns=COMPARED):
    out = {}
    for row in rows:
        out.setdefault(key(row), []).append(compared(row, columns))
    return {k: sorted(v) for k, v in out.items()}

def main():
    command = sys.argv[1]
    if command == "diff":
        before, after = read(sys.argv[2]), read(sys.argv[3])
        # A column one download lacks altogether is not compared.
        shared = [c for c in COMPARED if before and after and c in before[0] and c in after[0]]
        old, new = events(before, shared), events(after, shared)
        print(json.dumps({
            "added": sorted(k for k in new if k not in old),
            "removed": sorted(k for k in old if k not in new),
            "changed": sorted(k for k in old if k in new and old[k] != new[k]),
        }))
    elif command == "keys":
        rows = read(sys.argv[2])
        ev = events(rows)
        print(json.dumps({"rows": len(rows), "events": len(ev), "sizes": {k: len(v) for k, v in ev.items()}}))
    elif command == "rows":
        path = sys.argv[2]
        raw = open(path, "rb").read()
        text = raw[3:].decode("utf-8") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("cp949", errors="replace")
        table = list(csv.reader(io.StringIO(text, newline="")))
        header, body = table[0], table[1:]
        rows = [dict(zip(header, r)) for r in body]
        ids = [provider(r.get("제공기관명", ""), r.get("제공기관코드", "")) for r in rows]
        provinces = []
        for r, pid in zip(rows, ids):
            gov = province_of_id(pid)
            provinces.append(gov if gov is not None else (province_of_address(r.get("소재지도로명주소", "")) or province_of_address(r.get("소재지지번주소", "")) or "기타"))
        print(json.dumps({"header": header, "rows": body, "keys": [key(r) for r in rows],
                          "providers": ids, "provinces": provinces}, ensure_ascii=False))
    elif command == "providers":
        seen = {}
        for row in read(sys.argv[2]):
            name, code = row.get("제공기관명", ""), row.get("제공기관코드", "")
            pid = provider(name, code)
            gov = province_of_id(pid)
            where = gov if gov is not None else (province_of_address(row.get("소재지도로명주소", "")) or province_of_address(row.get("소재지지번주소", "")) or "기타")
            seen.setdefault((name, code), {"name": name, "code": code, "id": pid, "provinces": set()})["provinces"].add(where)
        print(json.dumps([dict(v, provinces=sorted(v["provinces"])) for v in seen.values()], ensure_ascii=False))

if __name__ == "__main__":
    main()
