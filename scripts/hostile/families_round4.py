"""Issue 37's hostile families, hooked into run_hostile.py by `register` (one import and
one call there), so parallel branches add their families without touching the same lines.

  xlsx_bombs    small workbooks that inflate to gigabytes (one 250 MB cell, a 500 MB shared
                string, 80 million empty shared strings, a cell at column 99,999 in 100,000
                rows, 1,000,000 cell styles, 5,000,000 relationships, a sheet whose ZIP entry
                declares 1 KB and inflates to 300 MB) and honest ones: each bomb ends with
                exit 1, one line, nothing recorded and a peak RSS under 300 MB (measured with
                ru_maxrss, the child under an 8 GiB address-space cap) — but the relationships,
                25 MB of unique ids that compress like honest XML, which are read in bounded
                memory; the sample as .xlsx (openpyxl, xlsxwriter) is recorded whole.
  config_fuzz   raon.toml files a fuzzer's mutations make from valid ones, the inputs that
                aborted toml++ inside TOMLKit, and the config minors (an inline table, a
                nested table, a FIFO, 1 MB + 1 byte, a byte that is not UTF-8, a 1 MB value):
                exit 78 with one line naming raon.toml:LINE (a line of the file), or the
                command's own outcome for a mutant that is still a valid config; never a
                signal or a crash dump.
  long_ids      cultcodes of 6 to 2,700 digits: an id up to 200 bytes is recorded and
                `raon report` and `raon site` work; a longer one is refused in one line
                naming the row and the limit, nothing recorded.
  store_limits  the same rows on SQLite and on a private PostgreSQL server: ids and field
                names at the limits recorded on both, one byte over refused on both alike;
                `store copy` both ways of a history at the limits; a history over them
                (edited into SQLite by Python) refused by `store copy` into PostgreSQL in one
                line, the target left empty.
"""
import csv
import io
import json
import os
import random
import re
import resource
import shutil
import sqlite3
import subprocess
import sys

H = None  # the run_hostile module, set by register()

CONFIG_SEEDS = [
    '# the weekly job\ndb = "/var/lib/raon/raon.sqlite"\nformats = ["md", "xlsx", "csv", "json"]\nout = "reports"\n'
    'lang = "ko"\napi_base = "http://openapi.seoul.go.kr:8088"\ncsv_encoding = "utf8-bom"\ncsv_headers = "en"\n'
    'chart_top_n = 10\n',
    '[report]\nlang = "en" # English\nformats = [\n  "md",  # the report\n  "json",\n]\n',
    'out = """\nreports\\\n   /weekly"""\ndb = \'C:\\raon\\raon.sqlite\'\n"lang" = \'ko\'\n',
    'a.b.c = 1\n[t]\nx = { y = 1, z = [1, 2.5, -3e2, +inf, nan] }\n[[arr]]\nk = true\n',
    'd1 = 1979-05-27T07:32:00Z\nd2 = 1979-05-27 07:32:00.999-07:00\nd3 = 1979-05-27\nt = 07:32:00\n',
    'h = 0xDEAD_BEEF\no = 0o755\nb = 0b1101\nn = -9_223_372_036_854_775_808\ns = "\\u00e9\\t"\r\n',
]
FORMER_ABORTS = ["[\n", "[", "[[[1]]]\n", "[[[a]]]\n", "[[[]]\n", "[[=\n", "db = [0, }\n", "x = [}\n",
                 "[\n\n[report]\nlang = \"en\"\n", "lang = \"ko\"\n[ \n", "[a.\n", "x = [,]\n", "x = { , }\n"]
TOKENS = ["[", "]", "[[", "]]", "{", "}", "=", ",", ".", "#", '"', "'", '"""', "'''", "\\", "\\u", "\n", "\r",
          "\r\n", "\t", " ", "true", "inf", "nan", "0x", "_", "e+", "1979-05-27", "T07:32:60", "Z", "\x7f",
          "\x1b", "가", "\ufeff", "lang", "db", "[report]", "-", "+", ":"]


