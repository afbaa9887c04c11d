"""The national weekly job beside its pandas peer (bench/peer_pandas_national.py), same
files, same run; bench.py's `--national N` / `--only-national` (`make bench-national`).

Three workloads, the first two a pair of downloads a week apart:
  shared   the real download (/work/shared/data/…, 7,617 rows, CP949) as last week's, and a
           later download built from it (Tests/RaonCLITests/Scripts/national_later.py: a
           merger, renames, re-stamps, sessions and fields edited, 30 events dropped, 15 added;
           UTF-8 with BOM, rows reversed) as this week's;
  scaled   both files grown ×COPIES by make_scaled() below (every row repeated with
           "(회차 k)" after its 행사명, so each copy is a new event): 22,851 and 22,773 rows at ×3;
  year     a pair a year apart, as real churn looks (make_year_apart() below): last year's is
           the download; this year's keeps every other title's rows, and the rest's and a
           third of the kept ones' come back a year later under new titles — about 3,600
           events gone and 4,900 new.
Raon: `raon snapshot --catalog national OLD` into a fresh store (untimed), then timed
`raon report --catalog national --input NEW --compare-to previous --format md,xlsx,csv,json`.
Peer: `peer_pandas_national.py NEW --compare OLD --day DAY`. Runs alternate (Raon first on
odd runs, the peer first on even ones). The first run of each workload checks that both
report the same headline figures (events, 무료/유료, the week's running/current/starting/ending,
events and running by 시·도, added/removed/changed) and fails the bench if they differ.
"""
import csv, io, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPTS = os.path.join(ROOT, "Tests", "RaonCLITests", "Scripts")
PEER = os.path.join(HERE, "peer_pandas_national.py")
SHARED = "/work/shared/data/national-performance-events-2025-03.cp949.csv"
REPO_COPY = os.path.join(ROOT, "data", "national", "national-performance-events-2025-03.cp949.csv")
OLD_AT, NEW_AT, NEW_DAY = "2025-03-31T09:00:00+09:00", "2025-04-07T09:00:00+09:00", "2025-04-07"


def download():
    return SHARED if os.path.exists(SHARED) else REPO_COPY


