#!/usr/bin/env python3
"""Raon against the pandas peer, side by side in one run; results to bench/RESULTS.md.

  python3 bench/bench.py [--quick] [--sizes 100000,1000000] [--runs N] [--size-runs N] [--big-runs N]
                         [--weekly 1,4] [--weekly-mail 4] [--national N] [--only-national] [--before OLD_RAON] [--skip-peer] [--skip-store] [--skip-trend] [--skip-xlsx] [--out bench/RESULTS.md]

Run from the repository after `swift build -c release --product raon --product raon-bench`
(`make bench` does both). Every command runs as a child process; its wall time is taken
around it and its peak memory is the child's `ru_maxrss` from `wait4` (what
`/usr/bin/time -v` prints as "Maximum resident set size"). Raon and the peer alternate
run by run, so drifting machine load hits both alike; medians are reported.

Workloads
  sample   the bundled sample (4,998 programs, CP949) as the older snapshot and a modified
           copy (scripts/make_modified_sample.py, UTF-8) as the newer one, report with the
           comparison. Raon: `raon snapshot OLDER` into a fresh store, then
           `raon report --input NEWER --compare-to previous`. Timed two ways: the report
           alone (the older snapshot already in the store, as in daily use) and the sum of
           both commands (baseline included: fair against the peer, which reads both CSVs).
           Peer: `peer_pandas.py NEWER --compare OLDER`.
  N        synthetic catalogs of N programs shaped like the sample (seeded generator,
           `raon-bench analytics --write-csv`), UTF-8 CSV. Raon: `raon report --input` into
           a fresh store (no earlier snapshot, so no comparison); peer: `peer_pandas.py`.
  store    `raon-bench store`: 365 daily snapshots of 5,000 programs, ~1% churn a day.
  trend    `raon-bench trend`: 365 daily snapshots of 20,000 programs, ~1% churn a day, then
           `raon trend` over the whole history (every format), end to end (target < 2 s).
  xlsx     `raon-bench xlsx floor-formula|constant N`: libxlsxwriter's bare loop (the same
           cells, links as HYPERLINK formulas) vs Raon's writer.
  weekly-mail  (--weekly-mail N, or --only-weekly-mail) a whole `raon weekly` — the newest file of a folder, the city
           report and 25 packs as pdf+xlsx, 26 deliveries to a loopback SMTP server (STARTTLS,
           AUTH; Tests/Scripts/raon_testkit/smtp_server.py), the ledger — beside
           `raon report --districts all --format pdf,xlsx` alone on the same input, alternating.
  national (--national N, or --only-national) the national weekly job beside
           bench/peer_pandas_national.py, same files, alternating: bench/bench_national.py;
           results to bench/RESULTS-national.md.

Each workload writes every format (md+svg, xlsx, csv, json) on both sides.
"""
import argparse, datetime, json, os, platform, re, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RAON = os.path.join(ROOT, ".build", "release", "raon")
BENCH = os.path.join(ROOT, ".build", "release", "raon-bench")
SAMPLE = os.path.join(ROOT, "data", "sample", "seoul-cultural-events-2024-09-09.cp949.csv")
PEER_DEFAULT = os.path.join(os.path.dirname(ROOT), "shared", "bench", "peer_pandas.py")


