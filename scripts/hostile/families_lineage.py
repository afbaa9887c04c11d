"""Issue 49's hostile family for lineage found in the national data (issue 45), hooked into
run_hostile.py by `register`.

  national_lineage  later downloads built here from the shared national download (a 시·도
                renamed, providers merged into a new one or into one that was there, a
                provider renamed, both at once — national_merger.py's own —, a provider that
                stops beside an unrelated one that starts, renamed providers keeping too few of
                their events to be found or just enough), each recorded a week after the
                download and reported by `raon report --catalog national` in five ways: as it
                is (found, or not), with the `raon.toml` lines Raon printed pasted in, with the
                lines written by hand here, with Raon's refusing lines (not_lineage), and with
                detect_lineage = false. Checked against national_merger.py's independent count:
                the counts (added, removed, changed, the changed fields) of the country, and of
                충북's pack where it is renamed, equal the count of the same data under the old
                names when the change is found, applied by hand or pasted, and the count of the
                data as it is when refused, switched off or not a lineage; the warning names
                exactly the expected renames and merges (its raon.toml lines parsed); none when
                nothing is to be found or it is settled in raon.toml; `--region` takes the new
                시·도's name only when the rename applies. Each variant once more, found, on a
                PostgreSQL store (the history copied there by `raon store copy`).
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

H = None
HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..", "..", "Tests", "RaonCLITests", "Scripts")
SHARED = "/work/shared/data/national-performance-events-2025-03.cp949.csv"
REPO_COPY = os.path.join(HERE, "..", "..", "data", "sample", "national-performance-events-2025-03.cp949.csv")
DAY = "2025-04-07"
ADDRESSES = ("소재지도로명주소", "소재지지번주소")


def register(module):
    global H
    H = module
    H.DEFAULT_COUNTS["national_lineage"] = 0
    H.FAMILIES.append("national_lineage")
    H.BUILDERS["national_lineage"] = family_lineage
    H.QUICK["national_lineage"] = lambda cases: [c for c in cases if c[0].startswith(("both", "look-alike: stops"))
                                                 and c[0].endswith(("(found)", "(pasted)"))]


def download():
    if os.path.exists(SHARED):
        return SHARED
    for root, _, files in os.walk(os.path.join(HERE, "..", "..", "data")):
        for f in files:
            if f.startswith("national-performance-events") and f.endswith(".csv"):
                return os.path.join(root, f)
    raise H.Skip("no national download (/work/shared/data or data/)")


def read_cp949(path):
    text = open(path, "rb").read().decode("cp949", errors="replace")
    table = list(csv.reader(io.StringIO(text, newline="")))
    return table[0], table[1:]


def write(path, header, rows):
    with open(path, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f, lineterminator="\r\n").writerows([header] + rows)


# ---------------------------------------------------------------------------------------
# The later downloads
# ---------------------------------------------------------------------------------------

def rename_rows(header, rows, provider_map, province=None):
    """Rows with providers renamed: provider_map {old name: (new name, new code)}; province
    (old, new) renames every provider of the 시·도 and the addresses."""
    col = {n: i for i, n in enumerate(header)}
    out = []
    for r in rows:
        r = list(r)
        name = r[col["제공기관명"]]
        if name in provider_map:
            r[col["제공기관명"]], code = provider_map[name]
            if code:
                r[col["제공기관코드"]] = code
            old_local = name
            new_local = r[col["제공기관명"]]
            for a in ADDRESSES:
                v = r[col[a]]
                if v.startswith(old_local + " ") and province is None and old_local.split(" ")[0] == new_local.split(" ")[0]:
                    r[col[a]] = new_local + v[len(old_local):]
        if province:
            old, new = province
            name = r[col["제공기관명"]]
            if name == old or name.startswith(old + " "):
                r[col["제공기관명"]] = new + name[len(old):]
                r[col["제공기관코드"]] = "9" + r[col["제공기관코드"]][1:]
                for a in ADDRESSES:
                    if r[col[a]].startswith(old):
                        r[col[a]] = new + r[col[a]][len(old):]
        out.append(r)
    return out


def edits(header, rows, providers):
    """Real edits among the providers' events, the same whatever their names: a fee edited
    on each one's first clean event, the second event of the first dropped."""
    col = {n: i for i, n in enumerate(header)}
    first = {}
    for i, r in enumerate(rows):
        p = r[col["제공기관명"]]
        if p in providers and "\ufffd" not in "".join(r):
            first.setdefault(p, []).append(i)
    drop = set()
    rows = [list(r) for r in rows]
    for p in sorted(first):
        rows[first[p][0]][col["관람요금"]] = (rows[first[p][0]][col["관람요금"]] + " (변경)").strip()
    lead = sorted(first)[0] if first else None
    if lead and len(first[lead]) > 2:
        title = rows[first[lead][1]][col["행사명"]]
        drop = {i for i in first[lead] if rows[i][col["행사명"]] == title}
    return [r for i, r in enumerate(rows) if i not in drop]


