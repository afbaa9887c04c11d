#!/usr/bin/env python3
"""Writes the seed corpora (Fuzz/corpus/TARGET/) from the bundled sample catalog, cut into
small pieces: a few rows per CSV/JSON seed, one field per line for the fields target.
Deterministic: the same sample gives the same files. Run from anywhere."""
import csv, io, json, os, random, shutil, hashlib

here = os.path.dirname(os.path.abspath(__file__))
sample = os.path.join(here, "..", "Sources/RaonWorkflow/Resources/sample/seoul-cultural-events-2024-09-09.cp949.csv")
rng = random.Random(20240909)

with open(sample, "rb") as f:
    text = f.read().decode("cp949", errors="replace")
rows = list(csv.reader(io.StringIO(text, newline="")))
header, body = rows[0], rows[1:]

API = {"분류": "CODENAME", "자치구": "GUNAME", "공연/행사명": "TITLE", "날짜/시간": "DATE",
       "장소": "PLACE", "기관명": "ORG_NAME", "이용대상": "USE_TRGT", "이용요금": "USE_FEE",
       "출연자정보": "PLAYER", "프로그램소개": "PROGRAM", "기타내용": "ETC_DESC",
       "홈페이지 주소": "ORG_LINK", "대표이미지": "MAIN_IMG", "신청일": "RGSTDATE",
       "시민/기관": "TICKET", "시작일": "STRTDATE", "종료일": "END_DATE", "테마분류": "THEMECODE",
       "유무료": "IS_FREE", "문화포털상세URL": "HMPG_ADDR"}

def api_key(name):
    if name.startswith("위도"): return "LAT"
    if name.startswith("경도"): return "LOT"
    return API.get(name.replace("?", " "), name)

def reset(target):
    d = os.path.join(here, "corpus", target)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d

def put(d, data):
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

# CSV: header + 1–3 rows, in CP949, UTF-8 with BOM and plain UTF-8.
d = reset("csv")
for k in range(40):
    start = rng.randrange(len(body) - 3)
    out = io.StringIO(newline="")
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(header)
    w.writerows(body[start:start + 1 + k % 3])
    s = out.getvalue()
    enc = ["cp949", "utf-8-sig", "utf-8"][k % 3]
    put(d, s.encode(enc, errors="replace"))
put(d, (",".join(header) + "\r\n").encode("cp949", errors="replace"))

def objects(chosen, lower):
    objs = []
    for r in chosen:
        o = {}
        for name, value in zip(header, r):
            key = api_key(name)
            o[key.lower() if lower else key] = value
        objs.append(o)
    return objs

# JSON file download: lower-case keys, Unix-ms dates, top-level array or {DATA: [...]}.
d = reset("json_file")
for k in range(30):
    start = rng.randrange(len(body) - 2)
    objs = objects(body[start:start + 1 + k % 2], lower=True)
    for o in objs:
        if k % 2 == 0:
            o["strtdate"] = 1725148800000 + 86400000 * (k - 15)
            o["end_date"] = None if k % 4 == 0 else 1734793200000.0
        o["lat"] = float(o.get("lat") or 0) if k % 5 else o.get("lat")
    doc = objs if k % 3 else {"DESCRIPTION": {"TITLE": "공연/행사명"}, "DATA": objs}
    put(d, json.dumps(doc, ensure_ascii=k % 2 == 0).encode("utf-8-sig" if k % 7 == 0 else "utf-8"))

# API pages: {"culturalEventInfo": {list_total_count, RESULT, row}} and error bodies.
d = reset("json_api")
for k in range(30):
    start = rng.randrange(len(body) - 3)
    objs = objects(body[start:start + 1 + k % 3], lower=False)
    page = {"culturalEventInfo": {"list_total_count": len(body),
                                  "RESULT": {"CODE": "INFO-000", "MESSAGE": "정상 처리되었습니다"},
                                  "row": objs}}
    put(d, json.dumps(page, ensure_ascii=k % 2 == 0).encode())
for code, msg in [("INFO-100", "인증키가 유효하지 않습니다."), ("INFO-200", "해당하는 데이터가 없습니다."),
                  ("ERROR-336", "데이터요청은 한번에 최대 1000건을 넘을 수 없습니다."), ("ERROR-500", "서버 오류")]:
    put(d, json.dumps({"RESULT": {"CODE": code, "MESSAGE": msg}}, ensure_ascii=False).encode())