def run(cmd, cwd=None, env=None):
    """Runs cmd; returns (seconds, peak RSS in MiB, stdout). Fails loudly on error.

    Output goes to temporary files, not pipes: the peer prints hundreds of thousands of
    warnings at scale, and a full pipe would stall it."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        seconds = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if p.returncode != 0:
            sys.stderr.write(err.read()[-4000:].decode(errors="replace"))
            raise SystemExit(f"failed ({p.returncode}): {' '.join(cmd)}")
        run.last_cpu = usage.ru_utime + usage.ru_stime
        return seconds, usage.ru_maxrss / 1024, out.read().decode(errors="replace")


def du(path):
    total = 0
    for base, _, files in os.walk(path):
        for f in files:
            total += os.path.getsize(os.path.join(base, f))
    return total


def machine():
    def sh(cmd):
        try:
            return subprocess.run(cmd, shell=True, capture_output=True, text=True).stdout.strip()
        except Exception as e:  # noqa: BLE001
            return f"? ({e})"
    mem = sh("grep MemTotal /proc/meminfo")
    try:
        import pandas, xlsxwriter
        pv, xv = pandas.__version__, xlsxwriter.__version__
    except ImportError:
        pv = xv = "not installed"
    return {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "nproc": sh("nproc"),
        "memory": mem,
        "cpu": sh("lscpu | grep 'Model name' | sed 's/Model name: *//'"),
        "kernel": platform.release(),
        "swift": sh("swift --version 2>&1 | head -1"),
        "python": platform.python_version(),
        "pandas": pv,
        "xlsxwriter (Python)": xv,
        "libxlsxwriter": sh("dpkg-query -W -f='${Version}' libxlsxwriter-dev 2>/dev/null || pkg-config --modversion xlsxwriter"),
        "sqlite (system)": sh("python3 -c 'import sqlite3; print(sqlite3.sqlite_version)'"),
        "load average at start": sh("cut -d' ' -f1-3 /proc/loadavg"),
        "git": sh(f"git -C {ROOT} rev-parse --short HEAD") + (" (dirty)" if sh(f"git -C {ROOT} status --porcelain -- Sources Benchmarks") else ""),
    }


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def summarise(samples):
    """samples: (wall seconds, peak RSS MiB, CPU seconds) per run."""
    return {"runs": len(samples), "seconds": [round(s[0], 3) for s in samples],
            "cpu_seconds": [round(s[2], 3) for s in samples],
            "median_s": median([s[0] for s in samples]), "median_cpu_s": median([s[2] for s in samples]),
            "median_rss_mib": median([s[1] for s in samples]), "max_rss_mib": max(s[1] for s in samples)}


def bench_sample(work, peer, runs, skip_peer):
    modified = os.path.join(work, "sample-modified.csv")
    if not os.path.exists(modified):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_modified_sample.py"), SAMPLE, modified],
                       check=True, capture_output=True)
    raon_report, raon_total, raon_base, peer_s = [], [], [], []
    for i in range(runs):
        d = tempfile.mkdtemp(dir=work)
        db = os.path.join(d, "store.sqlite")
        b = run([RAON, "snapshot", SAMPLE, "--taken-at", "2024-09-09T09:00:00+09:00", "--db", db], cwd=d)
        b_cpu = run.last_cpu
        r = run([RAON, "report", "--input", modified, "--taken-at", "2024-09-16T09:00:00+09:00",
                 "--compare-to", "previous", "--db", db, "--out", os.path.join(d, "raon")], cwd=d)
        r_cpu = run.last_cpu
        raon_base.append((b[0], b[1], b_cpu)); raon_report.append((r[0], r[1], r_cpu))
        raon_total.append((b[0] + r[0], max(b[1], r[1]), b_cpu + r_cpu))
        if i == 0:
            raon_out = du(os.path.join(d, "raon"))
        if not skip_peer:
            p = run([sys.executable, peer, modified, "--compare", SAMPLE, "--out", os.path.join(d, "peer")], cwd=d)
            peer_s.append((p[0], p[1], run.last_cpu))
            if i == 0:
                peer_out = du(os.path.join(d, "peer"))
        shutil.rmtree(d)
        print(f"  sample run {i + 1}/{runs}: raon report {r[0]:.2f}s (+baseline {b[0]:.2f}s)"
              + (f", peer {peer_s[-1][0]:.2f}s" if peer_s else ""), flush=True)
    res = {"raon_report": summarise(raon_report), "raon_baseline": summarise(raon_base),
           "raon_total": summarise(raon_total), "raon_output_bytes": raon_out}
    if peer_s:
        res["peer"] = summarise(peer_s)
        res["peer_output_bytes"] = peer_out
    return res


def bench_weekly(work, peer, copies, runs, skip_peer, before=None, pair=None):
    """The weekly job at today's size: the sample's real rows repeated `copies` times (new
    cultcodes) as last week's snapshot in the store, the modified sample repeated the same
    way as this week's file; `raon report --input NEW` against the peer on the same pair.
    `pair` (OLD, NEW) times another pair instead (the year-apart one)."""
    if pair:
        old, new = pair
    else:
        grow = os.path.join(ROOT, "Tests", "RaonCLITests", "Scripts", "grow_catalog.py")
        modified = os.path.join(work, "sample-modified.csv")
        if not os.path.exists(modified):
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_modified_sample.py"), SAMPLE, modified],
                           check=True, capture_output=True)
        old = os.path.join(work, f"weekly-{copies}x-old.csv")
        new = os.path.join(work, f"weekly-{copies}x-new.csv")
        for src, dst in [(SAMPLE, old), (modified, new)]:
            if not os.path.exists(dst):
                subprocess.run([sys.executable, grow, src, dst, str(copies)], check=True)
    def weekly_job(binary, d):
        db = os.path.join(d, f"store-{len(os.listdir(d))}.sqlite")
        run([binary, "snapshot", old, "--taken-at", "2024-09-09T09:00:00+09:00", "--db", db], cwd=d)
        r = run([binary, "report", "--input", new, "--taken-at", "2024-09-16T09:00:00+09:00",
                 "--compare-to", "previous", "--db", db, "--out", os.path.join(d, f"out-{len(os.listdir(d))}")], cwd=d)
        return (r[0], r[1], run.last_cpu)

    raon_s, peer_s, before_s = [], [], []
    for i in range(runs):
        d = tempfile.mkdtemp(dir=work)
        raon_s.append(weekly_job(RAON, d))
        if before:
            before_s.append(weekly_job(before, d))
        if not skip_peer:
            p = run([sys.executable, peer, new, "--compare", old, "--out", os.path.join(d, "peer")], cwd=d)
            peer_s.append((p[0], p[1], run.last_cpu))
        shutil.rmtree(d)
        print(f"  weekly {copies}x run {i + 1}/{runs}: raon {raon_s[-1][0]:.2f}s {raon_s[-1][1]:.0f} MiB"
              + (f", before {before_s[-1][0]:.2f}s {before_s[-1][1]:.0f} MiB" if before_s else "")
              + (f", peer {peer_s[-1][0]:.2f}s {peer_s[-1][1]:.0f} MiB" if peer_s else ""), flush=True)
    res = {"programs": 4998 * copies, "raon": summarise(raon_s)}
    if peer_s:
        res["peer"] = summarise(peer_s)
    if before_s:
        res["before"] = summarise(before_s)
    return res


def shift_dates(src, dst, days):
    """A copy of a catalog CSV with every YYYY-MM-DD moved by `days`: the sample's weeks
    become this week, so this week's lists are as full as on a real Monday."""
    pattern = re.compile(r"(?<!\d)(20\d\d)-(\d\d)-(\d\d)(?!\d)")
    def move(m):
        try:
            d = datetime.date(int(m.group(1)), int(m.group(2)), int(m.group(3))) + datetime.timedelta(days=days)
        except ValueError:
            return m.group(0)
        return d.isoformat()
    with open(src, encoding="utf-8-sig", newline="") as f, open(dst, "w", encoding="utf-8-sig", newline="") as g:
        for line in f:
            g.write(pattern.sub(move, line))