def make_scaled(src, dst, copies):
    """`src` with every row repeated `copies` times, copy k > 1 with " (회차 k)" after its
    행사명 (a new event by the key), UTF-8 with BOM."""
    table = read_rows(src)
    header, rows = table[0], table[1:]
    title = header.index("행사명")
    with open(dst, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        for k in range(1, copies + 1):
            for r in rows:
                if k > 1:
                    r = r[:title] + [f"{r[title]} (회차 {k})"] + r[title + 1:]
                w.writerow(r)
    return len(rows) * copies


def make_year_apart(src, old, new):
    """(`old`, `new`) a year apart from `src`: `old` is `src` (UTF-8 with BOM); `new` keeps the
    rows of every other 행사명 (sorted), and has the other titles' rows and a third of the
    kept titles' again with every date a year later and " (2026)" after the title (new
    events by the key). Returns `new`'s rows."""
    import re
    table = read_rows(src)
    header, rows = table[0], table[1:]
    title = header.index("행사명")
    titles = sorted({r[title] for r in rows})
    gone, kept = set(titles[::2]), titles[1::2]
    again = gone | set(kept[::3])
    day = re.compile(r"^(\d{4})(-\d{2}-\d{2})$")

    def later(r):
        r = [day.sub(lambda m: f"{int(m.group(1)) + 1}{m.group(2)}", v) for v in r]
        r[title] = r[title] + " (2026)"
        return r
    with open(old, "w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f).writerows(table)
    out = [r for r in rows if r[title] not in gone] + [later(r) for r in rows if r[title] in again]
    with open(new, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(out)
    return len(out)


def read_rows(path):
    """A download's rows, header first: UTF-8 (with or without BOM), else CP949."""
    raw = open(path, "rb").read()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp949", errors="replace")
    return list(csv.reader(io.StringIO(text, newline="")))


def rows_in(path):
    return len(read_rows(path)) - 1


def pair(work, copies):
    """(last week's file, this week's file, this week's rows)."""
    later = os.path.join(work, "national-later.csv")
    if not os.path.exists(later):
        subprocess.run([sys.executable, os.path.join(SCRIPTS, "national_later.py"), download(), later],
                       check=True, capture_output=True)
    if copies == 1:
        return download(), later, rows_in(later)
    if copies == 0:
        old, new = os.path.join(work, "national-year-old.csv"), os.path.join(work, "national-year-new.csv")
        return old, new, make_year_apart(download(), old, new)
    old = os.path.join(work, f"national-old-x{copies}.csv")
    new = os.path.join(work, f"national-new-x{copies}.csv")
    make_scaled(download(), old, copies)
    return old, new, make_scaled(later, new, copies)


def headline(report):
    def bands(x):
        return {b["key"]: b["count"] for b in (x or [])}
    week = report.get("thisWeek", {})
    changes = report.get("changes") or {}
    return {"events": report["totals"]["programs"], "free": report["totals"]["free"], "paid": report["totals"]["paid"],
            **{k: week.get(k) for k in ("running", "current", "starting", "ending")},
            "runningByRegion": bands(week.get("runningByRegion")), "eventsByRegion": bands(report.get("byRegion")),
            **{k: changes.get(k) for k in ("added", "removed", "changed")}}


def bench(run, summarise, work, runs, copies):
    old, new, rows = pair(work, copies)
    raon = os.path.join(ROOT, ".build", "release", "raon")
    raon_s, peer_s, checked = [], [], None
    for i in range(runs):
        d = tempfile.mkdtemp(dir=work)
        db = os.path.join(d, "national.sqlite")
        run([raon, "snapshot", "--catalog", "national", old, "--taken-at", OLD_AT, "--db", db], cwd=d)

        def raon_job():
            r = run([raon, "report", "--catalog", "national", "--input", new, "--taken-at", NEW_AT, "--compare-to",
                     "previous", "--format", "md,xlsx,csv,json", "--db", db, "--out", os.path.join(d, "raon")], cwd=d)
            raon_s.append((r[0], r[1], run.last_cpu))

        def peer_job():
            p = run([sys.executable, PEER, new, "--compare", old, "--day", NEW_DAY, "--out", os.path.join(d, "peer")], cwd=d)
            peer_s.append((p[0], p[1], run.last_cpu))
        for job in ((raon_job, peer_job) if i % 2 == 0 else (peer_job, raon_job)):
            job()
        if i == 0:
            ours = headline(json.load(open(os.path.join(d, "raon", "report.json"), encoding="utf-8")))
            theirs = headline(json.load(open(os.path.join(d, "peer", "report.json"), encoding="utf-8")))
            differ = {k: (ours[k], theirs[k]) for k in ours if ours[k] != theirs.get(k)}
            if differ:
                raise SystemExit(f"Raon and the peer differ on {new} (Raon, peer): {json.dumps(differ, ensure_ascii=False)[:2000]}")
            checked = {k: v for k, v in ours.items() if not isinstance(v, dict)}
        shutil.rmtree(d)
        print(f"  national ×{copies} run {i + 1}/{runs}: raon {raon_s[-1][0]:.2f}s {raon_s[-1][1]:.0f} MiB, "
              f"peer {peer_s[-1][0]:.2f}s {peer_s[-1][1]:.0f} MiB", flush=True)
    pairs = [p[0] / r[0] for r, p in zip(raon_s, peer_s)]
    return {"rows": rows, "copies": copies, "raon": summarise(raon_s), "peer": summarise(peer_s),
            "pair_ratios": [round(x, 3) for x in pairs], "checked": checked}


def markdown(results, command):
    n = results["national"]
    m = results["machine"]
    L = ["# Benchmark: the national weekly job, Raon beside pandas", "",
         f"Reproduce: `{command}` (after `swift build -c release --product raon`; `make bench-national` does both). "
         "The harness is bench/bench.py with bench/bench_national.py; the peer is bench/peer_pandas_national.py.", "",
         f"Machine: {m['nproc']} cores ({m['cpu']}), {m['memory']}, shared with other builds; load average at start "
         f"{m['load average at start']}; {m['swift']}; Python {m['python']}, pandas {m['pandas']}; git {m['git']}; {m['date']}.", "",
         "The weekly job: last week's download already in a fresh store (`raon snapshot --catalog national OLD`, untimed), "
         "then `raon report --catalog national --input NEW --compare-to previous --format md,xlsx,csv,json` (records NEW, "
         "then writes the report); the peer reads both files and writes the same kinds of files "
         "(`peer_pandas_national.py NEW --compare OLD --day 2025-04-07`). Runs alternate (Raon first, then the peer first). "
         "Wall time and CPU time are medians; peak memory is the child's `ru_maxrss`. Ratios are peer ÷ Raon "
         "(above 1: Raon faster / smaller).", "",
         "| workload | rows (this week's file) | runs | Raon | peer | speed-up (medians) | median of the pairs' ratios | CPU peer ÷ Raon | Raon peak RSS | peer peak RSS | memory peer ÷ Raon |",
         "|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, w in n.items():
        r, p = w["raon"], w["peer"]
        pr = sorted(w["pair_ratios"])
        L.append(f"| {label} | {w['rows']:,} | {r['runs']} | {r['median_s']:.2f} s | {p['median_s']:.2f} s | "
                 f"**{p['median_s'] / r['median_s']:.2f}×** | {pr[len(pr) // 2]:.2f}× | {p['median_cpu_s'] / r['median_cpu_s']:.2f}× | "
                 f"{r['max_rss_mib']:.0f} MiB | {p['max_rss_mib']:.0f} MiB | {p['max_rss_mib'] / r['max_rss_mib']:.2f}× |")
    L += ["", "Per-run wall times (Raon / peer), in run order:", ""]
    for label, w in n.items():
        L.append(f"- {label}: " + ", ".join(f"{a:.2f} s / {b:.2f} s" for a, b in zip(w["raon"]["seconds"], w["peer"]["seconds"])))
    L += ["", "Headline figures both reported on the first run of each workload (the bench fails if they differ):", ""]
    for label, w in n.items():
        L.append(f"- {label}: " + ", ".join(f"{k} {v}" for k, v in w["checked"].items()) + "; and events and running by 시·도.")
    L += ["", "## Notes", "",
          "- Raon's time includes recording NEW as a snapshot (every row kept raw in SQLite) and comparing it event by "
          "event with the stored snapshot; its outputs are report.md + charts, report.xlsx (summary with native charts, "
          "tables, the events sheet), csv/*.csv and report.json. The peer keeps no history and writes fewer tables "
          "(no trend, no 붙임 lists, no district-style sheets).",
          "- The peer takes each provider's lineage from the tests' independent reader (national_events.py, once per "
          "distinct provider name) and does the rest in pandas; its 입장연령 bands follow docs/NATIONAL.md's rules "
          "approximately and are not checked against Raon's.", ""]
    return "\n".join(L)