def keep_only(header, rows, provider, keep, current_only):
    """The provider's events cut to `keep` (by event: title, start day, place), the current
    ones (ending on DAY or later) dropped first when not `current_only`."""
    sys.path.insert(0, SCRIPTS)
    import national_events as ne
    col = {n: i for i, n in enumerate(header)}
    keys = {}
    for i, r in enumerate(rows):
        if r[col["제공기관명"]] != provider:
            continue
        d = dict(zip(header, r))
        k = ne.key(d)
        end = ne.day(d["행사종료일자"])
        keys.setdefault(k, {"rows": [], "current": end is None or str(end) >= DAY})
        keys[k]["rows"].append(i)
    pick = [k for k in sorted(keys) if keys[k]["current"] == current_only and "\ufffd" not in "".join(
        "".join(rows[i]) for i in keys[k]["rows"])][:keep]
    kept = {i for k in pick for i in keys[k]["rows"]}
    return [r for i, r in enumerate(rows) if r[col["제공기관명"]] != provider or i in kept], len(pick)


VARIANTS = [
    # label, kind, expected renames, expected merges, region (new 시·도 name), 충북 pack compared
    ("시·도 renamed 충청북도 → 충북특별자치도", "province", {("충청북도", "충북특별자치도")}, set(), "충북특별자치도", True),
    ("merger only: 충청북도 음성군 + 진천군 → 충청북도 진천음성시", "merge-new", set(),
     {("충청북도 음성군", "충청북도 진천음성시"), ("충청북도 진천군", "충청북도 진천음성시")}, None, False),
    ("both (national_merger.py's merged.csv)", "both", {("충청북도", "충북특별자치도")},
     {("충청북도 음성군", "충북특별자치도 진천음성시"), ("충청북도 진천군", "충북특별자치도 진천음성시")}, "충북특별자치도", True),
    ("provider renamed: 충청북도 청주시 → 충청북도 오송시", "provider", {("충청북도 청주시", "충청북도 오송시")}, set(), None, False),
    ("provider renamed: 경상남도 창녕군 → 경상남도 우포시", "provider2", {("경상남도 창녕군", "경상남도 우포시")}, set(), None, False),
    ("merged into one that was there: 충청북도 증평군 → 충청북도 괴산군", "merge-old", set(),
     {("충청북도 증평군", "충청북도 괴산군")}, None, False),
    ("시·도 renamed 전라남도 → 전남특별자치도", "province-jn", {("전라남도", "전남특별자치도")}, set(), "전남특별자치도", False),
    ("시·도 renamed 경상남도 → 경남특별자치도", "province-gn", {("경상남도", "경남특별자치도")}, set(), "경남특별자치도", False),
    ("look-alike: stops (national_merger.py's stops.csv)", "stops", set(), set(), None, False),
    ("look-alike: 충청북도 음성군 renamed keeping 2 ended events", "keep2", set(), set(), None, False),
    ("provider renamed keeping 3 ended events: 충청북도 음성군 → 충청북도 감곡시", "keep3",
     {("충청북도 음성군", "충청북도 감곡시")}, set(), None, False),
    ("look-alike: 전라남도 장성군 renamed keeping 17 ended events of 18 current", "keep17", set(), set(), None, False),
    ("provider renamed keeping 18 ended events of 18 current: 전라남도 장성군 → 전라남도 황룡시", "keep18",
     {("전라남도 장성군", "전라남도 황룡시")}, set(), None, False),
]
# Variants whose "plain" (old names) differs from the later download only by the names.
LINEAGE_OF = {"keep2": ("충청북도 음성군", "충청북도 감곡시"), "keep3": ("충청북도 음성군", "충청북도 감곡시"),
              "keep17": ("전라남도 장성군", "전라남도 황룡시"), "keep18": ("전라남도 장성군", "전라남도 황룡시")}