def register(module):
    """Adds the families to run_hostile's tables."""
    global H
    H = module
    for name, builder, count in (("xlsx_bombs", family_xlsx_bombs, 0), ("config_fuzz", family_config_fuzz, 300),
                                 ("long_ids", family_long_ids, 0), ("store_limits", family_store_limits, 0)):
        H.DEFAULT_COUNTS[name] = count
        H.FAMILIES.append(name)
        H.BUILDERS[name] = builder


def sample_rows():
    return [list(r) for r in H.Ctx.body]


def write_catalog(path, header, rows):
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows([header] + rows)
    return path


def snapshot_ids(store, d, env=None):
    r = H.run(["snapshots", "--db", store, "--json"], d, env=env)
    if r.rc != 0:
        return None
    return [s["id"] for s in json.loads(r.out or b"[]")]


# ---------------------------------------------------------------------------------------
# xlsx_bombs
# ---------------------------------------------------------------------------------------

BOMBS = [("cell", 250), ("cell", 64), ("shared", 500), ("empty-shared", 80_000_000), ("sparse", 100_000),
         ("styles", 1_000_000), ("rels", 5_000_000), ("lying", 300)]
CAP = 8 << 30


def bomb_file(kind, size):
    from raon_testkit import xlsx_bombs
    folder = os.path.join(H.Ctx.work, "inputs", "bombs")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{kind}-{size}.xlsx")
    if not os.path.exists(path):
        xlsx_bombs.write(kind, path, size)
    return path