def bench_weekly_mail(work, copies, runs):
    """A whole `raon weekly` (the newest file of a folder; record; the city report and 25
    packs as pdf and xlsx; 26 deliveries to a loopback SMTP server with STARTTLS and AUTH;
    the ledger) beside `raon report --districts all --format pdf,xlsx` alone on the same
    input, alternating run for run (A B, then B A), each on a fresh store holding last week's
    snapshot. What the weekly job adds — the delivery and the ledger — is the ratio's excess."""
    grow = os.path.join(ROOT, "Tests", "RaonCLITests", "Scripts", "grow_catalog.py")
    modified = os.path.join(work, "sample-modified.csv")
    if not os.path.exists(modified):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "make_modified_sample.py"), SAMPLE, modified],
                       check=True, capture_output=True)
    today = datetime.date.today()
    days = (today - datetime.date(2024, 9, 9)).days
    d0 = os.path.join(work, "weekly-mail")
    shutil.rmtree(d0, ignore_errors=True)
    os.makedirs(os.path.join(d0, "inbox"))
    grown = {}
    for label, src in (("old", SAMPLE), ("new", modified)):
        g = os.path.join(work, f"weekly-{copies}x-{label}.csv")
        if not os.path.exists(g):
            subprocess.run([sys.executable, grow, src, g, str(copies)], check=True)
        grown[label] = os.path.join(d0, f"{label}.csv")
        shift_dates(g, grown[label], days)
    new = os.path.join(d0, "inbox", "catalog.csv")
    shutil.copy(grown["new"], new)
    taken = int(time.time()) - 3600
    os.utime(new, (taken, taken))
    utc = "%Y-%m-%dT%H:%M:%SZ"
    taken_at = datetime.datetime.fromtimestamp(taken, datetime.timezone.utc).strftime(utc)
    last_week = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=7)).strftime(utc)

    # The SMTP server: STARTTLS and AUTH, a CA of its own (Tests/Scripts/raon_testkit).
    scripts = os.path.join(ROOT, "Tests", "Scripts")
    server = subprocess.Popen([sys.executable, "-m", "raon_testkit.smtp_server", "--dir", os.path.join(d0, "mail"),
                               "--certs", os.path.join(d0, "certs"), "--user", "raon", "--password", "bench-pw"],
                              cwd=scripts, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready = json.loads(server.stdout.readline())
    districts = ["강남구", "강동구", "강북구", "강서구", "관악구", "광진구", "구로구", "금천구", "노원구", "도봉구", "동대문구",
                 "동작구", "마포구", "서대문구", "서초구", "성동구", "성북구", "송파구", "양천구", "영등포구", "용산구", "은평구",
                 "종로구", "중구", "중랑구"]
    def config(db, out):
        lines = [f'db = "{db}"', "[weekly]", f'source = "{os.path.join(d0, "inbox")}"', 'formats = ["pdf", "xlsx"]',
                 'districts = "all"', f'out = "{out}"', "retry_for = 0", "[mail]",
                 f'server = "smtp://127.0.0.1:{ready["port"]}"', 'from = "culture@example.go.kr"', 'user = "raon"',
                 f'ca_file = "{ready["ca"]}"', 'city = ["city@example.go.kr"]',
                 # The default max_message_bytes: the city's ~14 MB at 19,992 programs goes in two parts.
                 "[mail.districts]"]
        lines += [f'"{d}" = ["d{i + 1:02d}@example.go.kr"]' for i, d in enumerate(districts)]
        path = os.path.join(os.path.dirname(out), "raon.toml")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path
    env = dict(os.environ, RAON_SMTP_PASSWORD="bench-pw")

    def weekly(d):
        db = os.path.join(d, "weekly.sqlite")
        run([RAON, "snapshot", grown["old"], "--taken-at", last_week, "--db", db], cwd=d)
        cfg = config(db, os.path.join(d, "weekly-out"))
        r = run([RAON, "weekly", "--config", cfg], cwd=d, env=env)
        if "sent 26, pending 0" not in r[2]:
            raise SystemExit("the weekly job did not send its 26 messages: " + r[2])
        return (r[0], r[1], run.last_cpu)

    def report(d):
        db = os.path.join(d, "report.sqlite")
        run([RAON, "snapshot", grown["old"], "--taken-at", last_week, "--db", db], cwd=d)
        r = run([RAON, "report", "--input", new, "--taken-at", taken_at, "--districts", "all", "--format", "pdf,xlsx",
                 "--db", db, "--out", os.path.join(d, "report-out")], cwd=d)
        return (r[0], r[1], run.last_cpu)

    weekly_s, report_s = [], []
    try:
        for i in range(runs):
            d = tempfile.mkdtemp(dir=work)
            order = [("weekly", weekly), ("report", report)] if i % 2 == 0 else [("report", report), ("weekly", weekly)]
            for name, job in order:
                (weekly_s if name == "weekly" else report_s).append(job(d))
            shutil.rmtree(d)
            print(f"  weekly+mail {copies}x run {i + 1}/{runs}: weekly {weekly_s[-1][0]:.2f}s {weekly_s[-1][1]:.0f} MiB, "
                  f"report alone {report_s[-1][0]:.2f}s {report_s[-1][1]:.0f} MiB", flush=True)
    finally:
        server.terminate()
        server.wait()
    received = len([n for n in os.listdir(os.path.join(d0, "mail")) if n.endswith(".eml")])
    sizes = [os.path.getsize(os.path.join(d0, "mail", n)) for n in os.listdir(os.path.join(d0, "mail")) if n.endswith(".eml")]
    res = {"programs": 4998 * copies, "deliveries": 26, "received": received, "largest_message_bytes": max(sizes),
           "weekly": summarise(weekly_s), "report": summarise(report_s),
           "pairs": [[w[0], r[0]] for w, r in zip(weekly_s, report_s)]}
    res["ratio"] = res["weekly"]["median_s"] / res["report"]["median_s"]
    res["pair_ratio_median"] = median([w[0] / r[0] for w, r in zip(weekly_s, report_s)])
    print(f"  weekly ÷ report alone: {res['ratio']:.3f} (medians), {res['pair_ratio_median']:.3f} (median of pairs); "
          f"{received} messages received, the largest {max(sizes) / 1e6:.1f} MB", flush=True)
    return res


def bench_size(work, peer, n, runs, skip_peer):
    csv = os.path.join(work, f"synthetic-{n}.csv")
    if not os.path.exists(csv):
        print(f"  writing {csv} …", flush=True)
        run([BENCH, "analytics", "--count", str(n), "--write-csv", csv])
    raon_s, peer_s = [], []
    for i in range(runs):
        d = tempfile.mkdtemp(dir=work)
        r = run([RAON, "report", "--input", csv, "--taken-at", "2024-09-09T09:00:00+09:00",
                 "--db", os.path.join(d, "store.sqlite"), "--out", os.path.join(d, "raon")], cwd=d)
        raon_s.append((r[0], r[1], run.last_cpu))
        if i == 0:
            raon_out = du(os.path.join(d, "raon"))
            store_bytes = du(d) - raon_out
        shutil.rmtree(os.path.join(d, "raon"))
        if not skip_peer:
            p = run([sys.executable, peer, csv, "--out", os.path.join(d, "peer")], cwd=d)
            peer_s.append((p[0], p[1], run.last_cpu))
            if i == 0:
                peer_out = du(os.path.join(d, "peer"))
        shutil.rmtree(d)
        print(f"  {n} run {i + 1}/{runs}: raon {r[0]:.2f}s {r[1]:.0f} MiB"
              + (f", peer {peer_s[-1][0]:.2f}s {peer_s[-1][1]:.0f} MiB" if peer_s else ""), flush=True)
    res = {"csv_bytes": os.path.getsize(csv), "raon": summarise(raon_s), "raon_output_bytes": raon_out,
           "raon_store_bytes": store_bytes}
    if peer_s:
        res["peer"] = summarise(peer_s)
        res["peer_output_bytes"] = peer_out
    return res


def bench_store(days, count):
    _, rss, out = run([BENCH, "store", "--count", str(count), "--days", str(days)])
    print("\n".join("    " + l for l in out.splitlines() if not l.startswith("result:")), flush=True)
    res = {}
    for line in out.splitlines():
        if line.startswith("result: "):
            k, v = line[len("result: "):].split(" ", 1)
            res[k] = float(v) if re.fullmatch(r"-?[\d.]+", v) else v
    res["process_peak_rss_mib"] = rss
    return res


def bench_trend(work, days, count, runs=3):
    """`raon-bench trend` records the year into a kept store and times the store read;
    then `raon trend` over it, end to end, `runs` times."""
    d = os.path.join(work, "trend")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    db = os.path.join(d, "store.sqlite")
    _, _, out = run([BENCH, "trend", "--count", str(count), "--days", str(days), "--db", db, "--repeat", "3"])
    print("\n".join("    " + l for l in out.splitlines() if not l.startswith("result:")), flush=True)
    res = {"count": count, "days": days}
    for line in out.splitlines():
        if line.startswith("result: "):
            k, v = line[len("result: "):].split(" ", 1)
            res[k] = float(v) if re.fullmatch(r"-?[\d.]+", v) else v
    samples = []
    for _ in range(runs):
        seconds, rss, _ = run([RAON, "trend", "--db", db, "--out", os.path.join(d, "out")], cwd=d)
        samples.append((seconds, rss, run.last_cpu))
    res["raon_trend"] = summarise(samples)
    print(f"    raon trend (all formats): median {res['raon_trend']['median_s']:.2f} s", flush=True)
    return res


def bench_site(work, days=365, count=20_000):
    """`raon site` over a year of daily snapshots of `count` programs (`raon-bench trend`
    records them): the first build over every week but the last (the last week's
    snapshots deleted from a copy of the store), then the rebuild after that one more week
    into the same folder. Times and peak RSS of each."""
    d = os.path.join(work, "site")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    db = os.path.join(d, "store.sqlite")
    run([BENCH, "trend", "--count", str(count), "--days", str(days), "--db", db, "--repeat", "1"])
    _, _, listing = run([RAON, "snapshots", "--json", "--db", db], cwd=d)
    snaps = json.loads(listing)
    def week(item):
        t = datetime.datetime.fromisoformat(item["takenAt"].replace("Z", "+00:00")) + datetime.timedelta(hours=9)
        return t.isocalendar()[:2]
    last = week(snaps[-1])
    earlier = os.path.join(d, "earlier.sqlite")
    shutil.copy(db, earlier)
    for item in snaps:
        if week(item) == last:
            run([RAON, "snapshots", "delete", str(item["id"]), "--yes", "--db", earlier], cwd=d)
    out = os.path.join(d, "site")
    first_s, first_rss, first_out = run([RAON, "site", "--db", earlier, "--out", out], cwd=d)
    first_cpu = run.last_cpu
    re_s, re_rss, re_out = run([RAON, "site", "--db", db, "--out", out], cwd=d)
    res = {"count": count, "days": days, "first_s": first_s, "first_rss_mib": first_rss, "first_cpu_s": first_cpu,
           "rebuild_s": re_s, "rebuild_rss_mib": re_rss, "rebuild_cpu_s": run.last_cpu,
           "first_summary": first_out.strip(), "rebuild_summary": re_out.strip()}
    print(f"    first build: {first_s:.1f} s, {first_rss:.0f} MiB — {first_out.strip()}", flush=True)
    print(f"    rebuild after one more week: {re_s:.1f} s, {re_rss:.0f} MiB — {re_out.strip()}", flush=True)
    return res


def bench_xlsx(n, runs):
    res = {}
    for mode in ("floor", "constant"):
        res[mode] = []
    for i in range(runs):
        for mode in ("floor", "constant"):
            # The floor writes the same cells as Raon: addresses as HYPERLINK formulas.
            _, rss, out = run([BENCH, "xlsx", "floor-formula" if mode == "floor" else mode, str(n)])
            parts = out.split()
            res[mode].append({"seconds": float(parts[2]), "peak_mb": float(parts[3]), "baseline_mb": float(parts[4]),
                              "file_mb": float(parts[5])})
        print(f"  xlsx {n} run {i + 1}/{runs}: floor {res['floor'][-1]['seconds']:.2f}s, "
              f"raon {res['constant'][-1]['seconds']:.2f}s", flush=True)
    for mode in ("floor", "constant"):
        res[mode + "_median_s"] = median([r["seconds"] for r in res[mode]])
    res["ratio"] = res["constant_median_s"] / res["floor_median_s"]
    return res


def fmt_ratio(a, b):
    return f"{a / b:.1f}×" if a and b else "–"


def summary_lines(results):
    """The short summary for the README: ratios and targets, no absolute times."""
    L = ["## Summary (for the README)", ""]
    s = results.get("sample")
    if s and "peer" in s:
        p = s["peer"]
        L.append(f"- **Sample (4,998 programs, report with comparison):** Raon is "
                 f"{p['median_s'] / s['raon_report']['median_s']:.1f}× faster than the pandas peer "
                 f"with the older snapshot already in its store, {p['median_s'] / s['raon_total']['median_s']:.1f}× "
                 f"counting the recording of the older snapshot too (target 5×), with "
                 f"{p['max_rss_mib'] / s['raon_report']['max_rss_mib']:.1f}× less peak memory.")
    w = results.get("weekly")
    if w and "peer" in w:
        L.append(f"- **Weekly job at {w['programs']:,} programs (real rows, last week in the store):** Raon is "
                 f"{w['peer']['median_s'] / w['raon']['median_s']:.1f}× faster than the peer (target 8×), peak memory "
                 f"{w['raon']['max_rss_mib']:.0f} MiB vs the peer's {w['peer']['max_rss_mib']:.0f} MiB.")
    y = results.get("year_apart")
    if y and "peer" in y:
        L.append(f"- **Weekly job on a pair a year apart (the sample and itself a year earlier, most programs replaced; "
                 f"default formats):** Raon is {y['peer']['median_s'] / y['raon']['median_s']:.1f}× faster than the peer "
                 f"(issue 33's target 4×)"
                 + (f", {y['before']['median_s'] / y['raon']['median_s']:.2f}× the binary before" if "before" in y else "")
                 + f"; peak memory {y['raon']['max_rss_mib']:.0f} MiB vs {y['peer']['max_rss_mib']:.0f} MiB.")
    for n, r in sorted(results.get("sizes", {}).items(), key=lambda kv: int(kv[0])):
        if "peer" not in r:
            continue
        p, ra = r["peer"], r["raon"]
        runs = f"{ra['runs']} run" + ("s" if ra["runs"] > 1 else "")
        L.append(f"- **{int(n):,} programs ({runs}):** {p['median_s'] / ra['median_s']:.1f}× faster end to end "
                 f"(CPU time {p['median_cpu_s'] / ra['median_cpu_s']:.1f}×), peak memory "
                 f"{ra['max_rss_mib'] / 1024:.2f} GiB vs the peer's {p['max_rss_mib'] / 1024:.2f} GiB"
                 + (" (target < 1 GiB at 1,000,000: not reached)" if int(n) >= 1_000_000 and ra['max_rss_mib'] >= 1024 else "")
                 + ".")
    st = results.get("store")
    if st:
        L.append(f"- **A year of daily snapshots (5,000 programs, ~1 % daily churn):** the store is "
                 f"{st['store_over_csv']:.1f}× one snapshot's CSV (target < 10×); an unchanged catalog adds "
                 f"{int(st['unchanged_added_bytes']):,} bytes on disk (target < 100 KB).")
    si = results.get("site")
    if si:
        L.append(f"- **`raon site` over a year ({int(si['count']):,} programs):** first build (52 weeks) "
                 f"{si['first_s']:.0f} s, {si['first_rss_mib']:.0f} MiB peak; rebuild after one more week "
                 f"{si['rebuild_s']:.0f} s, {si['rebuild_rss_mib']:.0f} MiB peak (target: at most half the first).")
    wm = results.get("weekly_mail")
    if wm:
        L.append(f"- **`raon weekly` at {wm['programs']:,} programs with {wm['deliveries']} deliveries:** "
                 f"{wm['ratio']:.2f}× the time of `raon report --districts all` alone (medians; CPU time "
                 f"{wm['weekly']['median_cpu_s'] / wm['report']['median_cpu_s']:.2f}×): the delivery and the ledger add "
                 f"{(wm['ratio'] - 1) * 100:.0f} % (target ≤ 20 %).")
    tr = results.get("trend")
    if tr:
        # One line here; the section below has the table.
        L.append(f"- **The trend over a year ({int(tr['count']):,} programs, {int(tr['days'])} daily snapshots):** "
                 f"`raon trend` end to end takes {tr['raon_trend']['median_s']:.2f} s (target < 2 s).")
    xs = results.get("xlsx", {})
    if xs:
        ratios = ", ".join(f"{x['ratio']:.2f}× at {int(n):,} rows" for n, x in sorted(xs.items(), key=lambda kv: int(kv[0])))
        L.append(f"- **XLSX:** Raon's programs sheet costs {ratios} of a bare libxlsxwriter loop (target ≤ 1.3×).")
    L += ["", "Wall times on this shared 2-core machine vary by up to 2× between runs (see the per-run "
          "figures in the JSON); the ratios come from alternating runs in one session.", ""]
    return L


def write_markdown(path, results):
    m = results["machine"]
    has_peer_table = bool(results.get("sample") or results.get("sizes"))
    title = "Raon vs the pandas peer" if has_peer_table else "Raon"
    L = [f"# {title} — benchmark results", "",
         f"Generated by `{results['command']}` on {m['date']}. Raw numbers: "
         f"`{os.path.relpath(results['json'], os.path.dirname(path))}`.", "",
         *summary_lines(results),
         "## Machine", "", "| | |", "|---|---|"]
    L += [f"| {k} | {v} |" for k, v in m.items()]
    L += ["", "The machine is shared (other engineers build and test on it): times are medians "
          "of alternating runs, and single-run figures are marked as such.", ""]

    if has_peer_table:
        L += ["## Raon report vs peer (end to end: decode, parse, normalise, store, analytics, md+svg, xlsx, csv, json)", "",
          "| input | runs | Raon median | peer median | speed-up (peer/Raon) | CPU-time ratio (peer/Raon) | Raon peak RSS | peer peak RSS | memory ratio (peer/Raon) |",
          "|---|---|---|---|---|---|---|---|---|"]
    s = results.get("sample")
    if s:
        p = s.get("peer")
        for label, key in (("sample 4,998 + comparison: report only (baseline already stored)", "raon_report"),
                           ("sample 4,998 + comparison: baseline snapshot + report", "raon_total")):
            r = s[key]
            L.append(f"| {label} | {r['runs']} | {r['median_s']:.2f} s | "
                     + (f"{p['median_s']:.2f} s | **{fmt_ratio(p['median_s'], r['median_s'])}** | {fmt_ratio(p['median_cpu_s'], r['median_cpu_s'])} | " if p else "– | – | – | ")
                     + f"{r['max_rss_mib']:.0f} MiB | " + (f"{p['max_rss_mib']:.0f} MiB | {fmt_ratio(p['max_rss_mib'], r['max_rss_mib'])} |" if p else "– | – |"))
    for n, r in sorted(results.get("sizes", {}).items(), key=lambda kv: int(kv[0])):
        p = r.get("peer")
        ra = r["raon"]
        L.append(f"| synthetic {int(n):,} ({r['csv_bytes'] / 1e6:.0f} MB CSV) | {ra['runs']}"
                 + (f" / {p['runs']}" if p and p['runs'] != ra['runs'] else "") + f" | {ra['median_s']:.2f} s | "
                 + (f"{p['median_s']:.2f} s | **{fmt_ratio(p['median_s'], ra['median_s'])}** | {fmt_ratio(p['median_cpu_s'], ra['median_cpu_s'])} | " if p else "– | – | – | ")
                 + f"{ra['max_rss_mib']:.0f} MiB | " + (f"{p['max_rss_mib']:.0f} MiB | {fmt_ratio(p['max_rss_mib'], ra['max_rss_mib'])} |" if p else "– | – |"))
    L.append("")

    weekly = results.get("weekly_sizes") or ({str(results["weekly"]["programs"]): results["weekly"]} if results.get("weekly") else {})
    if weekly:
        L += ["## The weekly job (`raon report --input NEW --compare-to previous`, last week already stored)", "",
              "Real rows: the sample (and its modified copy) repeated with new ids. `before` is an earlier Raon "
              "binary (`--before PATH`) timed in the same loop, run for run.", "",
              "| programs | runs | Raon | before | Raon ÷ before | peer | speed-up (peer/Raon) | Raon peak RSS | before peak RSS | peer peak RSS |",
              "|---|---|---|---|---|---|---|---|---|---|"]
        for n, w in sorted(weekly.items(), key=lambda kv: int(kv[0])):
            ra, b, p = w["raon"], w.get("before"), w.get("peer")
            L.append(f"| {int(n):,} | {ra['runs']} | {ra['median_s']:.2f} s | "
                     + (f"{b['median_s']:.2f} s | {ra['median_s'] / b['median_s']:.2f} | " if b else "– | – | ")
                     + (f"{p['median_s']:.2f} s | **{fmt_ratio(p['median_s'], ra['median_s'])}** | " if p else "– | – | ")
                     + f"{ra['max_rss_mib']:.0f} MiB | " + (f"{b['max_rss_mib']:.0f} MiB | " if b else "– | ")
                     + (f"{p['max_rss_mib']:.0f} MiB |" if p else "– |"))
        L.append("")

    wm = results.get("weekly_mail")
    if wm:
        L += ["## `raon weekly` with its deliveries beside `raon report --districts all` alone", "",
              f"{wm['programs']:,} programs (the sample's real rows, grown and moved to this week), last week's "
              "snapshot in a fresh store each run; the city report and 25 packs as pdf and xlsx on both sides; the "
              f"weekly job also sends {wm['deliveries']} messages to a loopback SMTP server (STARTTLS, AUTH) and "
              "keeps its ledger. Alternating runs (A B, then B A). Target: the delivery and the ledger add at "
              "most 20 % (weekly ÷ report ≤ 1.20). `make bench-weekly-mail` runs this part alone.", "",
              "| runs | `raon weekly` | `raon report` alone | weekly ÷ report (medians) | median of the pairs' ratios "
              "| CPU time weekly ÷ report (medians) | weekly peak RSS | report peak RSS | largest message |",
              "|---|---|---|---|---|---|---|---|---|",
              f"| {wm['weekly']['runs']} | {wm['weekly']['median_s']:.2f} s | {wm['report']['median_s']:.2f} s | "
              f"**{wm['ratio']:.3f}** | {wm['pair_ratio_median']:.3f} | "
              f"{wm['weekly']['median_cpu_s'] / wm['report']['median_cpu_s']:.3f} "
              f"({wm['weekly']['median_cpu_s']:.2f} s ÷ {wm['report']['median_cpu_s']:.2f} s) | "
              f"{wm['weekly']['max_rss_mib']:.0f} MiB | {wm['report']['max_rss_mib']:.0f} MiB | "
              f"{wm['largest_message_bytes'] / 1e6:.1f} MB (the city's) |", "",
              "Per-run wall times (weekly, report alone), in run order: "
              + ", ".join(f"{w:.1f} s / {r:.1f} s" for w, r in wm["pairs"]) + ".", ""]
    st = results.get("store")
    if st:
        L += ["## A year of daily snapshots (`raon-bench store`)", "",
              f"{int(st['count']):,} programs, {int(st['days'])} daily snapshots, ~1% churn a day "
              "(a third removed, a third changed, a third added).", "",
              "| measure | value | target |", "|---|---|---|",
              f"| recording all {int(st['days'])} snapshots (store only) | {st['record_total_ms'] / 1000:.1f} s "
              f"(first {st['record_first_ms']:.0f} ms, then median {st['record_daily_median_ms']:.0f} ms/day) | |",
              f"| store on disk | {st['store_bytes'] / 1e6:.2f} MB = **{st['store_over_csv']:.2f}×** one snapshot's CSV "
              f"({st['csv_bytes'] / 1e6:.2f} MB UTF-8) | < 10× |",
              f"| bytes added by recording an unchanged catalog | **{int(st['unchanged_added_bytes']):,} B** on disk "
              f"({int(st['unchanged_added_used_bytes']):,} B of used pages), {st['unchanged_record_ms']:.0f} ms | < 100 KB |",
              ""]
    tr = results.get("trend")
    if tr:
        L += ["## The weekly trend over a year (`raon-bench trend`, `raon trend`)", "",
              f"{int(tr['count']):,} programs, {int(tr['days'])} daily snapshots, ~1% churn a day; "
              f"{int(tr['trend_points'])} weekly points.", "",
              "| measure | value | target |", "|---|---|---|",
              f"| store read (`trendSteps`) | {tr['trend_read_median_ms']:.0f} ms median | |",
              f"| points chosen + read + counted (in process) | {tr['trend_total_median_ms']:.0f} ms median | |",
              f"| `raon trend` end to end (md+svg, xlsx, csv, json) | **{tr['raon_trend']['median_s']:.2f} s** median, "
              f"{tr['raon_trend']['max_rss_mib']:.0f} MiB peak | < 2 s |", ""]
    xs = results.get("xlsx", {})
    if xs:
        L += ["## XLSX programs sheet vs libxlsxwriter's own loop (`raon-bench xlsx`)", "",
              "| rows | runs | floor (bare libxlsxwriter) | Raon's writer (constant memory) | ratio | target |",
              "|---|---|---|---|---|---|"]
        for n, x in sorted(xs.items(), key=lambda kv: int(kv[0])):
            L.append(f"| {int(n):,} | {len(x['floor'])} | {x['floor_median_s']:.2f} s | {x['constant_median_s']:.2f} s | "
                     f"**{x['ratio']:.2f}×** | ≤ 1.3× |")
        L.append("")
    L += ["## Notes", "", *results.get("notes", []),
          "- What was profiled and changed, with before/after figures: [`PROFILING.md`](PROFILING.md). "
          "Regenerate this file from a results JSON with `python3 bench/bench.py --from-json bench/results/….json`.", ""]
    # The hand-measured section (comparisons run outside this script) is kept as it is.
    kept = ""
    if os.path.exists(path):
        with open(path) as f:
            text = f.read()
        if HAND_MEASURED in text:
            kept = "\n" + text[text.index(HAND_MEASURED):]
    with open(path, "w") as f:
        f.write("\n".join(L) + kept)


HAND_MEASURED = "<!-- Measured by hand: bench.py keeps this section when it regenerates the file. -->"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="sample (3 runs) and 100,000 only; store 365 days; xlsx 100,000")
    ap.add_argument("--sizes", help="comma-separated synthetic sizes (default 100000,1000000; quick: 100000; none: skip)")
    ap.add_argument("--runs", type=int, help="runs at the sample (default 5; quick 3)")
    ap.add_argument("--size-runs", type=int, default=3, help="runs at synthetic sizes ≤ 100,000 (default 3)")
    ap.add_argument("--big-runs", type=int, default=1, help="runs at sizes > 100,000 (default 1)")
    ap.add_argument("--peer", default=os.environ.get("PEER", PEER_DEFAULT))
    ap.add_argument("--skip-peer", action="store_true")
    ap.add_argument("--skip-store", action="store_true")
    ap.add_argument("--skip-trend", action="store_true")
    ap.add_argument("--skip-xlsx", action="store_true")
    ap.add_argument("--skip-site", action="store_true")
    ap.add_argument("--only-site", action="store_true", help="only `raon site` over a year of 20,000 programs")
    ap.add_argument("--skip-sample", action="store_true")
    ap.add_argument("--year-apart", type=int, default=0, metavar="RUNS",
                    help="also time the weekly job on a pair a year apart (bench/make_year_apart.py on the sample), RUNS runs")
    ap.add_argument("--weekly", default="1,4", help="the weekly job at N × the sample's real rows, comma-separated "
                    "(default 1,4: ~5,000 and ~20,000 programs; 0: skip)")
    ap.add_argument("--before", help="an earlier raon binary, timed side by side with this one in the weekly job")
    ap.add_argument("--weekly-runs", type=int, default=3)
    ap.add_argument("--weekly-mail", type=int, default=0, metavar="N",
                    help="also time a whole `raon weekly` (26 deliveries to a loopback SMTP server) beside "
                         "`raon report --districts all` alone at N × the sample (4: 19,992 programs); 0: skip")
    ap.add_argument("--weekly-mail-runs", type=int, default=6)
    ap.add_argument("--only-weekly-mail", action="store_true",
                    help="only `raon weekly` with its deliveries beside `raon report` alone (--weekly-mail, 4 unless given)")
    ap.add_argument("--national", type=int, default=0, metavar="RUNS",
                    help="also time the national weekly job beside its pandas peer (bench_national.py), RUNS runs each")
    ap.add_argument("--national-copies", type=int, default=3, help="the scaled national workload: the download × N")
    ap.add_argument("--only-national", action="store_true", help="only the national weekly job (--national, 5 unless given)")
    ap.add_argument("--work", default=os.path.join(ROOT, "bench", "work"), help="inputs and scratch (git-ignored)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "RESULTS.md"))
    ap.add_argument("--from-json", help="only rewrite --out from an earlier run's results JSON")
    a = ap.parse_args()
    if a.from_json:
        with open(a.from_json) as f:
            results = json.load(f)
        write_markdown(a.out, results)
        print(f"wrote {a.out} from {a.from_json}")
        return
    for binary in (RAON,) if a.only_national else (RAON, BENCH):
        if not os.path.exists(binary):
            raise SystemExit(f"{binary} missing: swift build -c release --product raon --product raon-bench")
    if not a.skip_peer and not a.only_weekly_mail and not a.only_national and not os.path.exists(a.peer):
        raise SystemExit(f"peer {a.peer} missing: give --peer PATH or --skip-peer")
    sizes = [] if a.sizes == "none" else [
        int(s) for s in (a.sizes or ("100000" if a.quick else "100000,1000000")).split(",") if s]
    runs = a.runs or (3 if a.quick else 5)
    os.makedirs(a.work, exist_ok=True)
    results = {"command": "python3 bench/bench.py " + " ".join(sys.argv[1:]), "machine": machine(), "sizes": {}, "xlsx": {}}
    print("machine:", json.dumps(results["machine"], ensure_ascii=False), flush=True)
    if a.only_site:
        a.skip_sample = a.skip_store = a.skip_trend = a.skip_xlsx = True
        a.weekly, sizes = "0", []
    if a.only_weekly_mail:
        a.skip_sample = a.skip_store = a.skip_trend = a.skip_site = a.skip_xlsx = a.skip_peer = True
        a.weekly, sizes = "0", []
        a.weekly_mail = a.weekly_mail or 4
    if a.only_national or a.national > 0:
        import bench_national
        results["national"] = {}
        for copies in (1, a.national_copies, 0):
            label = {1: "shared download", 0: "a year apart"}.get(copies, f"scaled ×{copies}")
            print(f"national weekly job, {label}:", flush=True)
            results["national"][label] = bench_national.bench(run, summarise, a.work, a.national or 5, copies)
        with open(os.path.join(ROOT, "bench", "RESULTS-national.md"), "w") as f:
            f.write(bench_national.markdown(results, results["command"]))
        os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        with open(os.path.join(ROOT, "bench", "results", f"national-{stamp}.json"), "w") as f:
            json.dump(results, f, indent=1, ensure_ascii=False)
        if a.only_national:
            return
    if not a.skip_sample:
        print("sample:", flush=True)
        results["sample"] = bench_sample(a.work, a.peer, runs, a.skip_peer)
    results["weekly_sizes"] = {}
    for copies in [int(c) for c in a.weekly.split(",") if int(c) > 0]:
        print(f"weekly job at {copies} × the sample:", flush=True)
        w = bench_weekly(a.work, a.peer, copies, a.weekly_runs, a.skip_peer, a.before)
        results["weekly_sizes"][str(w["programs"])] = w
        results["weekly"] = w  # the largest, for the summary's headline
    if a.year_apart > 0:
        # Issue 33: two downloads a year apart (most programs replaced), the default formats.
        pair = (os.path.join(work_abs := os.path.abspath(a.work), "yearapart-old.csv"),
                os.path.join(work_abs, "yearapart-new.csv"))
        if not os.path.exists(pair[0]):
            subprocess.run([sys.executable, os.path.join(ROOT, "bench", "make_year_apart.py"), SAMPLE, *pair], check=True)
        print("the weekly job on a pair a year apart:", flush=True)
        results["year_apart"] = bench_weekly(a.work, a.peer, 1, a.year_apart, a.skip_peer, a.before, pair=pair)
    if a.weekly_mail > 0:
        print(f"raon weekly with 26 deliveries at {a.weekly_mail} × the sample:", flush=True)
        results["weekly_mail"] = bench_weekly_mail(a.work, a.weekly_mail, a.weekly_mail_runs)
    for n in sizes:
        print(f"synthetic {n}:", flush=True)
        results["sizes"][str(n)] = bench_size(a.work, a.peer, n, a.size_runs if n <= 100_000 else a.big_runs, a.skip_peer)
    if not a.skip_store:
        print("store (365 daily snapshots):", flush=True)
        results["store"] = bench_store(365, 5000)
    if not a.skip_trend:
        print("trend (365 daily snapshots of 20,000):", flush=True)
        results["trend"] = bench_trend(a.work, 365, 20_000)
    if not a.skip_site:
        print("site (365 daily snapshots of 20,000: 52 weeks, then one more):", flush=True)
        results["site"] = bench_site(a.work)
    if not a.skip_xlsx:
        for n in sizes:
            print(f"xlsx {n}:", flush=True)
            results["xlsx"][str(n)] = bench_xlsx(n, 3 if n <= 100_000 else a.big_runs)
    results["notes"] = [
        "- Speed-up and memory ratio are peer ÷ Raon: above 1 means Raon is faster / smaller. The CPU-time ratio "
        "(user + system time of the process, from `wait4`) is steadier than wall time on a shared machine; Raon uses both "
        "cores for normalising, encoding, hashing and decoding, the peer one.",
        "- Peak RSS is `ru_maxrss` of the child process (`wait4`), as `/usr/bin/time -v` reports it. "
        "For 'baseline + report' it is the larger of the two processes.",
        "- Raon's time includes recording the input as a snapshot in a fresh SQLite store (the peer keeps no history); "
        "its outputs are report.md + charts/*.svg, report.xlsx (summary with native charts, table sheets, programs sheet), "
        "csv/*.csv and report.json; the peer writes the same kinds of files.",
        "- Synthetic inputs are UTF-8 with BOM (`raon-bench analytics --write-csv PATH --count N`, seed 2024); "
        "the sample is the real CP949 download.",
    ]
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    os.makedirs(os.path.join(ROOT, "bench", "results"), exist_ok=True)
    results["json"] = os.path.join(ROOT, "bench", "results", f"{stamp}.json")
    with open(results["json"], "w") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
    write_markdown(a.out, results)
    print(f"wrote {a.out} and {results['json']}")


if __name__ == "__main__":
    main()