class World:
    built = {}
    base = store = None
    counts = {}

    @classmethod
    def ensure(cls):
        if cls.base:
            return
        cls.base = os.path.join(H.Ctx.work, "lineage-world")
        os.makedirs(cls.base)
        src = download()
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "national_merger.py"), "build", src,
                            os.path.join(cls.base, "merger")], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"national_lineage: national_merger.py build failed: {r.stderr[-400:]}")
        t = os.path.join(cls.base, "template")
        os.makedirs(t)
        r = H.run(["snapshot", "--catalog", "national", "--db", "national.sqlite", src,
                   "--taken-at", "2025-03-31T09:00:00+09:00"], t)
        if r.rc != 0:
            raise SystemExit(f"national_lineage: the template snapshot failed: {H.short(r.err, 400)}")
        subprocess.run(["sqlite3", os.path.join(t, "national.sqlite"), "PRAGMA wal_checkpoint(TRUNCATE)"],
                       capture_output=True)
        cls.store = os.path.join(t, "national.sqlite")

    @classmethod
    def files(cls, kind):
        """(later, plain) of a variant: plain is the same data under the old names (None
        where there is no lineage to undo)."""
        cls.ensure()
        if kind in cls.built:
            return cls.built[kind]
        m = os.path.join(cls.base, "merger")
        if kind == "both":
            cls.built[kind] = (os.path.join(m, "merged.csv"), os.path.join(m, "plain.csv"))
            return cls.built[kind]
        if kind == "stops":
            cls.built[kind] = (os.path.join(m, "stops.csv"), None)
            return cls.built[kind]
        header, rows = read_cp949(download())
        col = {n: i for i, n in enumerate(header)}
        providers = sorted({r[col["제공기관명"]] for r in rows})
        if kind.startswith("province"):
            old, new = {"province": ("충청북도", "충북특별자치도"), "province-jn": ("전라남도", "전남특별자치도"),
                        "province-gn": ("경상남도", "경남특별자치도")}[kind]
            plain = edits(header, rows, {p for p in providers if p == old or p.startswith(old + " ")})
            later = rename_rows(header, plain, {}, province=(old, new))
        elif kind == "merge-new":
            group = ("충청북도 음성군", "충청북도 진천군")
            plain = edits(header, rows, set(group))
            later = rename_rows(header, plain, {g: ("충청북도 진천음성시", "9990001") for g in group})
        elif kind in ("provider", "provider2"):
            old, new = {"provider": ("충청북도 청주시", "충청북도 오송시"),
                        "provider2": ("경상남도 창녕군", "경상남도 우포시")}[kind]
            plain = edits(header, rows, {old})
            later = rename_rows(header, plain, {old: (new, "9990003")})
        elif kind == "merge-old":
            plain = edits(header, rows, {"충청북도 증평군"})
            code = next(r[col["제공기관코드"]] for r in rows if r[col["제공기관명"]] == "충청북도 괴산군")
            later = rename_rows(header, plain, {"충청북도 증평군": ("충청북도 괴산군", code)})
        elif kind in LINEAGE_OF:
            old, new = LINEAGE_OF[kind]
            keep = {"keep2": 2, "keep3": 3, "keep17": 17, "keep18": 18}[kind]
            plain, got = keep_only(header, rows, old, keep, current_only=False)
            if got != keep:
                raise SystemExit(f"national_lineage: {old} has {got} ended events, not {keep}")
            if kind.startswith("keep1"):  # every current event of 장성군 dropped
                plain = [r for r in plain if not (r[col["제공기관명"]] == old and current(header, r))]
            later = rename_rows(header, plain, {old: (new, "9990004")})
        else:
            raise ValueError(kind)
        later_path = os.path.join(cls.base, kind + "-later.csv")
        plain_path = os.path.join(cls.base, kind + "-plain.csv")
        write(later_path, header, later)
        write(plain_path, header, plain)
        cls.built[kind] = (later_path, plain_path)
        return cls.built[kind]

    @classmethod
    def count(cls, later):
        """national_merger.py's count of the download → later: {"all", "province"} (충북)."""
        if later not in cls.counts:
            r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "national_merger.py"), "count", download(),
                                later, "충북"], capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"count failed: {r.stderr[-300:]}")
            cls.counts[later] = json.loads(r.stdout)
        return cls.counts[later]