def peak_run(args, cwd):
    """Runs raon with ARGS under an address-space cap; (exit status, peak KiB, stderr)."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))
    code = ("import resource, subprocess, sys\n"
            "r = subprocess.run(sys.argv[1:], capture_output=True, stdin=subprocess.DEVNULL)\n"
            "sys.stderr.buffer.write(r.stderr)\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    p = subprocess.run([sys.executable, "-c", code, H.Ctx.raon] + args, cwd=cwd, env=H.base_env(),
                       capture_output=True, timeout=600, preexec_fn=cap)
    status, kib = p.stdout.decode().split()
    return int(status), int(kib), p.stderr


def case_bomb(d, kind, size):
    problems = []
    book = bomb_file(kind, size)
    if kind != "rels" and os.path.getsize(book) > 3 << 20:
        problems.append(f"the bomb takes {os.path.getsize(book)} bytes")
    store = os.path.join(d, "s.sqlite")
    status, kib, err = peak_run(["snapshot", book, "--db", store, "--taken-at", "2024-09-09"], d)
    r = H.Result(["snapshot", kind], status, b"", err, 0)
    H.check_no_crash(r, problems)
    if kind == "rels":
        # Unique ids do not compress: 25 MB on disk, an honest ratio. Only the first
        # sheet's relationship is kept, so it is read in bounded memory.
        if status != 0:
            problems.append(f"exit {status}: {H.short(err)}")
    elif status != 1:
        problems.append(f"exit {status} (expected 1): {H.short(err)}")
    else:
        H.check_one_line_error(r, problems)
        if b"ZIP bomb" not in err:
            problems.append(f"the error does not say why: {H.short(err)}")
    if kib > 300_000:
        problems.append(f"peak RSS {kib // 1024} MiB")
    H.note("xlsx_bombs", f"{kind} {size}: peak {kib // 1024} MiB")
    if kind != "rels" and os.path.exists(store) and snapshot_ids(store, d):
        problems.append("a snapshot was recorded")
    return problems


def case_honest_xlsx(d, writer):
    problems = []
    book = os.path.join(d, f"sample-{writer}.xlsx")
    header, rows = H.Ctx.header, sample_rows()
    clean = lambda v: re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", "", v)
    if writer == "openpyxl":
        from openpyxl import Workbook
        wb = Workbook()
        ws = wb.active
        ws.append(header)
        for r in rows:
            ws.append([clean(v) for v in r])
        wb.save(book)
    else:
        import xlsxwriter
        wb = xlsxwriter.Workbook(book)
        ws = wb.add_worksheet()
        ws.write_row(0, 0, header)
        for i, r in enumerate(rows):
            ws.write_row(i + 1, 0, [clean(v) for v in r])
        wb.close()
    status, kib, err = peak_run(["snapshot", book, "--db", os.path.join(d, "s.sqlite"), "--taken-at", "2024-09-09"], d)
    if status != 0:
        problems.append(f"an honest workbook was refused: exit {status}: {H.short(err)}")
    elif snapshot_ids(os.path.join(d, "s.sqlite"), d) != [1]:
        problems.append("not recorded")
    H.note("xlsx_bombs", f"honest {writer}: peak {kib // 1024} MiB")
    return problems


def family_xlsx_bombs(n, rng):
    cases = [(f"{kind} {size:,} {'read' if kind == 'rels' else 'refused in one line'} under 300 MB",
              lambda d, k=kind, s=size: case_bomb(d, k, s)) for kind, size in BOMBS]
    cases += [(f"the sample as .xlsx by {w} recorded", lambda d, w=w: case_honest_xlsx(d, w))
              for w in ("openpyxl", "xlsxwriter")]
    return cases


# ---------------------------------------------------------------------------------------
# config_fuzz
# ---------------------------------------------------------------------------------------

def mutant(rng):
    text = rng.choice(CONFIG_SEEDS)
    for _ in range(rng.randint(1, 5)):
        at = rng.randint(0, len(text))
        op = rng.randrange(7)
        if op == 0:
            text = text[:at] + rng.choice(TOKENS) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + 1:]
        elif op == 2:
            text = text[:at] + text[at + rng.randint(1, 12):]
        elif op == 3:
            text = text[:at] + chr(rng.randrange(0x80)) + text[at + 1:]
        elif op == 4:
            text = text[:at]
        elif op == 5:
            end = min(len(text), at + rng.randint(1, 16))
            text = text[:end] + text[at:end] + text[end:]
        else:
            lines = text.split("\n")
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


def case_config_text(d, data, expect=None, says=None, line=None):
    problems = []
    cfg = os.path.join(d, "raon.toml")
    if data == "FIFO":
        os.mkfifo(cfg)
        lines = 1
    else:
        open(cfg, "wb").write(data)
        lines = data.count(b"\n") + 1
    r = H.run(["snapshots", "--db", os.path.join(d, "store.sqlite")], d, timeout=30)
    H.check_no_crash(r, problems)
    if r.rc == "timeout":
        return problems
    if r.rc not in (0, 1, 64, 78):
        problems.append(f"exit {r.rc}: {H.short(r.err)}")
    if r.rc != 0:
        H.check_one_line_error(r, problems)
    if expect is not None and r.rc != expect:
        problems.append(f"exit {r.rc} (expected {expect}): {H.short(r.err)}")
    if r.rc == 78:
        m = re.search(rb"raon\.toml:(\d+): ", r.err)
        if not m:
            problems.append(f"no raon.toml:LINE: {H.short(r.err)}")
        elif data != "FIFO" and not (1 <= int(m.group(1)) <= lines) and int(m.group(1)) != 0:
            problems.append(f"line {m.group(1)} of a {lines}-line file")
        elif line is not None and int(m.group(1)) != line:
            problems.append(f"names line {m.group(1)}, expected {line}: {H.short(r.err)}")
    if says and says.encode() not in r.err:
        problems.append(f"does not say {says!r}: {H.short(r.err)}")
    if len(r.err) > 600:
        problems.append(f"{len(r.err)} bytes of error")
    H.note("config_fuzz", f"exit {r.rc}")
    return problems


def family_config_fuzz(n, rng):
    cases = [(f"former abort {t!r}", lambda d, t=t: case_config_text(d, t.encode(), 78, "not valid TOML"))
             for t in FORMER_ABORTS]
    minors = [
        ("lang = {a=1}", b"# c\nlang = {a=1}\n", 78, "'lang' must be a string", 2),
        ("[a.b.c]", b"lang = \"ko\"\n[a.b.c]\n", 78, "a table inside the section [a]", 2),
        ("csv_headers = {}", b"csv_headers = {}\n", 78, "'csv_headers' must be a string", 1),
        ("a FIFO", "FIFO", 78, "FIFO", None),
        ("1 MB + 1 byte", b"#" * ((1 << 20) + 1), 78, "larger than 1 MB", None),
        ("CP949 on line 3", b"lang = \"ko\"\n\n# \xb0\xa1\n", 78, "not UTF-8", 3),
        ("a 1 MB lang", b"lang = \"" + b"x" * ((1 << 20) - 20) + b"\"\n", 78, "characters)", 1),
    ]
    cases += [(f"minor: {name}", lambda d, t=t, e=e, s=s, l=l: case_config_text(d, t, e, s, l))
              for name, t, e, s, l in minors]
    for k in range(n):
        text = mutant(rng)
        cases.append((f"mutant {k}: {text[:40]!r}", lambda d, t=text: case_config_text(d, t.encode("utf-8", "replace"))))
    return cases


# ---------------------------------------------------------------------------------------
# long_ids and store_limits
# ---------------------------------------------------------------------------------------

def rows_with(cultcode=None, extra=0, extra_name_bytes=None):
    header, rows = list(H.Ctx.header), [list(r) for r in H.Ctx.body[:60]]
    url = header.index("문화포털상세URL")
    if cultcode is not None:
        rows[4][url] = rows[4][url].split("cultcode=")[0] + "cultcode=" + cultcode
    if extra:
        header += [f"extra{i}" for i in range(extra)]
        rows = [r + ["v"] * extra for r in rows]
    if extra_name_bytes is not None:
        # One more column whose name brings the header's JSON list to exactly that many bytes.
        size = len(json.dumps(header + [""], ensure_ascii=False, separators=(",", ":")).encode())
        header.append("n" * (extra_name_bytes - size))
        rows = [r + ["v"] for r in rows]
    return header, rows


def case_long_id(d, digits, with_site):
    problems = []
    header, rows = rows_with(cultcode="7" * digits)
    catalog = write_catalog(os.path.join(d, "long.csv"), header, rows)
    store = os.path.join(d, "s.sqlite")
    fits = len("cult:") + digits <= 200
    r = H.run(["report", "--input", catalog, "--taken-at", "2024-09-09", "--db", store, "--out",
               os.path.join(d, "out"), "--format", "md,xlsx,csv,json"], d)
    H.check_outcome_lines(r, problems)
    if fits:
        if r.rc != 0:
            problems.append(f"an id of {5 + digits} bytes was refused: {H.short(r.err)}")
        elif with_site:
            s = H.run(["site", "--db", store, "--out", os.path.join(d, "site")], d)
            H.check_outcome_lines(s, problems, what="raon site")
            if s.rc != 0:
                problems.append(f"raon site failed: {H.short(s.err)}")
    else:
        if r.rc != 1:
            problems.append(f"an id of {5 + digits} bytes: exit {r.rc}")
        elif b"more than the 200" not in r.err or b"long.csv:" not in r.err:
            problems.append(f"the error names neither the row nor the limit: {H.short(r.err)}")
        if os.path.exists(store) and snapshot_ids(store, d):
            problems.append("a snapshot was recorded")
    return problems


def family_long_ids(n, rng):
    return [(f"cultcode of {k} digits{' (+ site)' if site else ''}", lambda d, k=k, s=site: case_long_id(d, k, s))
            for k, site in ((6, True), (50, False), (194, False), (195, True), (196, False), (246, False),
                            (2_700, False))]


def stores(d):
    """SQLite, and a fresh schema on the shared PostgreSQL server when there is one."""
    out = [(os.path.join(d, "s.sqlite"), None)]
    try:
        pg = H.R3SPostgres.shared()
        schema = "lim_" + os.path.basename(d).replace("-", "_")
        out.append((pg.url(schema), H.base_env({"PGPASSWORD": H.R3S_SECRET})))
    except H.Skip as e:
        H.note("store_limits", f"PostgreSQL skipped: {e}")
    return out


def case_limit(d, kind):
    problems = []
    if kind == "id 200":
        rows, ok = rows_with(cultcode="7" * 195), True
    elif kind == "id 201":
        rows, ok = rows_with(cultcode="7" * 196), False
    elif kind == "names 2000":
        rows, ok = rows_with(extra_name_bytes=2_000), True
    elif kind == "names 2001":
        rows, ok = rows_with(extra_name_bytes=2_001), False
    elif kind == "id 2700":
        rows, ok = rows_with(cultcode="1" * 2_695), False
    else:
        rows, ok = rows_with(extra=800), False
    catalog = write_catalog(os.path.join(d, "c.csv"), *rows)
    for store, env in stores(d):
        where = "PostgreSQL" if store.startswith("postgres") else "SQLite"
        r = H.run(["snapshot", catalog, "--db", store, "--taken-at", "2024-09-09"], d, env=env)
        H.check_outcome_lines(r, problems, what=where)
        if ok and r.rc != 0:
            problems.append(f"{where}: {kind} refused: {H.short(r.err)}")
        if not ok:
            if r.rc != 1 or b"c.csv:" not in r.err or b"a Raon store keeps" not in r.err:
                problems.append(f"{where}: {kind}: exit {r.rc}: {H.short(r.err)}")
            if snapshot_ids(store, d, env):
                problems.append(f"{where}: a snapshot was recorded")
    return problems


def case_copy(d, over):
    problems = []
    targets = stores(d)
    if len(targets) < 2:
        raise H.Skip("no PostgreSQL server")
    (sqlite_path, _), (pg, env) = targets
    header, rows = rows_with(cultcode="7" * 195, extra_name_bytes=2_000)
    r = H.run(["snapshot", write_catalog(os.path.join(d, "c.csv"), header, rows), "--db", sqlite_path,
               "--taken-at", "2024-09-09"], d)
    if r.rc != 0:
        return [f"setup: {H.short(r.err)}"]
    if over:
        c = sqlite3.connect(sqlite_path)
        c.execute("UPDATE program_version SET program_id = 'cult:' || ? WHERE program_id LIKE 'cult:777%'",
                  ("8" * 2_700,))
        c.commit()
        c.close()
    r = H.run(["store", "copy", sqlite_path, pg], d, env=env)
    H.check_outcome_lines(r, problems, what="store copy")
    if over:
        if r.rc != 1 or b"snapshot 1, program 'cult:888" not in r.err:
            problems.append(f"exit {r.rc}: {H.short(r.err)}")
        if snapshot_ids(pg, d, env):
            problems.append("the target holds snapshots")
    else:
        if r.rc != 0:
            problems.append(f"a history at the limits did not copy: {H.short(r.err)}")
        back = os.path.join(d, "back.sqlite")
        b = H.run(["store", "copy", pg, back], d, env=env)
        if b.rc != 0:
            problems.append(f"and back: {H.short(b.err)}")
    return problems


def family_store_limits(n, rng):
    kinds = ["id 200", "id 201", "names 2000", "names 2001", "id 2700", "800 columns"]
    cases = [(f"{k} on SQLite and PostgreSQL alike", lambda d, k=k: case_limit(d, k)) for k in kinds]
    cases.append(("store copy of a history at the limits, both ways", lambda d: case_copy(d, False)))
    cases.append(("store copy into PostgreSQL of a history over them refused", lambda d: case_copy(d, True)))
    return cases