# Fields: NAME=VALUE lines, one record per seed, plus the distinct fee and date texts.
d = reset("fields")
for k in range(40):
    r = body[rng.randrange(len(body))]
    lines = [f"{n}={v}".replace("\n", " ").replace("\r", " ") for n, v in zip(header, r)]
    put(d, "\n".join(lines).encode())
idx = {n: i for i, n in enumerate(header)}
for col in ["이용요금", "날짜/시간", "시작일", "종료일"]:
    values = sorted({r[idx[col]] for r in body if idx[col] < len(r)})
    rng.shuffle(values)
    for v in values[:60]:
        put(d, f"{col}={v}".replace("\r", " ").encode())
for extra in ["이용요금=1만5천원", "이용요금=R석 11만원 /S석 9만원", "이용요금=1~3만원", "이용요금=₩20,000",
              "이용요금=20.000원", "이용요금=99999999999999999999원", "시작일=1734793200000",
              "시작일=-62135596800000", "날짜/시간=2024-12-22~12-25", "위도(X좌표)=127.0\n경도(Y좌표)=37.5"]:
    put(d, extra.encode())
# Config: valid raon.toml files using every kind of TOML value, and the malformed ones that
# aborted toml++ inside TOMLKit before the grammar check (issue 37).
d = reset("config")
for text in [
    'db = "/var/lib/raon/raon.sqlite"\nformats = ["md", "xlsx", "csv", "json"]\nout = "reports"\nlang = "ko"\n'
    'api_base = "http://openapi.seoul.go.kr:8088"\ncsv_encoding = "utf8-bom"\ncsv_headers = "en"\nchart_top_n = 10\n',
    '# weekly\n[report]\nlang = "en" # English\nformats = [\n  "md",  # the report\n  "json",\n]\n',
    'out = """\nreports\\\n   /weekly"""\nlit = \'\'\'C:\\raon\'\'\'\n"quoted key" = \'x\'\n',
    'a.b.c = 1\n[t]\nx = { y = 1, z = [1, 2.5, -3e2, +inf, nan] }\n[[arr]]\nk = true\n[[arr]]\nk = false\n',
    'd1 = 1979-05-27T07:32:00Z\nd2 = 1979-05-27 07:32:00.999-07:00\nd3 = 1979-05-27\nt = 07:32:00\n',
    'h = 0xDEAD_BEEF\no = 0o755\nb = 0b1101\nn = -9_223_372_036_854_775_808\ns = "\\u00e9\\U0001F600\\t"\r\n',
    '[mail]\nto = ["a@example.org"]\n[weekly]\nat = "Mon 08:00"\n',
    '[\n', '[[[1]]]\n', 'db = [0, }\n', 'x = [}\n', '[[=\n', '[a\n', 'x = {a=1,}\n', 'x = """\n',
]:
    put(d, text.encode())
# The weekly service's sections: DESIGN.md's [weekly]/[mail]/[document] example, a sender with
# a display name, and the addresses, ports and header look-alikes of issue 49.
d = reset("mail_config")
for text in [
    '[weekly]\nsource = "api"\nformats = ["pdf", "xlsx"]\ndistricts = "all"\nout = "/srv/raon/reports"\n'
    '[document]\ndepartment = "문화본부 문화정책과"\nofficer = "주무관 홍길동"\nphone = "02-2133-0000"\n'
    '[mail]\nserver = "smtp://mail.example:587"\nfrom = "culture@example.go.kr"\nuser = "culture"\n'
    'ca_file = "/etc/raon/ca.pem"\noperator = ["ops@example.go.kr"]\ncity = ["a@example.go.kr"]\ntimeout = 20\n'
    '[mail.districts]\n"종로구" = ["b@example.go.kr"]\n',
    '[mail]\nfrom = "서울특별시 문화정책과 <culture@example.go.kr>"\nserver = "smtps://127.0.0.1:465/raon.example.go.kr"\n',
    '[mail]\nfrom = "\\"Culture, Seoul\\" <culture@example.go.kr>"\ncity = ["a@-x.kr", ".a@x.kr", "a..b@x.kr", "a@xn--3e0b707e.kr"]\n',
    '[mail]\nserver = "smtp://127.0.0.1:99999"\nfrom = "a@x.kr\\r\\nBcc: evil@example.org"\n',
    '[mail]\nserver = "smtp://[::1]:0/x%0d%0aMAIL"\nfrom = "=?UTF-8?B?QmNj?= <a@b.kr>"\n',
    'subject = "' + "서울특별시 문화행사 주간 현황 " * 6 + '"\npassword = "PW\\r\\n"\n',
]:
    put(d, text.encode())
print("seed corpora written under", os.path.join(here, "corpus"))