def current(header, row):
    sys.path.insert(0, SCRIPTS)
    import national_events as ne
    end = ne.day(dict(zip(header, row))["행사종료일자"])
    return end is None or str(end) >= DAY


# ---------------------------------------------------------------------------------------
# The cases
# ---------------------------------------------------------------------------------------

def family_lineage(n, rng):
    cases = []
    for label, kind, renames, merges, region, pack in VARIANTS:
        found = bool(renames or merges)
        modes = ["found", "pasted", "hand", "refuse", "off"] if found else ["found", "off"] + (
            ["hand"] if kind in LINEAGE_OF else [])
        for mode in modes:
            cases.append((f"{label} ({mode})", lambda d, k=kind, rn=renames, mg=merges, rg=region, pk=pack, m=mode:
                          case_lineage(d, k, rn, mg, rg, pk, m)))
        # Found in the data and kept, on a PostgreSQL store.
        cases.append((f"{label} (found, PostgreSQL)", lambda d, k=kind, rn=renames, mg=merges, rg=region, pk=pack:
                      case_lineage(d, k, rn, mg, rg, pk, "found", pg=True)))
    return cases


def counts_of(report):
    with open(report, encoding="utf-8") as f:
        data = json.load(f)
    ch = data.get("changes") or {}
    fields = {}
    for lst in (ch.get("changedFields") or {}).values():
        for x in lst:
            fields[x.get("field", "?")] = fields.get(x.get("field", "?"), 0) + 1
    return {"added": ch.get("added"), "removed": ch.get("removed"), "changed": ch.get("changed"),
            "fields": dict(sorted(fields.items()))}


def keep_lines(stderr):
    lines, keeping = [], False
    for line in stderr.split("\n"):
        if line.startswith("warning: to keep this"):
            keeping = True
            continue
        if keeping and line.startswith("warning:   "):
            lines.append(line[len("warning:   "):])
            continue
        keeping = False
    return lines


def refuse_lines(stderr):
    lines, keeping = [], False
    for line in stderr.split("\n"):
        if line.startswith("warning: or to refuse it"):
            keeping = True
            continue
        if keeping and line.startswith("warning:   "):
            lines.append(line[len("warning:   "):])
            continue
        keeping = False
    return lines


def hand_written(renames, merges):
    out = ["[national]"]
    if renames:
        out.append("renames = [" + ", ".join(f'{{ old = "{o}", new = "{n}", since = {DAY} }}'
                                             for o, n in sorted(renames)) + "]")
    if merges:
        out.append("merges = [" + ", ".join(f'{{ from = "{f}", into = "{i}", on = {DAY} }}'
                                            for f, i in sorted(merges)) + "]")
    return "\n".join(out) + "\n"


def report(d, region=None, out="out", db="national.sqlite", env=None):
    args = ["report", "--db", db, "--format", "json", "--out", out]
    if region:
        args += ["--region", region]
    return H.run(args, d, timeout=600, env=H.base_env(env))


def case_lineage(d, kind, renames, merges, region, pack, mode, pg=False):
    problems = []
    World.ensure()
    later, plain = World.files(kind)
    if kind in LINEAGE_OF and mode == "hand":
        renames = {LINEAGE_OF[kind]}
    db, env = "national.sqlite", None
    if pg:
        # The template's history copied into a fresh schema of the private PostgreSQL server.
        server = H.R3SPostgres.shared()
        db, env = server.url("nl_" + re.sub(r"\W", "_", os.path.basename(d)).lower()), {"PGPASSWORD": H.R3S_SECRET}
        c = H.run(["store", "copy", World.store, db], d, timeout=600, env=H.base_env(env))
        if c.rc != 0:
            return [f"store copy to PostgreSQL: exit {c.rc}: {H.short(c.err)}"]
    else:
        shutil.copyfile(World.store, os.path.join(d, "national.sqlite"))
    r = H.run(["snapshot", "--db", db, later, "--taken-at", f"{DAY}T09:00:00+09:00"], d, timeout=600,
              env=H.base_env(env))
    if r.rc != 0:
        return [f"the later snapshot: exit {r.rc}: {H.short(r.err)}"]
    found = bool(renames or merges) and mode in ("found", "pasted")
    applied = bool(renames or merges) and mode in ("found", "pasted", "hand")
    expected = World.count(plain if applied else later)
    region_ok = region if applied else None
    if mode == "pasted" or mode == "refuse":
        first = report(d, out="probe", db=db, env=env)
        lines = keep_lines(first.stderr) if mode == "pasted" else refuse_lines(first.stderr)
        if not lines:
            return [f"no raon.toml lines printed to {'keep' if mode == 'pasted' else 'refuse'} it: {H.short(first.err, 300)}"]
        if lines[0] != "[national]":
            problems.append(f"the printed lines do not begin [national]: {lines[:2]}")
        with open(os.path.join(d, "raon.toml"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    elif mode == "hand":
        with open(os.path.join(d, "raon.toml"), "w", encoding="utf-8") as f:
            f.write(hand_written(renames, merges))
    elif mode == "off":
        with open(os.path.join(d, "raon.toml"), "w", encoding="utf-8") as f:
            f.write("[national]\ndetect_lineage = false\n")
    rr = report(d, region=region_ok or None, db=db, env=env)
    H.check_no_crash(rr, problems, "raon report")
    if rr.rc != 0:
        return problems + [f"raon report: exit {rr.rc}: {H.short(rr.err)}"]
    warned = "renamed or merged that Raon's lineage does not know" in rr.stderr
    want_warning = found and mode == "found"
    if warned != want_warning:
        problems.append(f"the lineage warning {'printed' if warned else 'missing'} ({mode}): {H.short(rr.err, 300)}")
    if want_warning:
        lines = keep_lines(rr.stderr)
        got_r = set(re.findall(r'old = "([^"]+)", new = "([^"]+)"', "\n".join(x for x in lines if x.startswith("renames"))))
        got_m = set(re.findall(r'from = "([^"]+)", into = "([^"]+)"', "\n".join(x for x in lines if x.startswith("merges"))))
        if got_r != renames or got_m != merges:
            problems.append(f"the printed lines say renames {sorted(got_r)} merges {sorted(got_m)}, "
                            f"expected {sorted(renames)} {sorted(merges)}")
        if any(f"since = {DAY}" not in x and f"on = {DAY}" not in x for x in lines[1:]):
            problems.append(f"the printed lines do not date it {DAY}: {lines}")
    country = counts_of(os.path.join(d, "out", "report.json"))
    if country != expected["all"]:
        problems.append(f"counts {country} ≠ expected {expected['all']} ({'applied' if applied else 'as it is'})")
    if region_ok and pack:
        packed = counts_of(os.path.join(d, "out", "regions", region_ok, "report.json"))
        if packed != expected["province"]:
            problems.append(f"{region_ok}'s pack {packed} ≠ expected {expected['province']}")
    # (Only 충북특별자치도: 전라남도's and 경상남도's own offices are providers, and a provider's
    # name of the day is a --region of its own.)
    if region and pack and not applied:
        refused = report(d, region=region, out="out-region", db=db, env=env)
        if refused.rc != 64:
            problems.append(f"--region {region} without the lineage: exit {refused.rc} (expected 64)")
    if mode != "found" and bool(renames or merges) and not applied:
        # Refused or off: the data as it is — every event of the renamed providers removed
        # and added again.
        if expected["all"]["removed"] == World.count(plain)["all"]["removed"] if plain else False:
            problems.append("the variant does not differ from its plain form (the case checks nothing)")
    return problems
