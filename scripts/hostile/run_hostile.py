#!/usr/bin/env python3
"""Hostile cases against the real `raon` binary (issue 18's "whole hostile set").

Runs several hundred hostile cases against a built `raon`, each in its own temporary
folder with its own store (`--db`), and checks Raon's promises after each one (README:
"Robustness", "Exit status"). Python 3 standard library only, plus the test support it
shares with the Swift tests (Tests/Scripts/raon_testkit: the loopback Open API server, the
XLSX checker, the stand-in Chromium); needs `sqlite3` and, for the full-disk family, root
(tmpfs mounts; the family is skipped with a reason otherwise).

    swift build -c release --product raon
    python3 scripts/hostile/run_hostile.py --raon .build/release/raon \\
        [--cases N] [--seed S] [--out RESULTS.md] [--family NAME ...] [--count NAME=N ...] [--quick]
        [--match TEXT]

Families (the issue's 12 items and more; per-family counts with --count, e.g.
`--count signals=40`; --cases N scales the default total, ~900, to about N):

  signals   SIGKILL / SIGINT (once or twice) / SIGTERM at random moments during `raon
            snapshot` (one and three files), `raon report --input` and `raon snapshots
            delete --yes` over the bundled ~5,000-row sample and variants of it:
            the store opens and passes `raon snapshots` and `PRAGMA integrity_check`; all
            files of the command recorded or none; after SIGINT/SIGTERM exit 130/143 and no
            `.*raon-partial*` / `.*raon-old*` left; the earlier report is in place and
            complete (or the new one is, whole); after a SIGKILL the next run cleans up.
  concurrency  4–8 processes at once on one store (snapshots, reports, listing, diff;
            300-row and 5,000-row inputs): each succeeds or fails with one line; ids
            distinct and contiguous; the count matches the successful recordings.
  disk      a small tmpfs holding the store or the output (root): nothing stored is lost,
            a failed ingestion records nothing, the earlier report is kept, one-line error.
  foreign   another application's SQLite file, text, empty file, folder, FIFO, /dev/null,
            a read-only store (read-only commands work), a store in a missing folder
            (read-only commands create nothing), truncated/zeroed stores, symlinks: the
            foreign file stays byte-for-byte unchanged, errors are one line.
  config    malformed `raon.toml` values: exit 78, one line naming FILE:LINE, no crash,
            nothing staged or recorded; a few valid edge values must work.
  options   malformed options with `--input`: nothing recorded, exit 64 or 1, one line.
  inputs    hostile catalog files (control characters, U+FFFE/U+FFFF, ESC/BEL in headers,
            names with newlines, truncated CSVs, binary .xls, random bytes, huge cells,
            JSON with \\u escapes, XLSX with _x001B_ escapes or character references,
            an .xls that is an HTML table…):
            exit 0 with a valid XLSX (every XML part parses) and no raw ESC/BEL in
            Markdown/HTML/stdout, or a one-line error without control bytes; nothing
            recorded on failure.
  api       an echoing Open API server on 127.0.0.1 that returns the key in many forms
            (plain, upper case, + U+0301, percent/HTML/JSON escapes, in XML/HTML/JSON error
            bodies, headers, redirects): the key never appears, in any form, in stdout,
            stderr, the store's bytes, the output folder (XLSX parts unzipped) or $HOME.
  diff      `raon diff` exit codes (0; 1 with --fail-if-changed; 2 on error) and usage 64.
  misc      --out through a symlink, --week 9999-W52, cp949 labels, file names with
            newlines in `raon snapshots`, trend option ranges, orphaned `.raon-old` folders.
  round3_store  issue 27 (store items): a PostgreSQL connection ended (pg_terminate_backend,
            pg_ctl stop -m immediate) in mid-snapshot, mid-report (--districts all too) and
            mid-copy ends in one line, exit 1, within 30 s, only whole snapshots stored (a
            private server from /usr/lib/postgresql/*/bin, as `nobody` when root; skipped
            without one); `?password=` in --db, RAON_DB and raon.toml never printed and used
            as the password; two `store copy` into one empty store (the loser never says
            "differs"); `latest` by time after a backfill; no -wal/-shm left by read-only
            commands beside a WAL store.
  round3_output  issue 27's report-folder and Chromium items: a user's file inside a
            report's subfolders (refused, kept); fake Chromiums (a truncated PDF refused, a
            process left on the pipes not waited for, a clean signal mask in a group of
            its own); RAON_CHROMIUM naming a folder (nothing recorded); SIGTERM/SIGINT while
            the real Chromium prints (no raon-* in TMPDIR, no Chromium left); links only to
            the portal; `&lt;` in a title kept as text; an unbroken 20,000-character
            category on the page; one Chromium for `--districts all --format pdf`.

More families live in files of their own, each hooked in with one import and one call at
the end of this file: families_site.py (raon site), families_round4.py (issue 37),
families_mail.py (mail_smtp: a scripted misbehaving SMTP server; mail_signals: signals
mid-delivery and between the parts of a message) and families_mail_config.py (mail_config:
mutated [weekly]/[mail]/[document]; child_env: the environment of every child process),
families_weekly.py (weekly_fresh: Monday sequences against a model of freshness;
weekly_gates: each gate at, under and over its threshold, then --release; weekly_lock: lock
paths that are not Raon's, two runs on one store), families_lineage.py
(national_lineage: renames and mergers found in the national data, and look-alikes) and
families_webhook.py (weekly_webhook: `raon weekly --deliver-pending` against a misbehaving
HTTP endpoint — every status, hangs, drops, garbage, huge and trickled replies, redirects,
unusable URL variables, signals mid-delivery: the ledger says what the endpoint answered,
one copy each after a rerun, the URL's token and password never written, the mail pending).
A family may declare a quick subset (QUICK); `--quick` runs only those subsets (CI does).

After every case the fake $HOME given to raon is checked: files there fail the case,
empty folders are counted under "Outcomes". The default set (~940 cases) takes about
11 minutes on a busy 2-core machine; most of it is the FIFO cases (15 s timeout each)
and the API cases answered with 5xx (raon retries them with back-off).

Output: one line per failed case (family, case, what broke), a summary table per family,
and `N passed, N failed[, N skipped]`; the same as Markdown with --out. Exit 1 if any case
failed. Failing cases' folders are kept under the work folder (printed) for inspection.
Network: loopback (127.0.0.1) only.
"""
import argparse
import base64
import csv
import datetime
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Scripts"))
from raon_testkit import fake_chromium  # noqa: E402
from raon_testkit.loopback_api import LoopbackAPI, api_rows  # noqa: E402
from raon_testkit.xlsx import xml_problems  # noqa: E402

NL = b"\n"
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
SAMPLE = os.path.join(REPO, "data", "sample", "seoul-cultural-events-2024-09-09.cp949.csv")

DEFAULT_COUNTS = {
    "signals": 200, "concurrency": 30, "disk": 45, "foreign": 0, "config": 0,
    "options": 0, "inputs": 150, "api": 0, "diff": 0, "misc": 0,
    "round3_store": 0,
    "round3_output": 0,
}
# 0 above = "every case of the family's fixed table" (their size is given by the table).
FAMILIES = list(DEFAULT_COUNTS)
CRASH_SIGNALS = {signal.SIGILL, signal.SIGSEGV, signal.SIGABRT, signal.SIGTRAP, signal.SIGBUS,
                 signal.SIGFPE}


class Skip(Exception):
    pass


NOTES = {}


def note(family, label):
    """Counts an outcome worth reporting (e.g. how a signalled run ended)."""
    fam = NOTES.setdefault(family, {})
    fam[label] = fam.get(label, 0) + 1


# ---------------------------------------------------------------------------------------
# Running raon and common checks
# ---------------------------------------------------------------------------------------

class Ctx:
    raon = None
    work = None
    rng = None
    env = None
    inputs = {}
    templates = {}
    timings = {}


def check_home():
    """Files and (empty) folders a case left under the fake $HOME; empties it again."""
    home = os.path.join(Ctx.work, "home")
    files, dirs = [], []
    for root, ds, fs in os.walk(home):
        files += [os.path.relpath(os.path.join(root, f), home) for f in fs]
        if not ds and not fs and root != home:
            dirs.append(os.path.relpath(root, home))
    if files or dirs:
        shutil.rmtree(home)
        os.makedirs(home)
    return files, dirs


def base_env(extra=None):
    env = {k: v for k, v in os.environ.items()
           if not k.lower().endswith("_proxy") and k not in ("RAON_DB", "SEOUL_API_KEY", "XDG_DATA_HOME")}
    env["NO_PROXY"] = "127.0.0.1,localhost"
    env["HOME"] = os.path.join(Ctx.work, "home")  # a default store would land here, not in ~
    env["LANG"] = "C.UTF-8"
    if extra:
        env.update(extra)
    return env


class Result:
    def __init__(self, args, rc, out, err, elapsed):
        self.args, self.rc, self.out, self.err, self.elapsed = args, rc, out, err, elapsed

    @property
    def stdout(self):
        return self.out.decode("utf-8", "replace")

    @property
    def stderr(self):
        return self.err.decode("utf-8", "replace")


def run(args, cwd, env=None, timeout=120, stdin=None):
    t = time.monotonic()
    try:
        p = subprocess.run([Ctx.raon] + args, cwd=cwd, env=env or base_env(), capture_output=True,
                           timeout=timeout, stdin=stdin if stdin is not None else subprocess.DEVNULL)
        return Result(args, p.returncode, p.stdout, p.stderr, time.monotonic() - t)
    except subprocess.TimeoutExpired as e:
        return Result(args, "timeout", e.stdout or b"", e.stderr or b"", time.monotonic() - t)


def short(b, n=160):
    s = b.decode("utf-8", "replace") if isinstance(b, bytes) else str(b)
    s = s.replace("\n", "\\n")
    return s if len(s) <= n else s[:n] + "…"


def check_no_crash(r, problems, what="raon"):
    if r.rc == "timeout":
        problems.append(f"{what} hung (timeout) {r.args[:6]}")
        return
    if isinstance(r.rc, int) and r.rc < 0 and -r.rc in CRASH_SIGNALS:
        problems.append(f"{what} crashed with signal {signal.Signals(-r.rc).name}: {short(r.err)}")
    low = r.err.lower()
    for marker in (b"fatal error", b"stack dump", b"backtrace", b"traceback", b"swift runtime failure"):
        if marker in low:
            problems.append(f"{what}: '{marker.decode()}' on stderr: {short(r.err)}")
            break


def control_bytes(b, allow=b"\t\n\r"):
    return sorted({c for c in b if (c < 0x20 and c not in allow) or c == 0x7F})


def check_one_line_error(r, problems, what="error"):
    """A failure prints exactly one non-empty line on stderr, free of control bytes."""
    err = r.err
    text = err[:-1] if err.endswith(b"\n") else err
    if not text.strip():
        problems.append(f"{what}: exit {r.rc} with nothing on stderr")
    elif b"\n" in text:
        problems.append(f"{what}: {text.count(NL) + 1} lines on stderr: {short(err)}")
    bad = control_bytes(text, allow=b"\t")
    if bad:
        problems.append(f"{what}: control bytes {bad} on stderr: {short(err)}")


def check_outcome_lines(r, problems, ok_codes=(0,), err_codes=(1,), what="raon"):
    check_no_crash(r, problems, what)
    if r.rc == "timeout":
        return
    if r.rc in ok_codes:
        return
    if r.rc in err_codes:
        check_one_line_error(r, problems, what)
        return
    problems.append(f"{what}: exit {r.rc} (expected {sorted(set(ok_codes) | set(err_codes))}): {short(r.err)}")


def snapshots_json(store, cwd, problems=None):
    # From a neutral folder: the case's own raon.toml (family config) must not apply.
    r = run(["snapshots", "--db", store, "--json"], os.path.join(Ctx.work, "neutral"))
    if r.rc != 0:
        if problems is not None:
            problems.append(f"'raon snapshots' fails on the store afterwards: exit {r.rc}: {short(r.err)}")
        return None
    try:
        return json.loads(r.out)
    except ValueError:
        if problems is not None:
            problems.append(f"'raon snapshots --json' is not JSON: {short(r.out)}")
        return None


def integrity(store, problems):
    try:
        p = subprocess.run(["sqlite3", store, "PRAGMA integrity_check"], capture_output=True, timeout=60)
        out = p.stdout.decode("utf-8", "replace").strip()
        if out != "ok":
            problems.append(f"integrity_check: {short(out or p.stderr)}")
    except subprocess.TimeoutExpired:
        problems.append("integrity_check hung")


def store_state(store, cwd, problems):
    """(count, ids) after checking the store opens, lists and passes integrity_check."""
    snaps = snapshots_json(store, cwd, problems)
    integrity(store, problems)
    if snaps is None:
        return None, None
    return len(snaps), [s["id"] for s in snaps]


def leftovers(folder, depth=3):
    found = []
    if not os.path.isdir(folder):
        return found
    base_depth = folder.rstrip("/").count("/")
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            if "raon-partial" in name or "raon-old" in name:
                found.append(os.path.relpath(os.path.join(root, name), folder))
        if root.count("/") - base_depth >= depth:
            dirs[:] = []
    return found


def manifest(folder):
    out = {}
    for root, _, files in os.walk(folder):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, folder)] = hashlib.sha256(fh.read()).hexdigest()
    return out


def sha(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def report_complete(folder, expected_files=None):
    """Problems with a published report folder (files there, XLSX/JSON readable)."""
    probs = []
    if not os.path.isdir(folder):
        return [f"no report folder at {os.path.basename(folder)}"]
    m = manifest(folder)
    if expected_files is not None:
        missing = sorted(set(expected_files) - set(m))
        if missing:
            probs.append(f"report incomplete, missing {missing[:5]}")
    for rel in m:
        p = os.path.join(folder, rel)
        if rel.endswith(".xlsx"):
            probs += xml_problems(p)
        elif rel.endswith(".json"):
            try:
                with open(p, "rb") as fh:
                    json.loads(fh.read())
            except ValueError as e:
                probs.append(f"{rel} is not JSON: {e}")
        if rel.endswith((".md", ".html")):
            with open(p, "rb") as fh:
                bad = control_bytes(fh.read())
            if bad:
                probs.append(f"{rel} holds raw control bytes {bad}")
    return probs


def copy_store(name, dest_dir, fname="store.sqlite"):
    dst = os.path.join(dest_dir, fname)
    shutil.copyfile(Ctx.templates[name], dst)
    return dst


def copy_report(dest):
    shutil.copytree(Ctx.templates["report"], dest)
    return manifest(dest)


# ---------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------

def read_sample():
    raw = open(SAMPLE, "rb").read()
    text = raw.decode("cp949", errors="replace")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return rows[0], rows[1:]


def write_csv(path, header, rows, encoding="utf-8-sig", newline="\r\n"):
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator=newline, quoting=csv.QUOTE_ALL)
    w.writerow(header)
    w.writerows(rows)
    data = buf.getvalue()
    with open(path, "wb") as fh:
        fh.write(data.encode(encoding, errors="replace"))
    return path


def prepare(args):
    work = Ctx.work
    inp = os.path.join(work, "inputs")
    os.makedirs(inp)
    os.makedirs(os.path.join(work, "home"))
    os.makedirs(os.path.join(work, "neutral"))
    header, body = read_sample()
    Ctx.header, Ctx.body = header, body
    Ctx.inputs["A"] = SAMPLE
    for name, seed in (("B", 7), ("C", 11), ("D", 13), ("E", 17), ("F", 19), ("G", 23), ("H", 29), ("I", 31)):
        out = os.path.join(inp, f"{name}.csv")
        subprocess.run([sys.executable, os.path.join(REPO, "scripts", "make_modified_sample.py"), SAMPLE, out,
                        "--seed", str(seed)], check=True)
        Ctx.inputs[name] = out
    # Small inputs: 300 rows and variants of them (a few titles changed, a few rows dropped).
    rng = random.Random(99)
    small = [list(r) for r in body[:300]]
    Ctx.small_rows = small
    Ctx.inputs["S0"] = write_csv(os.path.join(inp, "S0.csv"), header, small)
    title_col = header.index("공연/행사명")
    for i in range(1, 9):
        rows = [list(r) for r in small]
        for r in rng.sample(rows, 5):
            r[title_col] += f" (변경 {i})"
        for r in rng.sample(rows, 6):
            rows.remove(r)
        Ctx.inputs[f"S{i}"] = write_csv(os.path.join(inp, f"S{i}.csv"), header, rows)
    # Template stores.
    tdir = os.path.join(work, "templates")
    os.makedirs(tdir)

    def make_store(name, files_times):
        st = os.path.join(tdir, name + ".sqlite")
        for f, t in files_times:
            r = run(["snapshot", f, "--db", st, "--taken-at", t], tdir)
            if r.rc != 0:
                raise SystemExit(f"setup: cannot record {f}: {r.stderr}")
        subprocess.run(["sqlite3", st, "PRAGMA wal_checkpoint(TRUNCATE)"], capture_output=True)
        for side in ("-wal", "-shm"):
            if os.path.exists(st + side):
                os.remove(st + side)
        Ctx.templates[name] = st

    make_store("full1", [(SAMPLE, "2024-09-02")])
    make_store("full2", [(SAMPLE, "2024-09-02"), (Ctx.inputs["B"], "2024-09-09")])
    make_store("small1", [(Ctx.inputs["S0"], "2024-09-02")])
    make_store("small3", [(Ctx.inputs["S0"], "2024-09-02"), (Ctx.inputs["S0"], "2024-09-05"),
                          (Ctx.inputs["S1"], "2024-09-09")])
    # Template report (on the full store) that cases copy as "the earlier report".
    rep = os.path.join(tdir, "report")
    st = os.path.join(tdir, "tmp-report.sqlite")
    shutil.copyfile(Ctx.templates["full1"], st)
    r = run(["report", "--db", st, "--out", rep, "--format", "md,xlsx,csv,json,html"], tdir)
    if r.rc != 0:
        raise SystemExit(f"setup: cannot write the template report: {r.stderr}")
    Ctx.templates["report"] = rep
    Ctx.report_files = sorted(manifest(rep))
    # Timings for the signal family (how long each operation takes here, now).
    for op in ("snap1", "snap3", "report", "delete"):
        d = os.path.join(work, "timing-" + op)
        os.makedirs(d)
        st = copy_store("full2" if op == "delete" else "full1", d)
        t = time.monotonic()
        r = run(signal_op_args(op, st, os.path.join(d, "out")), d)
        Ctx.timings[op] = time.monotonic() - t
        if r.rc != 0:
            raise SystemExit(f"setup: {op} failed: {r.stderr}")
        shutil.rmtree(d)


# ---------------------------------------------------------------------------------------
# Family 1: signals
# ---------------------------------------------------------------------------------------

def signal_op_args(op, store, out):
    I = Ctx.inputs
    if op == "snap1":
        return ["snapshot", I["B"], "--db", store, "--taken-at", "2024-09-09"]
    if op == "snap3":
        return ["snapshot", I["B"], I["C"], I["D"], "--db", store, "--taken-at", "2024-09-09",
                "--taken-at", "2024-09-16", "--taken-at", "2024-09-23"]
    if op == "delete":
        return ["snapshots", "delete", "2", "--yes", "--db", store]
    return ["report", "--input", I["B"], "--taken-at", "2024-09-09", "--db", store, "--out", out,
            "--format", "md,xlsx,csv,json,html"]


def family_signals(n, rng):
    cases = []
    sigs = [signal.SIGKILL, signal.SIGINT, signal.SIGTERM]
    ops = ["snap1", "snap3", "report", "report", "snap3", "delete"]
    for i in range(n):
        op = ops[i % len(ops)]
        sig = sigs[(i // len(ops)) % 3]
        twice = sig == signal.SIGINT and rng.random() < 0.3
        frac = rng.random() * 1.05
        name = f"{sig.name}{'×2' if twice else ''} {op} at {frac:.2f}×run"
        cases.append((name, lambda d, op=op, sig=sig, frac=frac, twice=twice: case_signal(d, op, sig, frac, twice)))
    return cases


def case_signal(d, op, sig, frac, twice=False):
    problems = []
    store = copy_store("full2" if op == "delete" else "full1", d)
    out = os.path.join(d, "out")
    old = copy_report(out)
    args = signal_op_args(op, store, out)
    expected = {"snap1": 1, "snap3": 3, "report": 1, "delete": -1}[op]
    base_count = 2 if op == "delete" else 1
    delay = frac * Ctx.timings[op]
    p = subprocess.Popen([Ctx.raon] + args, cwd=d, env=base_env(), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    time.sleep(delay)
    sent = p.poll() is None
    if sent:
        p.send_signal(sig)
        if twice:  # Ctrl-C pressed twice
            time.sleep(random.Random(int(frac * 1e6)).random() * 0.1)
            if p.poll() is None:
                p.send_signal(sig)
    try:
        outb, errb = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        outb, errb = p.communicate()
        problems.append(f"did not end within 120 s of {sig.name}")
    r = Result(args, p.returncode, outb, errb, 0)
    check_no_crash(r, problems)
    rc = p.returncode
    note("signals", f"{sig.name} {op}: " + ("finished before the signal" if not sent else f"exit {rc}"))
    if sig != signal.SIGKILL and sent:
        code = 130 if sig == signal.SIGINT else 143
        if rc not in (0, code, -sig):
            problems.append(f"exit {rc} after {sig.name} (expected {code}): {short(errb)}")
        if rc == -sig and not leftovers(d):
            pass  # died of the signal before its handler was in place: nothing staged yet
        if rc == code:
            check_one_line_error(r, problems, what=f"exit {code}")
    elif rc not in (0, -signal.SIGKILL):
        problems.append(f"exit {rc}: {short(errb)}")
    count, ids = store_state(store, d, problems)
    if count is not None:
        delta = count - base_count
        if delta not in (0, expected):
            problems.append(f"{delta} of {expected} files recorded (all or none)")
        if rc == 0 and delta != expected:
            problems.append(f"exit 0 but {delta} of {expected} recorded")
    if sig != signal.SIGKILL or not sent:
        left = leftovers(d)
        if left:
            stuff = []
            for x in left[:2]:
                try:
                    stuff.append(f"{x} holding {sorted(os.listdir(os.path.join(d, x)))[:6]}")
                except OSError:
                    stuff.append(x)
            problems.append(f"left behind after {sig.name if sent else 'exit'} (exit {rc}): {'; '.join(stuff)}")
    # The earlier report: still there and complete, or the new one whole.
    if os.path.isdir(out):
        now = manifest(out)
        if now != old:
            if rc in (130, 143) and op != "report":
                problems.append("report folder changed by a snapshot command")
            probs = report_complete(out, Ctx.report_files)
            problems += [f"report after {sig.name}: {p_}" for p_ in probs]
    else:
        problems.append(f"the earlier report folder is gone after {sig.name} ({os.listdir(d)})")
    if sig == signal.SIGKILL and op == "report" and sent and not problems:
        # The next run must clean up what the killed one left (and restore an orphan).
        r2 = run(["report", "--db", store, "--out", out, "--format", "md,json"], d)
        if r2.rc != 0:
            problems.append(f"next run after SIGKILL fails: exit {r2.rc}: {short(r2.err)}")
        left = leftovers(d)
        if left:
            problems.append(f"next run after SIGKILL leaves {left[:4]}")
    return problems


# ---------------------------------------------------------------------------------------
# Family 2: concurrency
# ---------------------------------------------------------------------------------------

def family_concurrency(n, rng):
    cases = []
    for i in range(n):
        k = 4 + i % 5
        plan = []
        for j in range(k):
            plan.append(rng.choice(["snap", "snap", "report-input", "report", "list", "diff", "snap2"]))
        full = i % 2 == 1
        cases.append((f"{k} at once{' (5,000 rows)' if full else ''}: {','.join(plan)}",
                      lambda d, plan=plan, full=full: case_concurrency(d, plan, full)))
    return cases


def case_concurrency(d, plan, full=False):
    problems = []
    store = copy_store("full1" if full else "small1", d)
    names = ["B", "C", "D", "E", "F", "G", "H", "I"] if full else [f"S{i}" for i in range(1, 9)]
    procs = []
    recording = []
    for j, kind in enumerate(plan):
        day = f"2024-09-{3 + j:02d}"
        src = Ctx.inputs[names[j % 8]]
        if kind == "snap":
            args = ["snapshot", src, "--db", store, "--taken-at", day]
            nrec = 1
        elif kind == "snap2":
            args = ["snapshot", src, Ctx.inputs[names[(j + 3) % 8]], "--db", store, "--taken-at", day,
                    "--taken-at", f"2024-09-{13 + j:02d}"]
            nrec = 2
        elif kind == "report-input":
            args = ["report", "--input", src, "--taken-at", day, "--db", store, "--out",
                    os.path.join(d, f"out{j}"), "--format", "md,xlsx,json"]
            nrec = 1
        elif kind == "report":
            args = ["report", "--db", store, "--out", os.path.join(d, f"out{j}"), "--format", "md,xlsx,json"]
            nrec = 0
        elif kind == "list":
            args = ["snapshots", "--db", store]
            nrec = 0
        else:
            args = ["diff", "1", "latest", "--db", store, "--format", "none"]
            nrec = 0
        procs.append((kind, args, nrec, subprocess.Popen([Ctx.raon] + args, cwd=d, env=base_env(),
                                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                         stdin=subprocess.DEVNULL)))
    recorded = 0
    said_ids = []
    for j, (kind, args, nrec, p) in enumerate(procs):
        try:
            o, e = p.communicate(timeout=180)
        except subprocess.TimeoutExpired:
            p.kill()
            o, e = p.communicate()
            problems.append(f"#{j} {kind} hung")
            continue
        r = Result(args, p.returncode, o, e, 0)
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=(1, 2), what=f"#{j} {kind}")
        note("concurrency", f"{kind}: exit {p.returncode}")
        if p.returncode == 0:
            recorded += nrec
            said_ids += [int(x) for x in re.findall(rb"recorded snapshot (\d+)", o)]
            if kind.startswith("report"):
                problems += [f"#{j}: {x}" for x in report_complete(os.path.join(d, f"out{j}"))]
    count, ids = store_state(store, d, problems)
    if ids is not None:
        if count != 1 + recorded:
            problems.append(f"{count} snapshots, expected 1 + {recorded} recorded by successful commands")
        if sorted(ids) != list(range(1, len(ids) + 1)):
            problems.append(f"snapshot ids not contiguous: {sorted(ids)}")
        if len(set(said_ids)) != len(said_ids):
            problems.append(f"the same id reported twice: {said_ids}")
        if not set(said_ids) <= set(ids):
            problems.append(f"ids reported {said_ids} not all in the store {ids}")
    left = leftovers(d)
    if left:
        problems.append(f"left behind: {left[:4]}")
    return problems


# ---------------------------------------------------------------------------------------
# Family 3: full disk (tmpfs)
# ---------------------------------------------------------------------------------------

def mount_tmpfs(path, size):
    os.makedirs(path, exist_ok=True)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", path], capture_output=True)
    if p.returncode != 0:
        raise Skip(f"cannot mount a tmpfs: {short(p.stderr)}")


def umount(path):
    subprocess.run(["umount", "-l", path], capture_output=True)


def family_disk(n, rng):
    cases = []
    kinds = ["store-snap1", "store-snap3", "store-report-input", "out-report", "out-report-input"]
    # The store side starts from the 300-row store, so recording the ~5,000-row files needs
    # ~5 MB more and the disk fills at a random point of it.
    store_size = os.path.getsize(Ctx.templates["small1"])
    report_size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(Ctx.templates["report"])
                      for f in fs)
    for i in range(n):
        kind = kinds[i % len(kinds)]
        if kind.startswith("store"):
            size = store_size + 4096 * 8 + rng.randrange(0, 9 * 1024 * 1024)
        else:
            size = report_size + 65536 + rng.randrange(0, 28 * 1024 * 1024)
        size = (size + 4095) // 4096 * 4096
        cases.append((f"{kind} tmpfs {size // 1024} KiB", lambda d, kind=kind, size=size: case_disk(d, kind, size)))
    return cases


def case_disk(d, kind, size):
    problems = []
    mnt = os.path.join(d, "mnt")
    mount_tmpfs(mnt, size)
    try:
        I = Ctx.inputs
        if kind.startswith("store"):
            store = copy_store("small1", mnt)
            out = os.path.join(d, "out")
        else:
            store = copy_store("full1", d)
            out = os.path.join(mnt, "out")
        try:
            old = copy_report(out)
        except (OSError, shutil.Error):
            raise Skip("the earlier report does not fit")
        before_snaps = snapshots_json(store, d, problems)
        expected = 1
        if kind == "store-snap1":
            args = ["snapshot", I["B"], "--db", store, "--taken-at", "2024-09-09"]
        elif kind == "store-snap3":
            args = ["snapshot", I["B"], I["C"], I["D"], "--db", store, "--taken-at", "2024-09-09",
                    "--taken-at", "2024-09-16", "--taken-at", "2024-09-23"]
            expected = 3
        elif kind in ("store-report-input", "out-report-input"):
            args = ["report", "--input", I["B"], "--taken-at", "2024-09-09", "--db", store, "--out", out,
                    "--format", "md,xlsx,csv,json,html"]
        else:
            args = ["report", "--db", store, "--out", out, "--format", "md,xlsx,csv,json,html"]
            expected = 0
        r = run(args, d)
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=(1,))
        note("disk", f"{kind}: exit {r.rc}")
        # Read-only listing must work even on the full disk.
        after = snapshots_json(store, d, problems)
        integrity(store, problems)
        if before_snaps is not None and after is not None:
            kept = {s["id"]: s["programCount"] for s in after}
            for s in before_snaps:
                if kept.get(s["id"]) != s["programCount"]:
                    problems.append(f"snapshot {s['id']} lost or changed: {kept.get(s['id'])}")
            delta = len(after) - len(before_snaps)
            if r.rc == 0 and delta != expected:
                problems.append(f"exit 0 but {delta} of {expected} recorded")
            if r.rc != 0 and delta != 0:
                # Issue 18 item 3: recorded and failed is allowed only when the message says
                # exactly which snapshots were recorded (a full output disk cannot be
                # foreseen before `report --input` records its file).
                new_ids = sorted(s["id"] for s in after if s["id"] not in {b["id"] for b in before_snaps})
                m = re.search(rb"recorded all the same as snapshot ([0-9, ]+)", r.err)
                said = [int(x) for x in re.findall(rb"\d+", m.group(1))] if m else []
                if said != new_ids:
                    problems.append(f"failed ({short(r.err, 120)}) but {delta} snapshot(s) recorded "
                                    f"(said: {said}, recorded: {new_ids})")
        if r.rc != 0 or kind.startswith("store-snap"):
            if manifest(out) != old if os.path.isdir(out) else True:
                problems.append("the earlier report was changed or lost")
        else:
            problems += report_complete(out, Ctx.report_files)
        for folder in (d, mnt):
            left = leftovers(folder)
            if left:
                problems.append(f"left behind: {left[:4]}")
    finally:
        umount(mnt)
    return problems


# ---------------------------------------------------------------------------------------
# Family 4: foreign stores
# ---------------------------------------------------------------------------------------

def make_foreign(d, kind):
    p = os.path.join(d, "foreign")
    if kind == "other-sqlite":
        subprocess.run(["sqlite3", p, "PRAGMA application_id=1234567; CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT);"
                        "INSERT INTO notes(body) VALUES('keep me');"], check=True, capture_output=True)
    elif kind == "sqlite-look-alike":
        subprocess.run(["sqlite3", p, "CREATE TABLE snapshots(id INTEGER PRIMARY KEY, taken_at TEXT, note TEXT);"
                        "INSERT INTO snapshots(taken_at, note) VALUES('2024-01-01','not raon');"],
                       check=True, capture_output=True)
    elif kind == "sqlite-wal-other":
        subprocess.run(["sqlite3", p, "PRAGMA journal_mode=WAL; CREATE TABLE t(x); INSERT INTO t VALUES(1);"],
                       check=True, capture_output=True)
    elif kind == "text":
        open(p, "w").write("this is a shopping list\nmilk\neggs\n")
    elif kind == "empty":
        open(p, "w").close()
    elif kind == "zeros":
        open(p, "wb").write(b"\0" * 8192)
    elif kind == "random":
        open(p, "wb").write(random.Random(5).randbytes(20000))
    elif kind == "gzip":
        open(p, "wb").write(b"\x1f\x8b\x08\x00" + bytes(200))
    elif kind == "directory":
        os.makedirs(p)
        open(os.path.join(p, "keep.txt"), "w").write("x")
    elif kind == "fifo":
        os.mkfifo(p)
    elif kind == "devnull":
        return "/dev/null"
    elif kind == "truncated-raon":
        shutil.copyfile(Ctx.templates["small3"], p)
        with open(p, "r+b") as fh:
            fh.truncate(os.path.getsize(p) // 2)
    elif kind == "header-only-raon":
        shutil.copyfile(Ctx.templates["small3"], p)
        with open(p, "r+b") as fh:
            fh.truncate(100)
    elif kind == "symlink-to-other":
        make_foreign(d, "other-sqlite")
        os.rename(p, p + ".real")
        os.symlink("foreign.real", p)
    elif kind == "symlink-loop":
        os.symlink("foreign", p)
    elif kind == "dangling-symlink":
        os.symlink("nowhere/x.sqlite", p)
    else:
        raise ValueError(kind)
    return p


FOREIGN_KINDS = ["other-sqlite", "sqlite-look-alike", "sqlite-wal-other", "text", "empty", "zeros", "random",
                 "gzip", "directory", "fifo", "devnull", "truncated-raon", "header-only-raon", "symlink-to-other",
                 "symlink-loop", "dangling-symlink"]
FOREIGN_CMDS = ["snapshots", "show", "diff", "snapshot", "report-input", "trend"]


def family_foreign(n, rng):
    cases = []
    for kind in FOREIGN_KINDS:
        for cmd in FOREIGN_CMDS:
            cases.append((f"{kind} / {cmd}", lambda d, kind=kind, cmd=cmd: case_foreign(d, kind, cmd)))
    for cmd in ("snapshots", "show", "diff", "trend", "delete-dry"):
        cases.append((f"read-only store / {cmd}", lambda d, cmd=cmd: case_readonly_store(d, cmd)))
    for cmd in ("snapshots", "show", "diff", "trend"):
        cases.append((f"missing folder / {cmd}", lambda d, cmd=cmd: case_missing_store(d, cmd)))
    for cmd in ("snapshots", "report"):
        cases.append((f"lock held by another program / {cmd}", lambda d, cmd=cmd: case_locked(d, cmd)))
    return cases


def foreign_args(cmd, store, d):
    if cmd == "snapshots":
        return ["snapshots", "--db", store]
    if cmd == "show":
        return ["snapshots", "show", "1", "--db", store]
    if cmd == "delete-dry":
        return ["snapshots", "delete", "1", "--db", store]
    if cmd == "diff":
        return ["diff", "1", "2", "--db", store, "--format", "none"]
    if cmd == "trend":
        return ["trend", "--db", store, "--out", os.path.join(d, "trend"), "--format", "json"]
    if cmd == "snapshot":
        return ["snapshot", Ctx.inputs["S0"], "--db", store, "--taken-at", "2024-09-02"]
    return ["report", "--input", Ctx.inputs["S0"], "--taken-at", "2024-09-02", "--db", store, "--out",
            os.path.join(d, "out"), "--format", "md,json"]


def tree_state(d):
    st = {}
    for root, dirs, files in os.walk(d):
        for name in dirs + files:
            p = os.path.join(root, name)
            if os.path.islink(p):
                st[os.path.relpath(p, d)] = "link:" + os.readlink(p)
            elif os.path.isfile(p):
                st[os.path.relpath(p, d)] = sha(p)
            elif os.path.isdir(p):
                st[os.path.relpath(p, d)] = "dir"
            else:
                st[os.path.relpath(p, d)] = "special"
    return st


def case_foreign(d, kind, cmd):
    problems = []
    store = make_foreign(d, kind)
    before = tree_state(d)
    before_null = None
    r = run(foreign_args(cmd, store, d), d, timeout=15)
    err_codes = (2,) if cmd == "diff" else (1,)
    ok = (0,) if kind in ("empty",) and cmd in ("snapshot", "report-input") else ()
    check_outcome_lines(r, problems, ok_codes=ok, err_codes=err_codes)
    if kind == "empty" and cmd in ("snapshot", "report-input") and r.rc == 0:
        return problems  # an empty file is an empty SQLite database: Raon may make it its store
    after = tree_state(d)
    for rel in before:
        if after.get(rel) != before[rel]:
            problems.append(f"{rel} changed ({before[rel][:12]} → {str(after.get(rel))[:12]})")
    new = sorted(set(after) - set(before))
    new = [x for x in new if not x.startswith(("out", "trend"))]
    # SQLite makes -wal/-shm beside a WAL-mode database (the other app's, or a damaged Raon
    # store) even to read it; the file itself must stay as it was.
    if kind in ("sqlite-wal-other", "truncated-raon", "header-only-raon"):
        new = [x for x in new if not x.endswith(("-wal", "-shm"))]
    if new:
        problems.append(f"created {new[:5]}")
    if kind == "fifo" and b"fifo" not in r.err.lower() and b"pipe" not in r.err.lower():
        problems.append(f"a FIFO is not named as such: {short(r.err)}")
    if r.rc != 0 and b"permission denied" in r.err.lower() and kind in ("fifo", "devnull", "directory"):
        problems.append(f"misleading diagnosis: {short(r.err)}")
    return problems


def case_readonly_store(d, cmd):
    problems = []
    src = os.path.join(d, "src")
    os.makedirs(src)
    copy_store("small3", src)
    ro = os.path.join(d, "ro")
    os.makedirs(ro)
    p = subprocess.run(["mount", "--bind", src, ro], capture_output=True)
    if p.returncode != 0:
        raise Skip(f"cannot bind-mount: {short(p.stderr)}")
    try:
        p = subprocess.run(["mount", "-o", "remount,bind,ro", ro], capture_output=True)
        if p.returncode != 0:
            raise Skip(f"cannot remount read-only: {short(p.stderr)}")
        store = os.path.join(ro, "store.sqlite")
        before = sha(store)
        args = foreign_args(cmd, store, d)
        if cmd == "diff":
            args = ["diff", "1", "3", "--db", store, "--format", "none"]
        r = run(args, d)
        check_no_crash(r, problems)
        if r.rc != 0:
            problems.append(f"read-only command fails on a read-only store: exit {r.rc}: {short(r.err)}")
        if sha(store) != before:
            problems.append("store changed")
    finally:
        umount(ro)
    return problems


def case_missing_store(d, cmd):
    problems = []
    store = os.path.join(d, "typo", "a", "b.sqlite")
    before = tree_state(d)
    r = run(foreign_args(cmd, store, d), d)
    check_outcome_lines(r, problems, ok_codes=(), err_codes=(2,) if cmd == "diff" else (1,))
    after = tree_state(d)
    if set(after) - set(before):
        problems.append(f"created {sorted(set(after) - set(before))[:4]}")
    return problems


def case_locked(d, cmd):
    problems = []
    store = copy_store("small3", d)
    holder = subprocess.Popen(["sqlite3", store], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    try:
        holder.stdin.write(b"PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; SELECT 1;\n")
        holder.stdin.flush()
        time.sleep(0.4)
        if cmd == "snapshots":
            args = ["snapshots", "--db", store]
        else:
            args = ["report", "--input", Ctx.inputs["S2"], "--taken-at", "2024-09-12", "--db", store, "--out",
                    os.path.join(d, "out"), "--format", "md"]
        r = run(args, d, timeout=90)
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=(1,))
        if r.rc == 1 and b"check the path" in r.err:
            problems.append(f"a lock reported as a path problem: {short(r.err)}")
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    count, _ = store_state(store, d, problems)
    if count is not None and r.rc != 0 and count != 3:
        problems.append(f"{count} snapshots after a failed run (expected 3)")
    return problems


# ---------------------------------------------------------------------------------------
# Family 5: config
# ---------------------------------------------------------------------------------------

BAD_CONFIG = [
    ("chart_top_n = 9223372036854775807", 78), ("chart_top_n = -9223372036854775808", 78),
    ("chart_top_n = 99999999999999999999999", 78), ("chart_top_n = 0", 78), ("chart_top_n = -1", 78),
    ("chart_top_n = 101", 78), ("chart_top_n = 1.5", 78), ("chart_top_n = \"10\"", 78),
    ("chart_top_n = true", 78), ("chart_top_n = 1e3", 78), ("chart_top_n = [10]", 78),
    ("chart_top_n = nan", 78), ("chart_top_n = inf", 78), ("chart_top_n = 0x7fffffffffffffff", 78),
    ("lang = \"fr\"", 78), ("lang = \"\"", 78), ("lang = 1", 78), ("lang = \"KO \"", 78),
    ("db = \"\"", 78), ("db = \"   \"", 78), ("db = 5", 78), ("db = \"a\\u0000b\"", 78),
    ("out = \"\"", 78), ("out = []", 78), ("out = \"r\\u0000x\"", 78),
    ("formats = []", 78), ("formats = [\"pdfx\"]", 78), ("formats = [\"md\", 3]", 78), ("formats = \"\"", 78),
    ("formats = [\"\"]", 78), ("formats = 7", 78), 
    ("formats = [\"md\\u0000\"]", 78),
    ("csv_encoding = \"latin1\"", 78), ("csv_encoding = \"\"", 78), ("csv_headers = \"fr\"", 78),
    ("api_base = \"ftp://127.0.0.1/\"", 78), ("api_base = \"not a url\"", 78), ("api_base = \"\"", 78),
    ("api_base = \"http://\"", 78), ("unknown_key = 1", 78), ("Chart_Top_N = 10", 78),
    ("lang = \"ko\"\nlang = \"en\"", 78), ("chart_top_n = ", 78), ("= 5", 78), ("[section\nlang = \"ko\"", 78),
    ("lang = \"ko", 78), ("lang = 'ko'''", 78), ("\u0000lang = \"ko\"", 78), ("lang = \"\\u001b[31mko\"", 78),
    ("chart_top_n = 10 # ok\nformats = [\"md\",]\ncsv_headers = 1", 78),
    ("[raon]\nchart_top_n = 100000", 78), ("csv_encoding = \"cp949\\u0000\"", 78),
    ("chart_top_n = 1_000_000_000_000", 78), ("chart_top_n = +0", 78),
]
GOOD_CONFIG = ["chart_top_n = 1", "chart_top_n = 100", "formats = \"md, json\"", "[raon]\nlang = \"en\"",
               "csv_encoding = \"cp949\"", "lang = 'ko'"]


def family_config(n, rng):
    cases = []
    for text, code in BAD_CONFIG:
        for cmd in ("report-input", "report-config", "diff"):
            cases.append((f"{cmd}: {text!r}", lambda d, t=text, c=code, cmd=cmd: case_config(d, t, c, cmd)))
    for text in GOOD_CONFIG:
        cases.append((f"valid: {text!r}", lambda d, t=text: case_config(d, t, 0, "report-input")))
    return cases


def case_config(d, text, code, cmd):
    problems = []
    store = copy_store("small1", d)
    # Two valid lines first, so the bad key's line is 3 (or later for multi-line values).
    content = "# raon config\n# the weekly job\n" + text + "\n"
    bad_line = 3
    if "\n" in text:
        lines = text.split("\n")
        for k, l in enumerate(lines):
            if any(w in l for w in ("csv_headers = 1", "lang = \"en\"", "chart_top_n = 100000", "[section")):
                bad_line = 3 + k
    cfg = os.path.join(d, "raon.toml")
    with open(cfg, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(content)
    if cmd == "report-config":
        cfg2 = os.path.join(d, "conf", "weekly.toml")
        os.makedirs(os.path.dirname(cfg2))
        os.rename(cfg, cfg2)
        args = ["report", "--config", cfg2, "--db", store, "--input", Ctx.inputs["S1"], "--taken-at", "2024-09-09",
                "--format", "md,xlsx,json"]
        shown = "weekly.toml"
    elif cmd == "diff":
        args = ["diff", "1", "1", "--db", store, "--out", os.path.join(d, "diff")]
        shown = "raon.toml"
    else:
        args = ["report", "--db", store, "--input", Ctx.inputs["S1"], "--taken-at", "2024-09-09",
                "--format", "md,xlsx,json"]
        shown = "raon.toml"
    r = run(args, d)
    check_no_crash(r, problems)
    if code == 0:
        if r.rc != 0:
            problems.append(f"valid config refused: exit {r.rc}: {short(r.err)}")
        else:
            for rep in os.listdir(os.path.join(d, "reports")):
                problems += report_complete(os.path.join(d, "reports", rep))
        return problems
    if r.rc != code:
        problems.append(f"exit {r.rc} (expected {code}): {short(r.err)}")
    if r.rc != 0:
        check_one_line_error(r, problems)
        m = re.search(rf"{re.escape(shown)}:(\d+)".encode(), r.err)
        if not m:
            problems.append(f"error does not name {shown}:LINE: {short(r.err)}")
        elif "\n" not in text and "\u0000" not in text and int(m.group(1)) != bad_line:
            problems.append(f"names line {m.group(1)}, the bad key is on line {bad_line}")
    count, _ = store_state(store, d, problems)
    if count is not None and count != 1:
        problems.append(f"{count - 1} snapshot(s) recorded despite the bad config")
    left = leftovers(d)
    if left:
        problems.append(f"left behind: {left[:4]}")
    if os.path.exists(os.path.join(d, "reports")) or os.path.exists(os.path.join(d, "diff")):
        problems.append("a report folder was written despite the bad config")
    return problems


# ---------------------------------------------------------------------------------------
# Family 6: options with --input
# ---------------------------------------------------------------------------------------

def bad_options():
    existing_file = "AFILE"
    foreign_dir = "FDIR"
    return [
        (["--compare-to", "abc"], (64,)), (["--compare-to", "999"], (1,)), (["--compare-to", "-1"], (64, 1)),
        (["--compare-to", "9223372036854775808"], (64, 1)), (["--snapshot", "999"], (1,)),
        (["--snapshot", "0"], (64, 1)), (["--snapshot", "abc"], (64,)), (["--snapshot", "1", "--compare-to", "1"], (64, 1)),
        (["--snapshot", "-9223372036854775808"], (64, 1)), (["--snapshot", "99999999999999999999"], (64, 1)),
        (["--week", "2020-W01"], (1, 64)), (["--week", "2024-W99"], (64,)), (["--week", "2024-W00"], (64,)),
        (["--week", "abc"], (64,)), (["--week", "0000-W01"], (64, 1)), (["--week", "2024-W37x"], (64,)),
        (["--week", "10000-W01"], (64,)),
        (["--db", ""], (64,)), (["--db", "   "], (64, 1)), (["--out", ""], (64,)), (["--out", existing_file], (1, 64)),
        (["--out", foreign_dir], (1, 64)), (["--format", "pdfx"], (64,)), (["--format", ""], (64,)),
        (["--format", ",,"], (64,)), (["--format", "none"], (64, 1)), (["--lang", "fr"], (64,)),
        (["--csv-encoding", "latin1"], (64,)), (["--csv-headers", "xx"], (64,)), (["--trend-weeks", "-1"], (64,)),
        (["--trend-weeks", "521"], (64,)), (["--trend-weeks", "9223372036854775807"], (64,)),
        (["--taken-at", "yesterday"], (64,)), (["--taken-at", "2024-13-45"], (64,)), (["--taken-at", ""], (64,)),
        (["--district", "없는구"], (64, 1)), (["--district", "미상"], (64, 1)), (["--districts", "some"], (64,)),
        (["--bogus"], (64,)), (["--api"], (64, 1)),
        (["--config", "MISSINGCFG"], (78, 1, 64)), (["--input", "/nonexistent/x.csv"], (1, 64)),
        (["--out", "/proc/raon-hostile-x"], (1,)), (["--api", "--api-base", "ftp://127.0.0.1/"], (64, 1)),
        (["--api", "--api-base", "http://127.0.0.1:9/"], (64,)), (["--format", "md,,json"], (0, 64)),
        (["NOINPUT", "--api", "--api-base", "ftp://127.0.0.1/"], (64, 1)),
        (["NOINPUT", "--api", "--api-base", "http://127.0.0.1:9/"], (1,)),
        (["NOINPUT", "--api", "--api-base", ""], (64, 1)), (["NOINPUT", "--api", "--api-base", "http://"], (64, 1)),
        (["--snapshot", "latest", "--compare-to", "latest"], (64, 1)), (["--input", "AFILE"], (1,)),
    ]


def family_options(n, rng):
    cases = []
    for opts, codes in bad_options():
        cases.append((" ".join(repr(o) if o == "" or " " in o else o for o in opts).replace("NOINPUT ", "(no --input) "),
                      lambda d, opts=opts, codes=codes: case_option(d, opts, codes)))
    return cases


def case_option(d, opts, codes):
    problems = []
    store = copy_store("small1", d)
    with open(os.path.join(d, "afile.txt"), "w") as fh:
        fh.write("keep")
    os.makedirs(os.path.join(d, "foreign-dir"))
    with open(os.path.join(d, "foreign-dir", "thesis.docx"), "w") as fh:
        fh.write("keep")
    sub = {"AFILE": os.path.join(d, "afile.txt"), "FDIR": os.path.join(d, "foreign-dir"),
           "MISSINGCFG": os.path.join(d, "missing.toml")}
    opts = [sub.get(o, o) for o in opts]
    before = tree_state(d)
    # --input first, so a later --input in opts replaces it; store given unless opts do.
    args = ["report", "--input", Ctx.inputs["S1"]]
    if opts and opts[0] == "NOINPUT":
        opts = opts[1:]
        args = ["report", "--out", os.path.join(d, "out")]
    if "--taken-at" not in opts:
        args += ["--taken-at", "2024-09-09"]
    if "--db" not in opts:
        args += ["--db", store]
    if "--format" not in opts:
        args += ["--format", "md,json"]
    args += opts
    env = base_env({"SEOUL_API_KEY": "k123"}) if "--api" in opts else None
    r = run(args, d, env=env)
    check_no_crash(r, problems)
    if r.rc not in codes:
        problems.append(f"exit {r.rc} (expected {' or '.join(map(str, codes))}): "
                        f"{short(r.err) if r.err.strip() else 'accepted, nothing on stderr'}")
    if r.rc != 0:
        check_one_line_error(r, problems)
    count, _ = store_state(store, d, problems)
    if r.rc == 0:
        return problems
    if count is not None and count != 1:
        problems.append(f"{count - 1} snapshot(s) recorded, though the run failed")
    after = tree_state(d)
    changed = [k for k in before if after.get(k) != before[k] and k != "store.sqlite"]
    if changed:
        problems.append(f"changed: {changed[:4]}")
    created = [k for k in set(after) - set(before) if not k.startswith("store.sqlite")]
    if created:
        problems.append(f"created: {sorted(created)[:4]}")
    return problems


# ---------------------------------------------------------------------------------------
# Family 7: hostile inputs
# ---------------------------------------------------------------------------------------

NASTY = ["\u000b", "\u001b[31m", "\u0007", "\ufffe", "\uffff", "\u0000", "\u0001", "\u007f", "\u0085", "\u009b",
         "\u2028", "\u202e", "\ud7ff", "\U0001F600", "\u200b", "&lt;", "]]>", "<x/>", "\"", "=cmd|' /C calc'!A0",
         "\r", "\n", "\\", "\u0301", "\ufeff", "\udc80"]


def nasty_text(rng, k=None):
    parts = []
    for _ in range(k or rng.randint(1, 4)):
        parts.append(rng.choice(NASTY))
        parts.append(rng.choice(["", "연극", "x", " "]))
    return "".join(parts)


HTML_NASTY = ["", "&#x1b;[31m", "&#7;", "\x1b", "&#xfffe;", "&#0;"]


def family_inputs(n, rng):
    kinds = ["ctrl-title", "ctrl-category", "ctrl-district", "ctrl-header", "ctrl-many", "fffe-ffff",
             "esc-header-bad", "name-newline", "name-esc", "truncated", "binary-xls", "random-bytes",
             "huge-cell", "many-columns", "empty", "header-only", "bad-quotes", "cr-only", "utf16",
             "fake-xlsx", "nul-bytes", "long-line", "dup-header", "mixed-encoding", "bom-middle", "json-like",
             "json-api-escapes", "json-portal-escapes", "xlsx-escapes", "xlsx-charrefs", "html-xls"]
    cases = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        seed = rng.randrange(1 << 30)
        cases.append((f"{kind} seed {seed}", lambda d, kind=kind, seed=seed: case_input(d, kind, seed)))
    return cases


def make_input(d, kind, seed):
    rng = random.Random(seed)
    header = list(Ctx.header)
    rows = [list(r) for r in rng.sample(Ctx.small_rows, rng.randint(20, 80))]
    name = "catalog.csv"
    cols = {"title": header.index("공연/행사명"), "category": header.index("분류"), "district": header.index("자치구")}

    def mutate(col, k):
        for r in rng.sample(rows, min(k, len(rows))):
            pos = rng.randint(0, len(r[col]))
            r[col] = r[col][:pos] + nasty_text(rng) + r[col][pos:]

    raw = None
    if kind == "ctrl-title":
        mutate(cols["title"], 10)
    elif kind == "ctrl-category":
        mutate(cols["category"], 10)
    elif kind == "ctrl-district":
        mutate(cols["district"], 10)
    elif kind == "ctrl-header":
        header[rng.randrange(len(header))] += rng.choice(["\u000b", "\u001b[2J", "\u0007", "\ufffe"])
    elif kind == "ctrl-many":
        for _ in range(30):
            r = rng.choice(rows)
            c = rng.randrange(len(r))
            r[c] = nasty_text(rng, 3) + r[c]
    elif kind == "fffe-ffff":
        for r in rows[:10]:
            r[cols["title"]] += "\ufffe\uffff"
            r[cols["category"]] = "\uffff" + r[cols["category"]]
    elif kind == "esc-header-bad":
        header = ["\u001b]0;pwn\u0007제목\u001b[31m", "\u0007x"] + [f"col{i}\u001b" for i in range(5)]
        rows = [[nasty_text(rng) for _ in header] for _ in range(10)]
    elif kind == "name-newline":
        name = "week\n37\u000b.csv"
    elif kind == "name-esc":
        name = "\u001b[31mred\u0007.csv"
    elif kind == "huge-cell":
        rows[0][cols["title"]] = "가" * rng.choice([100_000, 1_000_000])
        rows[1][header.index("프로그램소개")] = "x\u000b" * 300_000
    elif kind == "many-columns":
        extra = rng.randint(100, 3000)
        header = header + [f"extra{i}\u001b" for i in range(extra)]
        rows = [r + ["v"] * extra for r in rows]
    elif kind == "dup-header":
        header[cols["district"]] = "분류"
    elif kind == "json-like":
        raw = b'{"culturalEventInfo": {"row": [' + b"[" * 5000 + b"]" * 5000 + b"]}}"
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    w.writerow(header)
    w.writerows(rows)
    text = buf.getvalue()
    if raw is None:
        raw = b"\xef\xbb\xbf" + text.encode("utf-8", "surrogatepass")
    if kind == "truncated":
        raw = raw[:rng.randint(1, len(raw) - 1)]
    elif kind == "binary-xls":
        name = "catalog.xls"
        raw = bytes.fromhex("D0CF11E0A1B11AE1") + rng.randbytes(rng.randint(100, 50000))
    elif kind == "random-bytes":
        name = rng.choice(["catalog.csv", "catalog.xlsx", "catalog.json", "catalog"])
        raw = rng.randbytes(rng.randint(0, 100000))
    elif kind == "empty":
        raw = b""
    elif kind == "header-only":
        raw = raw.split(b"\r\n")[0] + b"\r\n"
    elif kind == "bad-quotes":
        pos = rng.randrange(len(raw))
        raw = raw[:pos] + b'"' + raw[pos:]
        raw = raw.replace(b'","', b'",""', 3)
    elif kind == "cr-only":
        raw = raw.replace(b"\r\n", b"\r")
    elif kind == "utf16":
        raw = text.encode("utf-16", "surrogatepass")
    elif kind == "fake-xlsx":
        name = "catalog.xlsx"
        b = io.BytesIO()
        with zipfile.ZipFile(b, "w") as z:
            z.writestr("[Content_Types].xml", "<Types/>")
            z.writestr("xl/workbook.xml", "<workbook><sheets><sheet name=\"\u001b\" r:id=\"rId1\"/></sheets>")
            z.writestr("xl/worksheets/sheet1.xml", "<" * rng.randint(1, 10000))
        raw = b.getvalue()
    elif kind == "nul-bytes":
        raw = raw.replace(b"\xea\xb5\xac", b"\x00", 5)  # some 구 become NUL
        raw = raw[:200] + b"\x00" * 100 + raw[200:]
    elif kind == "long-line":
        raw = raw + b'"' + b"a" * 5_000_000
    elif kind == "mixed-encoding":
        cp = text.encode("cp949", errors="replace")
        raw = raw[:len(raw) // 2] + cp[len(cp) // 2:]
    elif kind == "bom-middle":
        raw = raw[:len(raw) // 2] + b"\xef\xbb\xbf\xff\xfe" + raw[len(raw) // 2:]
    elif kind in ("json-api-escapes", "json-portal-escapes"):
        name = "catalog.json"
        esc = ["\\u001b[31m", "\\u0007", "\\ufffe", "\\uffff", "\\u0000", "\\ud800", "\\udfff", "\\u000b",
               "\\u0085", "\\u2028", "\\\\", "\\\"", "\\u001b]0;x\\u0007"]
        items = [{(k if kind == "json-api-escapes" else k.lower()): v for k, v in row.items()}
                 for row in api_rows(header, rows)]
        parts = []
        for obj in items:
            fields = []
            for k, v in obj.items():
                text = json.dumps(v, ensure_ascii=False)[1:-1]
                if k.upper() in ("TITLE", "CODENAME", "GUNAME", "PLACE") and rng.random() < 0.3:
                    pos = rng.choice([0, len(text)])  # not inside one of the text's own escapes
                    text = text[:pos] + rng.choice(esc) + text[pos:]
                fields.append(f'"{k}": "{text}"')
            parts.append("{" + ", ".join(fields) + "}")
        body = "[" + ",\n".join(parts) + "]"
        if kind == "json-api-escapes":
            raw = ('{"culturalEventInfo": {"list_total_count": %d, "RESULT": {"CODE": "INFO-000", "MESSAGE": "ok\\u001b"}, '
                   '"row": %s}}' % (len(parts), body)).encode("utf-8")
        else:
            raw = ('{"DESCRIPTION": {"TITLE": "\\u001b[2J"}, "DATA": %s}' % body).encode("utf-8")
    elif kind in ("xlsx-escapes", "xlsx-charrefs"):
        name = "catalog.xlsx"

        def cell_text(v):
            v = v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            if rng.random() < 0.15:
                pos = rng.randint(0, len(v))
                bad = (rng.choice(["_x001B_", "_x0007_", "_x000B_", "_xFFFE_", "_xFFFF_", "_x0000_", "_xD800_"])
                       if kind == "xlsx-escapes" else rng.choice(["&#x1B;", "&#7;", "&#xFFFE;", "&#x0;", "\u000b", "\u001b"]))
                v = v[:pos] + bad + v[pos:]
            return v

        def colname(i):
            out = ""
            i += 1
            while i:
                i, rem = divmod(i - 1, 26)
                out = chr(65 + rem) + out
            return out

        xml_rows = []
        for ri, r in enumerate([header] + rows, start=1):
            cells = "".join(f'<c r="{colname(ci)}{ri}" t="inlineStr"><is><t xml:space="preserve">{cell_text(v)}</t></is></c>'
                            for ci, v in enumerate(r))
            xml_rows.append(f'<row r="{ri}">{cells}</row>')
        sheet = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                 '<sheetData>' + "".join(xml_rows) + '</sheetData></worksheet>')
        b = io.BytesIO()
        with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                       '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                       '<Default Extension="xml" ContentType="application/xml"/>'
                       '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                       '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
            z.writestr("_rels/.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                       '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
            z.writestr("xl/workbook.xml", '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                       'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>')
            z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                       '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
            z.writestr("xl/worksheets/sheet1.xml", sheet)
        raw = b.getvalue()
    elif kind == "html-xls":
        name = "catalog.xls"
        def h(v):
            return v.replace("&", "&amp;").replace("<", "&lt;")
        trs = ["<tr>" + "".join(f"<th>{h(x)}</th>" for x in header) + "</tr>"]
        for r in rows:
            trs.append("<tr>" + "".join("<td>" + h(x) + rng.choice(HTML_NASTY) + "</td>" for x in r) + "</tr>")
        raw = ("<html><body><table>" + "\n".join(trs) + "</table></body></html>").encode("utf-8")
    path = os.path.join(d, name)
    with open(path, "wb") as fh:
        fh.write(raw)
    return path


def case_input(d, kind, seed):
    problems = []
    path = make_input(d, kind, seed)
    store = os.path.join(d, "store.sqlite")
    out = os.path.join(d, "out")
    r = run(["report", "--input", path, "--taken-at", "2024-09-09", "--db", store, "--out", out,
             "--format", "md,xlsx,csv,json,html", "--csv-encoding", random.Random(seed).choice(["utf8-bom", "cp949"])],
            d, timeout=180)
    check_outcome_lines(r, problems, ok_codes=(0,), err_codes=(1,))
    note("inputs", f"exit {r.rc}")
    bad = control_bytes(r.out)
    if bad:
        problems.append(f"stdout holds control bytes {bad}: {short(r.out)}")
    if r.rc == 0:
        problems += report_complete(out)
        # The listing stays one line per snapshot.
        s = run(["snapshots", "--db", store], d)
        lines = s.out.decode("utf-8", "replace").rstrip("\n").split("\n")
        if s.rc != 0 or len(lines) != 2:
            problems.append(f"'raon snapshots' shows {len(lines)} lines for one snapshot: {short(s.out)}")
        if control_bytes(s.out):
            problems.append(f"'raon snapshots' prints control bytes {control_bytes(s.out)}")
        integrity(store, problems)
    elif r.rc == 1:
        if os.path.exists(store):
            snaps = snapshots_json(store, d, problems)
            if snaps:
                problems.append(f"failed but {len(snaps)} snapshot(s) recorded")
        if os.path.exists(out):
            problems.append("failed but an output folder exists")
    left = leftovers(d)
    if left:
        problems.append(f"left behind: {left[:4]}")
    return problems


# ---------------------------------------------------------------------------------------
# Family 8: echoing API server
# ---------------------------------------------------------------------------------------

def key_forms(key):
    """Byte strings that would show the key: as is, case variants, escapes, UTF-16."""
    forms = {key, key.upper(), key.lower(), key.swapcase()}
    out = set()
    for k in forms:
        out.add(k.encode())
        out.add("".join(f"%{ord(c):02X}" for c in k).encode())
        out.add("".join(f"%{ord(c):02x}" for c in k).encode())
        out.add("".join(f"&#x{ord(c):x};" for c in k).encode())
        out.add("".join(f"&#x{ord(c):X};" for c in k).encode())
        out.add("".join(f"&#{ord(c)};" for c in k).encode())
        out.add("".join(f"\\u{ord(c):04x}" for c in k).encode())
        out.add("".join(f"\\u{ord(c):04X}" for c in k).encode())
        out.add(k.encode("utf-16-le"))
        out.add(k.encode("utf-16-be"))
        out.add(base64.b64encode(k.encode()))
    return out


def echo_form(key, form):
    if form == "plain":
        return key
    if form == "upper":
        return key.upper()
    if form == "lower":
        return key.lower()
    if form == "swapcase":
        return key.swapcase()
    if form == "combining":
        return key + "\u0301"
    if form == "combining-upper":
        return key.upper() + "\u0301\u0323"
    if form == "zwj-after":
        return key + "\u200d"
    if form == "percent":
        return "".join(f"%{ord(c):02X}" for c in key)
    if form == "percent-lower":
        return "".join(f"%{ord(c):02x}" for c in key)
    if form == "percent-mixed":
        return "".join(f"%{ord(c):02X}" if i % 2 else c for i, c in enumerate(key))
    if form == "html-hex":
        return "".join(f"&#x{ord(c):x};" for c in key)
    if form == "html-dec":
        return "".join(f"&#{ord(c)};" for c in key)
    if form == "json-u":
        return "".join(f"\\u{ord(c):04x}" for c in key)
    if form == "json-u-upper":
        return "".join(f"\\u{ord(c):04X}" for c in key.upper())
    if form == "glued":
        return "ERR" + key + "xyz"
    raise ValueError(form)


ECHO_FORMS = ["plain", "upper", "lower", "swapcase", "combining", "combining-upper", "zwj-after", "percent",
              "percent-lower", "percent-mixed", "html-hex", "html-dec", "json-u", "json-u-upper", "glued"]
ECHO_SHAPES = ["json-result", "json-nested-result", "xml-result", "html-502", "text-500", "http-401",
               "redirect", "header", "truncated-json", "second-page"]


def echoing(key, form, shape):
    """A responder (raon_testkit.loopback_api) that answers in SHAPE, echoing the key in FORM."""
    def respond(api, h, req):
        start, end = req.start, req.end
        echo = echo_form(key, form)
        path_echo = h.path.replace(key, echo)
        if shape == "ok":
            return api.send(h, 200, api.page(start, end))
        if shape == "json-result":
            return api.send(h, 200, json.dumps({"RESULT": {"CODE": "INFO-100", "MESSAGE": f"인증키({echo})가 유효하지 않습니다."}},
                                               ensure_ascii=False).replace("\\\\u", "\\u"))
        if shape == "json-nested-result":
            body = '{"culturalEventInfo": {"list_total_count": 0, "RESULT": {"CODE": "ERROR-500", "MESSAGE": "서버 오류 KEY=' + echo + ' path=' + path_echo + '"}}}'
            return api.send(h, 200, body)
        if shape == "xml-result":
            body = (f'<?xml version="1.0" encoding="UTF-8"?><RESULT><CODE>INFO-100</CODE><MESSAGE><![CDATA[key {echo} '
                    f'is invalid]]> &#x1b;[31m {echo}</MESSAGE></RESULT>')
            return api.send(h, 200, body, "application/xml")
        if shape == "html-502":
            return api.send(h, 200, f"<!DOCTYPE html><html><body><h1>502</h1><p>while requesting {path_echo}</p>"
                                    f"<p>key={echo}</p>\x1b[2J\x07</body></html>", "text/html")
        if shape == "text-500":
            return api.send(h, 500, f"internal error for {echo}\n{path_echo}\n", "text/plain")
        if shape == "http-401":
            return api.send(h, 401, json.dumps({"error": f"key {echo} rejected", "path": path_echo}))
        if shape == "redirect":
            return api.send(h, 302, f"moved {echo}", "text/plain",
                            {"Location": f"http://127.0.0.1:{api.port}/nowhere/{echo}/x"})
        if shape == "header":
            return api.send(h, 503, f"busy: {echo}", "text/plain", {"X-Debug-Key": echo, "Retry-After": "0"})
        if shape == "truncated-json":
            full = api.page(start, end)
            return api.send(h, 200, full[:len(full) // 3] + echo)
        if shape == "second-page":
            if start == 1:
                rows = api.rows[:1000]
                return api.send(h, 200, json.dumps({"culturalEventInfo": {
                    "list_total_count": len(api.rows) + 1000,
                    "RESULT": {"CODE": "INFO-000", "MESSAGE": "정상"}, "row": rows}}, ensure_ascii=False))
            return api.send(h, 200, json.dumps({"RESULT": {"CODE": "ERROR-600", "MESSAGE": f"DB error {echo} {path_echo}"}},
                                               ensure_ascii=False))
        return api.send(h, 500, "?")
    return respond


def family_api(n, rng):
    cases = []
    i = 0
    for fi, form in enumerate(ECHO_FORMS):
        for shape in ECHO_SHAPES:
            # A 5xx answer is retried with back-off (about 6 s a case): fewer forms there.
            if shape in ("text-500", "header") and fi % 3:
                continue
            cmd = "report" if i % 2 else "snapshot"
            i += 1
            cases.append((f"{shape} / {form} / {cmd}", lambda d, f=form, s=shape, c=cmd: case_api(d, f, s, c)))
    for cmd in ("report", "snapshot"):
        cases.append((f"ok / - / {cmd}", lambda d, c=cmd: case_api(d, "plain", "ok", c)))
    return cases


def case_api(d, form, shape, cmd):
    problems = []
    rng = random.Random(hash((form, shape, cmd)) & 0xFFFF)
    key = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(12)) + "Hk7Q" + \
          "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(8))
    case_id = f"c{os.getpid()}x{rng.randrange(1 << 30)}"
    base = Ctx.api.register(case_id, echoing(key, form, shape))
    store = copy_store("small1", d)
    out = os.path.join(d, "out")
    env = base_env({"SEOUL_API_KEY": key})
    if cmd == "report":
        args = ["report", "--api", "--api-base", base, "--db", store, "--out", out, "--taken-at", "2024-09-10",
                "--format", "md,xlsx,csv,json,html"]
    else:
        args = ["snapshot", "--api", "--api-base", base, "--db", store, "--taken-at", "2024-09-10"]
    r = run(args, d, env=env, timeout=120)
    Ctx.api.unregister(case_id)
    check_outcome_lines(r, problems, ok_codes=(0,) if shape == "ok" else (), err_codes=(1,))
    forms = key_forms(key)
    # Anything a leak would have to match, in any letter case (bytes compared lower-cased
    # too: percent escapes and \\u escapes differ only in case).
    def leaked(blob):
        low = blob.lower()
        for f in forms:
            if f in blob or f.lower() in low:
                return f
        return None

    for label, blob in (("stdout", r.out), ("stderr", r.err)):
        f = leaked(blob)
        if f:
            problems.append(f"key leaks in {label} as {short(f, 40)}: {short(blob, 200)}")
    snaps = snapshots_json(store, d, problems)
    if snaps is not None and shape != "ok" and len(snaps) != 1:
        problems.append(f"failed fetch recorded {len(snaps) - 1} snapshot(s)")
    paths = [(root, fn) for top in (d, os.path.join(Ctx.work, "home")) for root, ds, fs in os.walk(top)
             for fn in fs + ds]
    for root, fn in paths:
        p = os.path.join(root, fn)
        f = leaked(fn.encode())
        if f:
            problems.append(f"key leaks in a file name: {p}")
        if os.path.isfile(p):
            with open(p, "rb") as fh:
                blob = fh.read()
            blobs = [(os.path.relpath(p, d), blob)]
            if fn.endswith(".xlsx"):
                try:
                    with zipfile.ZipFile(io.BytesIO(blob)) as z:
                        blobs += [(f"{fn}:{m}", z.read(m)) for m in z.namelist()]
                except zipfile.BadZipFile:
                    pass
            for label, b in blobs:
                f = leaked(b)
                if f:
                    problems.append(f"key leaks in {label} as {short(f, 40)}")
    if shape == "ok" and r.rc == 0 and cmd == "report":
        problems += report_complete(out)
    return problems


# ---------------------------------------------------------------------------------------
# Family 9: diff exit codes
# ---------------------------------------------------------------------------------------

DIFF_CASES = [
    (["1", "2"], 0), (["1", "2", "--fail-if-changed", "--format", "none"], 0),
    (["2", "3"], 0), (["2", "3", "--fail-if-changed", "--format", "none"], 1),
    (["previous", "latest", "--fail-if-changed"], 1), (["latest", "latest", "--fail-if-changed"], 0),
    # A --format without --out is a usage error since `raon diff` writes only where --out says.
    (["1", "3", "--fail-if-changed", "--format", "csv"], 64), (["3", "1", "--fail-if-changed", "--format", "json"], 64),
    (["1", "99"], 2), (["1", "99", "--fail-if-changed"], 2), (["0", "1", "--fail-if-changed"], (2, 64)),
    (["abc", "1", "--fail-if-changed"], (2, 64)), (["-1", "1"], (2, 64)),
    (["1", "9223372036854775807", "--fail-if-changed"], 2), (["1", "99999999999999999999"], (2, 64)),
    (["1", "2", "--db", "MISSING", "--fail-if-changed"], 2), (["1", "2", "--db", "FOREIGN", "--fail-if-changed"], 2),
    (["1", "2", "--out", "AFILE", "--fail-if-changed"], 2),
    ([], 64), (["1"], 64), (["1", "2", "3"], 64), (["1", "2", "--bogus"], 64), (["1", "2", "--format", "docx"], 64),
    (["1", "2", "--lang", "fr"], 64), (["1", "2", "--csv-encoding", "x"], 64), (["1", "2", "--db", ""], 64),
    (["1", "2", "--format", ""], 64), (["1", "2", "--fail-if-changed=yes"], 64), (["--fail-if-changed"], 64),
    (["1", "2", "--out", ""], 64),
]


def family_diff(n, rng):
    return [(" ".join(a) or "(no arguments)", lambda d, a=a, c=c: case_diff(d, a, c)) for a, c in DIFF_CASES]


def case_diff(d, a, code):
    problems = []
    store = copy_store("small3", d)
    open(os.path.join(d, "afile"), "w").write("x")
    open(os.path.join(d, "foreign"), "w").write("not a store\n")
    args = ["diff"] + [{"MISSING": os.path.join(d, "no", "x.sqlite"), "FOREIGN": os.path.join(d, "foreign"),
                        "AFILE": os.path.join(d, "afile")}.get(x, x) for x in a]
    if "--db" not in a:
        args += ["--db", store]
    if "--out" not in a and "--format" not in a:
        args += ["--out", os.path.join(d, "diffout")]
    r = run(args, d)
    codes = code if isinstance(code, tuple) else (code,)
    check_no_crash(r, problems)
    if r.rc not in codes:
        problems.append(f"exit {r.rc} (expected {' or '.join(map(str, codes))}): "
                        f"{short(r.err) if r.err.strip() else 'accepted, nothing on stderr'}")
    if r.rc not in (0, 1) or (r.rc == 1 and "--fail-if-changed" not in a):
        check_one_line_error(r, problems)
    if r.rc in (0, 1) and r.err.strip():
        problems.append(f"stderr on success: {short(r.err)}")
    return problems


# ---------------------------------------------------------------------------------------
# Family 10: misc (own)
# ---------------------------------------------------------------------------------------

def family_misc(n, rng):
    c = [
        ("--out is a symlink: written through, link kept", case_out_symlink),
        ("--week 9999-W52 accepted", lambda d: case_simple(d, ["report", "--db", "STORE", "--week", "9999-W52",
                                                                 "--out", "OUT", "--format", "json"], (0,))),
        ("--week 0001-W01 (before the snapshot) refused", lambda d: case_simple(d, ["report", "--db", "STORE", "--week", "0001-W01",
                                                                                     "--out", "OUT"], (1, 64))),
        ("cp949 CSV labels have no '?'", case_cp949),
        ("file name with newline: snapshots table one line each", case_newline_name),
        ("snapshots show with newline source: no raw control", case_newline_show),
        ("trend --weeks -1", lambda d: case_simple(d, ["trend", "--db", "STORE", "--weeks", "-1", "--out", "OUT"], (64,))),
        ("trend --weeks 9223372036854775807", lambda d: case_simple(d, ["trend", "--db", "STORE", "--weeks",
                                                                        "9223372036854775807", "--out", "OUT"], (64, 0))),
        ("trend --from 2024-W99", lambda d: case_simple(d, ["trend", "--db", "STORE", "--from", "2024-W99", "--out", "OUT"], (64,))),
        ("trend --from after --to", lambda d: case_simple(d, ["trend", "--db", "STORE", "--from", "2024-W40", "--to",
                                                              "2024-W30", "--out", "OUT"], (64, 1))),
        ("trend --db ''", lambda d: case_simple(d, ["trend", "--db", "", "--out", "OUT"], (64,))),
        ("RAON_DB= (empty) refused", lambda d: case_simple(d, ["snapshots"], (64, 1), env={"RAON_DB": ""})),
        ("RAON_DB= report refused, nothing written to HOME", lambda d: case_simple(
            d, ["report", "--input", Ctx.inputs["S0"], "--out", "OUT"], (64, 1), env={"RAON_DB": ""})),
        ("snapshots delete 99 --yes", lambda d: case_simple(d, ["snapshots", "delete", "99", "--yes", "--db", "STORE"], (1, 64))),
        ("snapshots delete abc", lambda d: case_simple(d, ["snapshots", "delete", "abc", "--db", "STORE"], (64,))),
        ("snapshots show 9223372036854775807", lambda d: case_simple(d, ["snapshots", "show", "9223372036854775807",
                                                                         "--db", "STORE"], (1, 64))),
        ("snapshot --taken-at count mismatch", lambda d: case_simple(d, ["snapshot", Ctx.inputs["S1"], Ctx.inputs["S2"],
                                                                         "--taken-at", "2024-09-10", "--db", "STORE"], (64, 1))),
        ("snapshot --taken-at-from-name without a date", lambda d: case_simple(d, ["snapshot", Ctx.inputs["S1"],
                                                                                   "--taken-at-from-name", "--db", "STORE"], (64, 1))),
        ("snapshot the same file twice in one command", lambda d: case_simple(d, ["snapshot", Ctx.inputs["S1"], Ctx.inputs["S1"],
                                                                                  "--taken-at", "2024-09-10", "--taken-at", "2024-09-11",
                                                                                  "--db", "STORE"], (0, 1))),
        ("snapshot a FIFO input", case_fifo_input),
        ("snapshot a folder input", lambda d: case_simple(d, ["snapshot", d, "--db", "STORE", "--taken-at", "2024-09-10"], (1,))),
        ("snapshot /dev/null input", lambda d: case_simple(d, ["snapshot", "/dev/null", "--db", "STORE", "--taken-at", "2024-09-10"], (1,))),
        ("report --district 없는구 --input: nothing recorded", lambda d: case_simple(
            d, ["report", "--input", Ctx.inputs["S1"], "--district", "없는구", "--db", "STORE", "--out", "OUT"], (64, 1))),
        ("orphaned .out.raon-old-PID, next run fails early: not lost", lambda d: case_orphan(d, False)),
        ("orphaned .out.raon-old-PID, next run succeeds: nothing left", lambda d: case_orphan(d, True)),
        ("stale .out.raon-partial-PID removed", case_stale_partial),
        ("report --out inside the store's file path", lambda d: case_simple(
            d, ["report", "--db", "STORE", "--out", "STORE/x"], (1, 64))),
        ("--config pointing at a folder", lambda d: case_simple(d, ["report", "--config", d, "--db", "STORE", "--out", "OUT"], (78, 1, 64))),
        ("--config /dev/null (empty config) works", lambda d: case_simple(d, ["report", "--config", "/dev/null", "--db", "STORE",
                                                                             "--out", "OUT", "--format", "json"], (0,))),
        ("trend --format '' refused as empty", lambda d: case_simple(d, ["trend", "--db", "STORE", "--format", "", "--out", "OUT"], (64,),
                                                                     must_say="format")),
    ]
    return c


def case_simple(d, args, codes, env=None, must_say=None):
    problems = []
    store = copy_store("small3", d)
    sub = {"STORE": store, "OUT": os.path.join(d, "OUT")}
    args = [sub.get(a, a.replace("STORE", store)) for a in args]
    before = tree_state(d)
    e = base_env(env)
    r = run(args, d, env=e, timeout=60)
    check_no_crash(r, problems)
    if r.rc not in codes:
        problems.append(f"exit {r.rc} (expected {' or '.join(map(str, codes))}): "
                        f"{short(r.err) if r.err.strip() else 'accepted, nothing on stderr'}")
    if must_say and r.rc != 0 and must_say.encode() not in r.err:
        problems.append(f"the error does not mention '{must_say}': {short(r.err)}")
    if r.rc != 0:
        check_one_line_error(r, problems)
        count, _ = store_state(store, d, problems)
        if count is not None and count != 3:
            problems.append(f"failed, but the store holds {count} snapshots (was 3)")
        created = [k for k in set(tree_state(d)) - set(before) if not k.startswith("store.sqlite")]
        if created:
            problems.append(f"failed, but created {sorted(created)[:4]}")
    left = leftovers(d)
    if left:
        problems.append(f"left behind: {left[:4]}")
    return problems


def case_out_symlink(d):
    problems = []
    store = copy_store("small3", d)
    real = os.path.join(d, "real-reports")
    os.makedirs(real)
    link = os.path.join(d, "latest")
    os.symlink("real-reports", link)
    r = run(["report", "--db", store, "--out", link, "--format", "md,json"], d)
    check_outcome_lines(r, problems)
    if not os.path.islink(link):
        problems.append("--out symlink was replaced")
    elif not os.path.exists(os.path.join(real, "report.json")):
        problems.append(f"report not written through the link: {os.listdir(real)}")
    return problems


def case_cp949(d):
    problems = []
    store = copy_store("small3", d)
    out = os.path.join(d, "out")
    r = run(["report", "--db", store, "--out", out, "--format", "csv", "--csv-encoding", "cp949"], d)
    check_outcome_lines(r, problems)
    for root, _, files in os.walk(out):
        for f in files:
            if f.endswith(".csv"):
                txt = open(os.path.join(root, f), "rb").read().decode("cp949", "replace")
                # A '?' that is not in the source data: labels only (the header and first column).
                for line in txt.splitlines()[:1]:
                    if "?" in line:
                        problems.append(f"{f}: '?' in the header: {line[:80]}")
    return problems


def newline_store(d):
    store = copy_store("small1", d)
    name = os.path.join(d, "week\n37\u001b[31m.csv")
    shutil.copyfile(Ctx.inputs["S2"], name)
    r = run(["snapshot", name, "--db", store, "--taken-at", "2024-09-10"], d)
    return store, r


def case_newline_name(d):
    problems = []
    store, r = newline_store(d)
    check_outcome_lines(r, problems)
    if control_bytes(r.out + r.err):
        problems.append(f"control bytes printed: {short(r.out + r.err)}")
    s = run(["snapshots", "--db", store], d)
    lines = s.out.rstrip(b"\n").split(b"\n")
    if len(lines) != 3 or control_bytes(s.out):
        problems.append(f"'raon snapshots' has {len(lines)} lines for 2 snapshots: {short(s.out)}")
    return problems


def case_newline_show(d):
    problems = []
    store, r = newline_store(d)
    s = run(["snapshots", "show", "2", "--db", store], d)
    check_outcome_lines(s, problems)
    if control_bytes(s.out):
        problems.append(f"'snapshots show' prints control bytes {control_bytes(s.out)}")
    return problems


def case_fifo_input(d):
    problems = []
    store = copy_store("small1", d)
    fifo = os.path.join(d, "catalog.csv")
    os.mkfifo(fifo)
    r = run(["snapshot", fifo, "--db", store, "--taken-at", "2024-09-10"], d, timeout=30)
    check_outcome_lines(r, problems, ok_codes=(), err_codes=(1,))
    if r.rc == 1 and b"fifo" not in r.err.lower() and b"pipe" not in r.err.lower():
        problems.append(f"a FIFO is not named as such: {short(r.err)}")
    return problems


def case_orphan(d, succeed):
    problems = []
    store = copy_store("full1", d)
    old_dir = os.path.join(d, ".out.raon-old-999999")
    old = copy_report(old_dir)
    out = os.path.join(d, "out")
    if succeed:
        r = run(["report", "--db", store, "--out", out, "--format", "md,xlsx,csv,json,html"], d)
        check_outcome_lines(r, problems)
        problems += report_complete(out, Ctx.report_files)
        if leftovers(d):
            problems.append(f"left behind: {leftovers(d)}")
        return problems
    r = run(["report", "--db", store, "--out", out, "--snapshot", "99", "--format", "md"], d)
    # A failing run must not lose the orphan: it is restored as out, or left in place.
    if os.path.isdir(out) and manifest(out) == old:
        return problems
    if os.path.isdir(old_dir) and manifest(old_dir) == old:
        return problems
    problems.append(f"orphaned earlier report lost (exit {r.rc}: {short(r.err)}); now: {os.listdir(d)}")
    return problems


def case_stale_partial(d):
    problems = []
    store = copy_store("small3", d)
    stale = os.path.join(d, ".out.raon-partial-999999")
    os.makedirs(stale)
    open(os.path.join(stale, "junk"), "w").write("x")
    r = run(["report", "--db", store, "--out", os.path.join(d, "out"), "--format", "md"], d)
    check_outcome_lines(r, problems)
    if os.path.exists(stale):
        problems.append("stale .out.raon-partial-999999 not removed")
    return problems


# ---------------------------------------------------------------------------------------
# Family round3_store: issue 27 items 2, 3, 15, 16, 17 (PostgreSQL connection dropped
# mid-operation, ?password= in URLs, two copies racing, latest by time, read-only commands
# beside a WAL store)
# ---------------------------------------------------------------------------------------

R3S_SECRET = "S3cretPw-r3s"


class R3SPostgres:
    """A private PostgreSQL server on 127.0.0.1 (as the Swift tests' PostgresTestServer):
    initdb + pg_ctl from /usr/lib/postgresql/*/bin, as `nobody` when root."""
    server = None
    failed = None

    def __init__(self):
        roots = sorted((p for p in os.listdir("/usr/lib/postgresql") if p.isdigit()), key=int, reverse=True) \
            if os.path.isdir("/usr/lib/postgresql") else []
        bins = [f"/usr/lib/postgresql/{v}/bin" for v in roots if os.path.exists(f"/usr/lib/postgresql/{v}/bin/initdb")]
        if not bins:
            raise Skip("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb)")
        self.bin = bins[0]
        self.folder = tempfile.mkdtemp(prefix="raon-hostile-pg-")
        os.chmod(self.folder, 0o755)
        self.data = os.path.join(self.folder, "data")
        pw = os.path.join(self.folder, "pw")
        open(pw, "w").write(R3S_SECRET)
        if os.getuid() == 0:
            subprocess.run(["chown", "-R", "nobody:nogroup", self.folder], check=True)
        r = self.as_server([f"{self.bin}/initdb", "-D", self.data, "-U", "postgres", "--pwfile", pw,
                            "--auth=scram-sha-256", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        if r.returncode != 0:
            raise Skip(f"initdb failed: {short(r.stdout + r.stderr)}")
        import socket
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.start()

    def as_server(self, argv):
        if os.getuid() == 0:
            argv = ["runuser", "-u", "nobody", "--"] + argv
        return subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=120)

    def start(self):
        opts = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off -c max_connections=40"
        r = self.as_server([f"{self.bin}/pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "log"),
                            "-o", opts, "-w", "-t", "60", "start"])
        if r.returncode != 0:
            raise Skip(f"the PostgreSQL server did not start: {short(r.stdout + r.stderr)}")

    def stop_immediately(self):
        self.as_server([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"])

    def psql(self, sql):
        env = dict(os.environ, PGPASSWORD=R3S_SECRET)
        r = subprocess.run([f"{self.bin}/psql", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres",
                            "-d", "postgres", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                           capture_output=True, env=env, timeout=60)
        if r.returncode != 0:
            raise RuntimeError(f"psql: {short(r.stderr)}")
        return r.stdout.decode().strip()

    def url(self, schema, user="postgres"):
        return f"postgresql://{user}@127.0.0.1:{self.port}/postgres?schema={schema}"

    @classmethod
    def shared(cls):
        if cls.failed:
            raise Skip(cls.failed)
        if cls.server is None:
            try:
                cls.server = R3SPostgres()
                import atexit
                atexit.register(cls.stop_shared)
            except Skip as e:
                cls.failed = str(e)
                raise
        return cls.server

    @classmethod
    def stop_shared(cls):
        if cls.server is not None:
            cls.server.stop_immediately()
            shutil.rmtree(cls.server.folder, ignore_errors=True)
            cls.server = None


def r3s_big_csv():
    """The sample repeated 6 times with new cultcodes (~30,000 programs), made once."""
    path = os.path.join(Ctx.work, "inputs", "r3s-big.csv")
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(REPO, "Tests", "RaonCLITests", "Scripts", "grow_catalog.py"),
                        SAMPLE, path, "6"], check=True)
    return path


def family_round3_store(n, rng):
    c = []
    # Item 3: ?password= in every way a URL reaches raon; the server is on port 1 (refused)
    # or, for the ones that must work, the private server.
    for where in ("--db", "RAON_DB", "raon.toml"):
        for form in ("?password={pw}", "?user=raon&password={pw}", "?schema=x&password={pw}&sslmode=disable",
                     "?passwd={pw}", "?Password={pw}&x=1"):
            for cmd in ("snapshots", "snapshot", "report", "store copy"):
                c.append((f"password in URL {form.split('{')[0]}… via {where}, {cmd}: never printed",
                          lambda d, w=where, f=form, k=cmd: r3s_password_refused(d, w, f, k)))
    c.append(("?password= to a real server: accepted as the password", r3s_password_works))
    # Item 16: latest by time.
    c.append(("latest after a backfill: the newest by taken_at (SQLite)", r3s_latest_sqlite))
    c.append(("latest after a backfill: the newest by taken_at (PostgreSQL)", r3s_latest_postgres))
    # Item 17: read-only commands beside a WAL store.
    for args in (["snapshots"], ["snapshots", "--json"], ["snapshots", "show", "2"], ["diff", "1", "2", "--format", "none"],
                 ["diff", "previous", "latest", "--format", "none"], ["snapshots", "delete", "1"], ["trend", "--format", "none"]):
        c.append((f"{' '.join(args)} beside a WAL store: no -wal/-shm left", lambda d, a=args: r3s_no_log_files(d, a)))
    # Item 15: two copies into one empty target.
    for i in range(4):
        c.append((f"two store copies into one empty SQLite store #{i}: the loser says another copy won",
                  lambda d, i=i: r3s_two_copies(d, i)))
    c.append(("two store copies into one empty PostgreSQL store (lock held): the loser says another copy won",
              r3s_two_copies_postgres))
    # Item 2: the connection dropped mid-operation.
    for op in ("snapshot", "report", "report-districts", "copy"):
        for how in ("terminate", "terminate-late"):
            c.append((f"PostgreSQL backend ended mid-{op} ({how}): one line, exit 1, store whole",
                      lambda d, op=op, how=how: r3s_dropped(d, op, how)))
    c.append(("PostgreSQL stopped (pg_ctl stop -m immediate) mid-snapshot: one line, exit 1, store whole",
              lambda d: r3s_dropped(d, "snapshot", "stop")))
    c.append(("PostgreSQL stopped (pg_ctl stop -m immediate) mid-report: one line, exit 1",
              lambda d: r3s_dropped(d, "report", "stop")))
    return c


def r3s_password_refused(d, where, form, cmd):
    problems = []
    url = "postgresql://raon@127.0.0.1:1/culture" + form.format(pw=R3S_SECRET)
    env = {}
    args = {"snapshots": ["snapshots"], "snapshot": ["snapshot", Ctx.inputs["S0"], "--taken-at", "2024-09-02"],
            "report": ["report", "--out", os.path.join(d, "out"), "--format", "json"],
            "store copy": ["store", "copy", "URL", os.path.join(d, "copy.sqlite")]}[cmd]
    conf = os.path.join(Ctx.work, "neutral-conf-" + os.path.basename(d))
    if cmd == "store copy":
        args = [url if a == "URL" else a for a in args]
    elif where == "--db":
        args += ["--db", url]
    elif where == "RAON_DB":
        env["RAON_DB"] = url
    else:
        os.makedirs(conf, exist_ok=True)
        open(os.path.join(conf, "raon.toml"), "w").write(f'db = "{url}"\n')
        args += ["--config", os.path.join(conf, "raon.toml")]
    r = run(args, d, env=base_env(env), timeout=60)
    shutil.rmtree(conf, ignore_errors=True)
    # 64: a parameter libpq does not know (?passwd=) is a malformed --db/RAON_DB URL.
    check_outcome_lines(r, problems, ok_codes=(), err_codes=(1, 64, 78))
    for blob, what in ((r.out, "stdout"), (r.err, "stderr")):
        if R3S_SECRET.encode() in blob:
            problems.append(f"the password is on {what}: {short(blob)}")
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            if not os.path.islink(p) and R3S_SECRET.encode() in open(p, "rb").read():
                problems.append(f"the password is in {os.path.relpath(p, d)}")
    return problems


def r3s_password_works(d):
    problems = []
    pg = R3SPostgres.shared()
    url = pg.url("pw_" + os.path.basename(d).replace("-", "_")) + f"&password={R3S_SECRET}"
    for args in (["snapshot", Ctx.inputs["S0"], "--taken-at", "2024-09-02", "--db", url], ["snapshots", "--db", url],
                 ["store", "copy", url, os.path.join(d, "c.sqlite")]):
        r = run(args, d, timeout=120)
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
        if R3S_SECRET.encode() in r.out + r.err:
            problems.append(f"the password is printed by {args[0]}")
    return problems


def r3s_latest(d, db, env=None):
    problems = []
    e = base_env(env)
    for f, t in ((Ctx.inputs["S0"], "2025-08-18"), (Ctx.inputs["S1"], "2025-08-10")):
        r = run(["snapshot", f, "--db", db, "--taken-at", t], d, env=e)
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
    r = run(["report", "--db", db, "--out", os.path.join(d, "out"), "--format", "json"], d, env=e)
    check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
    try:
        j = json.load(open(os.path.join(d, "out", "report.json")))
        if j["snapshot"]["id"] != 1 or (j.get("compareTo") or {}).get("id") != 2:
            problems.append(f"report is about snapshot {j['snapshot']['id']} compared to {j.get('compareTo')}, "
                            "expected 1 (taken 2025-08-18) against 2 (2025-08-10)")
    except (OSError, ValueError, KeyError) as ex:
        problems.append(f"no report.json: {ex!r}")
    r = run(["diff", "previous", "latest", "--db", db, "--format", "none"], d, env=e)
    check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
    if b"snapshot 2 \xe2\x86\x92 1" not in r.out:
        problems.append(f"'diff previous latest' compared {short(r.out)}, expected snapshot 2 → 1")
    return problems


def r3s_latest_sqlite(d):
    return r3s_latest(d, os.path.join(d, "store.sqlite"))


def r3s_latest_postgres(d):
    pg = R3SPostgres.shared()
    return r3s_latest(d, pg.url("lt_" + os.path.basename(d).replace("-", "_")), {"PGPASSWORD": R3S_SECRET})


def r3s_no_log_files(d, args):
    problems = []
    store = copy_store("small3", d)  # WAL mode, its log folded and removed when it was made
    before = sorted(os.listdir(d))
    data = open(store, "rb").read()
    r = run(args + ["--db", store], d)
    check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
    after = sorted(os.listdir(d))
    if after != before:
        problems.append(f"files appeared: {sorted(set(after) - set(before))}")
    if open(store, "rb").read() != data:
        problems.append("the store's bytes changed")
    return problems


def r3s_copy_outcomes(results, problems, target_ok):
    won = [r for r in results if r.rc == 0]
    lost = [r for r in results if r.rc != 0]
    for r in results:
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=(1,))
    if len(won) != 1:
        problems.append(f"{len(won)} of 2 copies succeeded: {[short(r.err) for r in lost]}")
    for r in lost:
        if b"differs" in r.err:
            problems.append(f"the loser says the copy differs: {short(r.err)}")
        elif b"another copy" in r.err:
            note("round3_store", "copy race: the loser said another copy won")
        elif b"already holds" in r.err:
            note("round3_store", "copy race: the loser found the target already full")
        elif b"stayed locked" in r.err:
            # The winner held the store longer than the busy timeout (a loaded machine).
            note("round3_store", "copy race: the loser gave up waiting (busy)")
        else:
            problems.append(f"the loser says: {short(r.err)}")
    if not target_ok():
        problems.append("the target does not hold the source's snapshots")


def r3s_two_copies(d, i):
    problems = []
    src = copy_store("full2" if i % 2 else "small3", d)
    target = os.path.join(d, "target.sqlite")
    procs = []
    for k in range(2):
        procs.append(subprocess.Popen([Ctx.raon, "store", "copy", src, target], cwd=d, env=base_env(),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL))
        time.sleep(0.15 * i)
    results = []
    for p in procs:
        try:
            o, e = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            o, e = p.communicate()
            problems.append("a copy hung")
        results.append(Result(["store", "copy"], p.returncode, o, e, 0))
    r3s_copy_outcomes(results, problems, lambda: snapshots_json(target, d) == snapshots_json(src, d))
    return problems


def r3s_two_copies_postgres(d):
    problems = []
    pg = R3SPostgres.shared()
    src = copy_store("full2", d)
    schema = "cp_" + os.path.basename(d).replace("-", "_")
    url = pg.url(schema)
    env = base_env({"PGPASSWORD": R3S_SECRET})
    run(["snapshots", "delete", "1", "--yes", "--db", url], d, env=env)  # makes the empty store
    holder = subprocess.Popen([f"{pg.bin}/psql", "-h", "127.0.0.1", "-p", str(pg.port), "-U", "postgres", "-d",
                               "postgres", "-c", f"SELECT pg_advisory_lock({0x52414F4E}, hashtext('{schema}')); "
                               "SELECT pg_sleep(3)"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    procs = [subprocess.Popen([Ctx.raon, "store", "copy", src, url], cwd=d, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, stdin=subprocess.DEVNULL) for _ in range(2)]
    holder.wait()
    results = []
    for p in procs:
        try:
            o, e = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            o, e = p.communicate()
            problems.append("a copy hung")
        results.append(Result(["store", "copy"], p.returncode, o, e, 0))

    def same():
        r = run(["snapshots", "--json", "--db", url], d, env=env)
        return r.rc == 0 and json.loads(r.out) == snapshots_json(src, d)
    r3s_copy_outcomes(results, problems, same)
    return problems


def r3s_dropped(d, op, how):
    """Ends raon's connection in mid-operation; raon must end in one line, exit 1, within
    30 s, and the store must hold whole snapshots only."""
    problems = []
    pg = R3SPostgres.shared()
    name = os.path.basename(d).replace("-", "_")
    role, schema, secret = "ro_" + name, "dr_" + name, "role-" + name
    pg.psql(f"CREATE ROLE {role} LOGIN SUPERUSER PASSWORD '{secret}'")
    url = pg.url(schema, user=role)
    env = base_env({"PGPASSWORD": secret, "RAON_DB": url})
    big = r3s_big_csv()
    r = run(["snapshot", SAMPLE, "--taken-at", "2024-09-02"], d, env=env)
    check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
    if op != "snapshot":
        r = run(["snapshot", big, "--taken-at", "2024-09-09"], d, env=env, timeout=300)
        check_outcome_lines(r, problems, ok_codes=(0,), err_codes=())
    expected = pg.psql(f"SELECT string_agg(id || ':' || program_count, ',' ORDER BY id) FROM {schema}.snapshot")
    args = {"snapshot": ["snapshot", big, "--taken-at", "2024-09-16"],
            "report": ["report", "--out", os.path.join(d, "out"), "--format", "md,csv,json,xlsx"],
            "report-districts": ["report", "--out", os.path.join(d, "out"), "--districts", "all", "--format", "md,csv,json"],
            "copy": ["store", "copy", url, os.path.join(d, "copy.sqlite")]}[op]
    p = subprocess.Popen([Ctx.raon] + args, cwd=d, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    if op == "snapshot":
        probe = ("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
                 f"WHERE l.locktype = 'advisory' AND l.granted AND a.usename = '{role}'")
    else:
        probe = f"SELECT count(*) FROM pg_stat_activity WHERE usename = '{role}' AND query LIKE 'FETCH%'"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and p.poll() is None and pg.psql(probe) == "0":
        time.sleep(0.01)
    if how == "terminate-late" or (how == "stop" and op == "snapshot"):
        time.sleep(1.0)
    if p.poll() is not None:
        note("round3_store", f"mid-{op}: raon finished before the connection was ended")
        p.communicate()
        return problems
    if how == "stop":
        pg.stop_immediately()
    else:
        pg.psql(f"SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '{role}'")
    killed = time.monotonic()
    try:
        o, e = p.communicate(timeout=30)
        r = Result(args, p.returncode, o, e, time.monotonic() - killed)
        note("round3_store", f"mid-{op} ({how}): ended {r.elapsed:.1f} s after the drop")
    except subprocess.TimeoutExpired:
        p.kill()
        o, e = p.communicate()
        r = Result(args, "timeout", o, e, 30)
        problems.append(f"raon still ran 30 s after its connection was dropped ({how})")
    if how == "stop":
        pg.start()
    if r.rc != "timeout":
        check_outcome_lines(r, problems, ok_codes=(), err_codes=(1,))
        if secret.encode() in r.out + r.err:
            problems.append("the password is printed")
    now = pg.psql(f"SELECT string_agg(id || ':' || program_count, ',' ORDER BY id) FROM {schema}.snapshot")
    if now != expected:
        problems.append(f"the store holds {now}, expected {expected}")
    whole = pg.psql(
        f"SELECT count(*) FROM {schema}.snapshot s WHERE s.program_count <> (SELECT coalesce(sum(p.copies), 0) "
        f"FROM {schema}.presence p WHERE p.first_snapshot_id <= s.id AND p.last_snapshot_id >= s.id)")
    if whole != "0":
        problems.append(f"{whole} snapshots are not whole")
    if op.startswith("report") and os.path.exists(os.path.join(d, "out")):
        problems.append("a report was published")
    left = leftovers(d)
    if left:
        problems.append(f"left behind: {left[:4]}")
    return problems


# Family: round3_output (issue 27 items 4-11 and 18; issue 24 item 14)
# ---------------------------------------------------------------------------------------

def write_fake_chromium(d, mode, record=""):
    os.makedirs(d, exist_ok=True)
    return fake_chromium.write(os.path.join(d, "fake-chromium"), mode, record)


def real_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    raise Skip("no Chromium on PATH")


def read_record(path, wait=20):
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if os.path.exists(path):
            return dict(l.split(":", 1) for l in open(path).read().split("\n") if ":" in l)
        time.sleep(0.05)
    return {}


def pid_running(pid):
    try:
        return "State:\tZ" not in open(f"/proc/{pid}/status").read()
    except OSError:
        return False


def mask_holds_stop_signals(mask):
    bits = int(mask.strip(), 16)
    return any(bits & (1 << (s - 1)) for s in (signal.SIGHUP, signal.SIGINT, signal.SIGTERM))


def r3_catalog(path, rows):
    """A small UTF-8 catalog: (category, title, url) rows, all starting in 2024-W37."""
    header = ["분류", "자치구", "공연/행사명", "장소", "기관명", "이용요금", "유무료", "시작일", "종료일", "문화포털상세URL"]
    body = [[c, "마포구", t, "미술관", "기관", "10,000원", "유료", "2024-09-10", f"2024-09-{20 + i % 9}", u]
            for i, (c, t, u) in enumerate(rows)]
    return write_csv(path, header, body, encoding="utf-8", newline="\r\n")


def r3_tmp_left(tmp):
    return [x for x in os.listdir(tmp) if x.startswith("raon-")]


def case_r3_nested(d, placement, folder):
    problems = []
    store = copy_store("small1", d)
    out = os.path.join(d, "W")
    args = ["report", "--db", store, "--district", "강남구", "--format", "md,csv", "--out", out]
    r = run(args, d)
    check_outcome_lines(r, problems)
    if r.rc != 0:
        return problems
    target = os.path.join(out, placement)
    if placement == "report.md":
        os.remove(target)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if folder:
        os.makedirs(target, exist_ok=True)
        open(os.path.join(target, "keep.txt"), "w").write("mine")
    else:
        open(target, "w").write("mine")
    before = tree_state(out)
    r = run(args, d)
    check_no_crash(r, problems)
    if r.rc != 1:
        problems.append(f"exit {r.rc} with a user's {placement} inside the report (expected 1): {short(r.err)}")
    else:
        check_one_line_error(r, problems)
        if placement.split("/")[0].encode() not in r.err:
            problems.append(f"the error does not name {placement}: {short(r.err)}")
    if tree_state(out) != before:
        problems.append(f"the report folder changed (the user's {placement} {'kept' if os.path.exists(target) else 'deleted'})")
    if leftovers(d):
        problems.append(f"left behind: {leftovers(d)}")
    return problems


def case_r3_fake(d, mode):
    problems = []
    store = copy_store("small1", d)
    tmp = os.path.join(d, "tmp")
    os.makedirs(tmp)
    out = os.path.join(d, "out")
    good = write_fake_chromium(os.path.join(d, "good"), "good")
    r = run(["report", "--db", store, "--format", "pdf", "--out", out], d,
            env=base_env({"RAON_CHROMIUM": good, "TMPDIR": tmp}), timeout=60)
    check_outcome_lines(r, problems)
    if r.rc != 0 or not os.path.exists(os.path.join(out, "report.pdf")):
        return problems + ["the first report (a good Chromium) was not written"]
    earlier = manifest(out)
    record = os.path.join(d, "record")
    fake = write_fake_chromium(d, mode, record)
    r = run(["report", "--db", store, "--format", "pdf", "--out", out], d,
            env=base_env({"RAON_CHROMIUM": fake, "TMPDIR": tmp}), timeout=60)
    check_no_crash(r, problems)
    facts = read_record(record, wait=2)
    if mode == "truncate":
        if r.rc != 1:
            problems.append(f"a truncated PDF: exit {r.rc} (expected 1)")
        else:
            check_one_line_error(r, problems)
        if manifest(out) != earlier:
            problems.append("the earlier report changed")
    elif mode == "linger":
        check_outcome_lines(r, problems)
        if r.rc == "timeout" or r.elapsed > 30:
            problems.append(f"a Chromium leaving a process on its pipes held raon up {r.elapsed:.0f} s")
        pdf = os.path.join(out, "report.pdf")
        if r.rc == 0 and (not os.path.exists(pdf) or os.path.getsize(pdf) < 20000):
            problems.append("the good PDF was not published")
    elif mode == "good":
        check_outcome_lines(r, problems)
        for key in ("SigBlk", "SigIgn"):
            if key not in facts or mask_holds_stop_signals(facts[key]):
                problems.append(f"Chromium started with {key} {facts.get(key)} (HUP/INT/TERM)")
        if facts.get("pgid") != facts.get("pid"):
            problems.append(f"Chromium not in a process group of its own: {facts}")
    child = facts.get("child")
    if child:
        time.sleep(0.3)
        if pid_running(int(child)):
            os.kill(int(child), signal.SIGKILL)
            problems.append("a process Chromium started outlived it")
    if r3_tmp_left(tmp):
        problems.append(f"left in TMPDIR: {r3_tmp_left(tmp)}")
    if leftovers(d):
        problems.append(f"left behind: {leftovers(d)}")
    return problems


def case_r3_chromium_path(d, kind):
    problems = []
    store = os.path.join(d, "store.sqlite")
    configured = {"folder": d, "tmp": "/tmp", "devnull": "/dev/null", "root": "/"}[kind]
    r = run(["report", "--db", store, "--input", Ctx.inputs["S0"], "--taken-at", "2024-09-09", "--format", "pdf",
             "--out", os.path.join(d, "out")], d, env=base_env({"RAON_CHROMIUM": configured}))
    check_no_crash(r, problems)
    if r.rc != 1:
        problems.append(f"RAON_CHROMIUM={configured}: exit {r.rc} (expected 1)")
    else:
        check_one_line_error(r, problems)
    if os.path.exists(store):
        count, _ = store_state(store, d, problems)
        if count:
            problems.append(f"RAON_CHROMIUM={configured}: {count} snapshot recorded before the check failed")
    if os.path.exists(os.path.join(d, "out")):
        problems.append("an output folder was written")
    return problems


def case_r3_interrupt(d, sig, delay):
    problems = []
    real_chromium()
    store = copy_store("full1", d)
    tmp = os.path.join(d, "tmp")
    os.makedirs(tmp)
    out = os.path.join(d, "out")
    p = subprocess.Popen([Ctx.raon, "report", "--db", store, "--districts", "all", "--format", "pdf", "--out", out],
                         cwd=d, env=base_env({"TMPDIR": tmp}), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and p.poll() is None and not r3_tmp_left(tmp):
        time.sleep(0.05)
    time.sleep(delay)
    finished_first = p.poll() is not None
    if not finished_first:
        p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        problems.append("raon did not stop after the signal")
    expected = 128 + sig
    if finished_first:
        note("round3_output", "finished before the signal")
    elif p.returncode != expected:
        problems.append(f"exit {p.returncode} after {signal.Signals(sig).name} (expected {expected}): {short(err)}")
    time.sleep(0.5)
    if r3_tmp_left(tmp):
        problems.append(f"left in TMPDIR: {r3_tmp_left(tmp)}")
    survivors = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if tmp.encode() in open(f"/proc/{pid}/cmdline", "rb").read() and pid_running(int(pid)):
                survivors.append(int(pid))
        except OSError:
            pass
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    if survivors:
        problems.append(f"{len(survivors)} Chromium processes outlived raon")
    if not finished_first and os.path.exists(out):
        problems.append("a report was published after the signal")
    if leftovers(d):
        problems.append(f"left behind: {leftovers(d)}")
    return problems


def case_r3_links(d):
    problems = []
    foreign = ["https://example.com/x?cultcode=1", "http://127.0.0.1:9/img.png?cultcode=1",
               "https://culture.seoul.go.kr.example.com/v?cultcode=3", "https://culture.seoul.go.kr@example.com/x",
               "https://culture.seoul.go.kr:8443/x", "javascript:alert(1)//culture.seoul.go.kr/"]
    portal = ["https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode=900001&menuNo=200008"]
    rows = [("전시/미술", f"행사 {i + 1}", u) for i, u in enumerate(foreign + portal)]
    inp = r3_catalog(os.path.join(d, "links.csv"), rows)
    out = os.path.join(d, "out")
    r = run(["report", "--db", os.path.join(d, "store.sqlite"), "--input", inp, "--taken-at", "2024-09-09",
             "--format", "md,html,xlsx", "--out", out], d)
    check_outcome_lines(r, problems)
    if r.rc != 0:
        return problems
    portal_re = re.compile(r"https?://(www\.)?culture\.seoul\.go\.kr/", re.I)
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", md) if not t.startswith("charts/")]
    targets += [h.replace("&amp;", "&") for h in re.findall(r'href="([^"]*)"', html) if not h.startswith("#")]
    bad = [t for t in targets if not portal_re.match(t)]
    if bad:
        problems.append(f"links to other hosts: {bad[:3]}")
    if not any(portal[0] in t for t in targets):
        problems.append("the portal's page is not linked")
    with zipfile.ZipFile(os.path.join(out, "report.xlsx")) as z:
        for name in z.namelist():
            text = z.read(name).decode("utf-8", "replace")
            for url in re.findall(r"HYPERLINK\(&quot;([^&]*)&quot;", text) + re.findall(r'Target="(http[^"]*)"', text):
                if not portal_re.match(url):
                    problems.append(f"workbook links to {url} ({name})")
    return problems


def case_r3_amp(d, title):
    problems = []
    inp = r3_catalog(os.path.join(d, "amp.csv"), [("콘서트", title, "https://culture.seoul.go.kr/v?cultcode=920001")])
    out = os.path.join(d, "out")
    r = run(["report", "--db", os.path.join(d, "store.sqlite"), "--input", inp, "--taken-at", "2024-09-09",
             "--format", "md,html", "--out", out], d)
    check_outcome_lines(r, problems)
    if r.rc != 0:
        return problems
    md = open(os.path.join(out, "report.md"), encoding="utf-8").read()
    found = re.findall(r"(?<!\\)&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]*);", md)
    if found:
        problems.append(f"report.md holds references a viewer decodes: {found[:3]}")
    html = open(os.path.join(out, "report.html"), encoding="utf-8").read()
    if "<script" in html.lower():
        problems.append("report.html holds a <script")
    return problems


def case_r3_wide(d, length):
    problems = []
    real_chromium()
    if not shutil.which("pdftotext"):
        raise Skip("no pdftotext (poppler-utils)")
    rows = [("x" * length if i < 3 else "전시/미술", f"행사 {i + 1}", f"https://culture.seoul.go.kr/v?cultcode={910000 + i}")
            for i in range(6)]
    inp = r3_catalog(os.path.join(d, "wide.csv"), rows)
    out = os.path.join(d, "out")
    r = run(["report", "--db", os.path.join(d, "store.sqlite"), "--input", inp, "--taken-at", "2024-09-09",
             "--format", "pdf", "--out", out], d, timeout=180)
    check_outcome_lines(r, problems)
    if r.rc != 0:
        return problems
    bbox = os.path.join(d, "bbox.html")
    subprocess.run(["pdftotext", "-bbox", os.path.join(out, "report.pdf"), bbox], check=True, capture_output=True)
    text = open(bbox, encoding="utf-8").read()
    over = 0
    for width, body in re.findall(r'<page width="([0-9.]+)" height="[0-9.]+">(.*?)</page>', text, re.S):
        over += sum(1 for x in re.findall(r'xMax="([0-9.]+)"', body) if float(x) > float(width) + 0.5)
    if over:
        problems.append(f"{over} words past the page's right edge")
    return problems


def case_r3_one_browser(d):
    problems = []
    real = real_chromium()
    store = copy_store("full1", d)
    log = os.path.join(d, "starts.log")
    wrapper = os.path.join(d, "chromium-wrapper")
    with open(wrapper, "w") as fh:
        fh.write(f"#!/bin/sh\necho start >> '{log}'\nexec '{real}' \"$@\"\n")
    os.chmod(wrapper, 0o755)
    out = os.path.join(d, "out")
    r = run(["report", "--db", store, "--districts", "all", "--format", "pdf", "--out", out], d,
            env=base_env({"RAON_CHROMIUM": wrapper}), timeout=300)
    check_outcome_lines(r, problems)
    starts = len(open(log).read().split()) if os.path.exists(log) else 0
    if starts != 1:
        problems.append(f"Chromium started {starts} times for one run")
    pdfs = [p for p in manifest(out) if p.endswith("report.pdf")] if os.path.isdir(out) else []
    if r.rc == 0 and len(pdfs) != 26:
        problems.append(f"{len(pdfs)} PDFs (expected 26)")
    note("round3_output", f"--districts all --format pdf: {r.elapsed:.0f} s")
    return problems


def family_round3_output(n, rng):
    c = []
    for placement, folder in (("districts/강남구/memo.docx", False), ("csv/budget.xlsx", False),
                              ("charts/mine/note.svg", False), ("districts/강남구/csv/예산.xlsx", False),
                              ("districts/메모", True), ("report.md", True)):
        c.append((f"user's {placement}{'/' if folder else ''} inside the report: refused, kept",
                  lambda d, p=placement, f=folder: case_r3_nested(d, p, f)))
    for mode in ("truncate", "linger", "good"):
        c.append((f"fake Chromium '{mode}'", lambda d, m=mode: case_r3_fake(d, m)))
    for kind in ("folder", "tmp", "devnull", "root"):
        c.append((f"RAON_CHROMIUM={kind}: refused before recording", lambda d, k=kind: case_r3_chromium_path(d, k)))
    for sig in (signal.SIGTERM, signal.SIGINT):
        for delay in (0.0, 1.0, 3.0):
            c.append((f"{signal.Signals(sig).name} {delay:.0f} s into printing",
                      lambda d, s=sig, t=delay: case_r3_interrupt(d, s, t)))
    c.append(("portal links only (md, html, xlsx)", case_r3_links))
    for title in ("&lt;script&gt;alert(1)&lt;/script&gt;", "&#60;img src=x&#62; &amp; R&B", "&#x3C;b&#x3E;굵게"):
        c.append((f"title {title!r} stays text", lambda d, t=title: case_r3_amp(d, t)))
    for length in (2000, 20000):
        c.append((f"unbroken {length}-character category stays on the page", lambda d, k=length: case_r3_wide(d, k)))
    c.append(("--districts all --format pdf: one Chromium", case_r3_one_browser))
    return c


# ---------------------------------------------------------------------------------------
# Runner
# ---------------------------------------------------------------------------------------

BUILDERS = {
    "signals": family_signals, "concurrency": family_concurrency, "disk": family_disk, "foreign": family_foreign,
    "config": family_config, "options": family_options, "inputs": family_inputs, "api": family_api,
    "diff": family_diff, "misc": family_misc,
    "round3_store": family_round3_store,
    "round3_output": family_round3_output,
}


# ---------------------------------------------------------------------------------------
# Family round3_ingest (issue 27, items 1, 12, 13, 14): today's-size .xlsx, its limits and
# a DTD; decomposed district names; lines of bare commas; HTML-table .xls files cut short,
# with an unclosed comment or CDATA holding markup. One block, registered at its end.
# ---------------------------------------------------------------------------------------

import html  # noqa: E402 (kept with the family's block)
import unicodedata  # noqa: E402

R3_HEAD = '<?xml version="1.0" encoding="UTF-8"?>'
R3_MAIN = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'


def r3_rows(n):
    """n catalog rows: the sample's, repeated with new cultcodes and titles."""
    header, body = Ctx.header, Ctx.body
    url, title = header.index("문화포털상세URL"), header.index("공연/행사명")
    out = []
    for k in range(n):
        r = list(body[k % len(body)])
        r[url] = f"https://culture.seoul.go.kr/culture/culture/cultureEvent/view.do?cultcode={900000 + k}"
        r[title] = f"{r[title]} #{k}".strip()
        out.append(["".join(ch for ch in v if ch >= " " or ch in "\t\n\r") for v in r])
    return header, out


def r3_openpyxl_book(n):
    """A workbook of n programs written by openpyxl, made once per run."""
    path = os.path.join(Ctx.work, "inputs", f"r3-openpyxl-{n}.xlsx")
    if not os.path.exists(path):
        from openpyxl import Workbook
        header, rows = r3_rows(n)
        wb = Workbook()
        ws = wb.active
        ws.append(header)
        for r in rows:
            ws.append(r)
        wb.save(path)
    return path


def r3_zip_book(path, sheet_body, shared=None):
    """A minimal workbook: its first sheet's <sheetData> body, and sharedStrings if given."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/workbook.xml", f'{R3_HEAD}<workbook {R3_MAIN}><sheets><sheet name="s" sheetId="1"/></sheets></workbook>')
        if shared is not None:
            z.writestr("xl/sharedStrings.xml", shared)
        z.writestr("xl/worksheets/sheet1.xml", f"{R3_HEAD}<worksheet {R3_MAIN}><sheetData>{sheet_body}</sheetData></worksheet>")
    return path


def r3_inline_row(r, cells):
    def esc(v):
        return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<row r="{r}">' + "".join(f'<c t="inlineStr"><is><t xml:space="preserve">{esc(v)}</t></is></c>' for v in cells) + "</row>"


def r3_snapshot(d, path, problems, expect_ok, count=None, say=None, not_say=None):
    """Records `path` into a fresh store; checks the outcome, the message and the store."""
    store = os.path.join(d, "store.sqlite")
    r = run(["snapshot", path, "--db", store, "--taken-at", "2024-09-09"], d, timeout=600)
    check_no_crash(r, problems)
    if r.rc == "timeout":
        return r
    if expect_ok:
        if r.rc != 0:
            problems.append(f"refused (exit {r.rc}): {short(r.err)}")
            return r
        snaps = snapshots_json(store, d, problems) or []
        got = snaps[0]["programCount"] if snaps else None
        if count is not None and got != count:
            problems.append(f"recorded {got} programs, expected {count}")
    else:
        if r.rc != 1:
            problems.append(f"exit {r.rc}, expected a refusal (1): {short(r.err) or 'nothing on stderr'}")
        else:
            check_one_line_error(r, problems)
        if os.path.exists(store):
            snaps = snapshots_json(store, d, problems)
            if snaps:
                problems.append(f"refused, but {len(snaps)} snapshot(s) recorded")
    if say and say.encode() not in r.err:
        problems.append(f"stderr does not say '{say}': {short(r.err)}")
    if not_say and not_say.encode() in r.err + r.out:
        problems.append(f"output says '{not_say}': {short(r.err + r.out)}")
    return r


def case_r3_openpyxl(d, n):
    problems = []
    path = r3_openpyxl_book(n)
    r3_snapshot(d, path, problems, True, count=n)
    return problems


def case_r3_too_many_rows(d):
    problems = []
    head = r3_inline_row(1, ["분류", "자치구", "공연/행사명", "장소"])
    path = r3_zip_book(os.path.join(d, "rows.xlsx"), head + "<row/>" * 1_000_001)
    r3_snapshot(d, path, problems, False, say="1,000,000 rows")
    return problems


def case_r3_dtd(d, kind):
    problems = []
    head = r3_inline_row(1, ["분류", "자치구", "공연/행사명", "장소"])
    if kind == "xxe":
        shared = (f'{R3_HEAD}<!DOCTYPE sst [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                  f'<sst {R3_MAIN}><si><t>&x;</t></si></sst>')
        body = head + '<row r="2"><c t="s"><v>0</v></c><c t="inlineStr"><is><t>마포구</t></is></c></row>'
        path = r3_zip_book(os.path.join(d, "xxe.xlsx"), body, shared)
    else:  # billion laughs in the sheet itself
        lol = "".join(f'<!ENTITY l{i} "' + f"&l{i - 1};" * 10 + '">' for i in range(1, 10))
        doc = (f'{R3_HEAD}<!DOCTYPE worksheet [<!ENTITY l0 "lol">{lol}]>'
               f"<worksheet {R3_MAIN}><sheetData>{head}<row r=\"2\"><c t=\"inlineStr\"><is><t>&l9;</t></is></c></row></sheetData></worksheet>")
        path = os.path.join(d, "lol.xlsx")
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("xl/workbook.xml", f'{R3_HEAD}<workbook {R3_MAIN}><sheets><sheet name="s" sheetId="1"/></sheets></workbook>')
            z.writestr("xl/worksheets/sheet1.xml", doc)
    r3_snapshot(d, path, problems, False, say="DTD", not_say="root:")
    return problems


def case_r3_district(d, forms):
    problems = []
    store = copy_store("full1", d)
    nfc = unicodedata.normalize("NFC", "강남구")
    names = [unicodedata.normalize(f, "강남구") for f in forms]
    args = ["report", "--db", store, "--out", os.path.join(d, "OUT"), "--format", "md,json"]
    for n in names:
        args += ["--district", n]
    r = run(args, d)
    check_no_crash(r, problems)
    if r.rc != 0:
        problems.append(f"exit {r.rc}: {short(r.err)}")
        return problems
    folders = os.listdir(os.path.join(d, "OUT", "districts").encode())
    if folders != [nfc.encode()]:
        problems.append(f"district folders {folders!r}, expected one, NFC {nfc.encode()!r}")
    for f in ("report.json", "report.md"):
        p = os.path.join(d, "OUT", "districts", nfc, f).encode()
        if not os.path.exists(p):
            problems.append(f"no {f} in the NFC folder")
            continue
        data = open(p, "rb").read()
        if unicodedata.normalize("NFD", nfc).encode() in data:
            problems.append(f"{f} holds the decomposed name")
        if nfc.encode() not in data:
            problems.append(f"{f} lacks the composed name")
    return problems


def case_r3_commas(d, rows, blanks, where):
    problems = []
    header, body = Ctx.header, Ctx.body[:rows]
    blank = "," * (len(header) - 1) + "\r\n"
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
    w.writerow(header)
    between = set() if where == "end" else {rows * (k + 1) // (blanks + 1) for k in range(blanks)}
    for i, r in enumerate(body):
        w.writerow(r)
        if i in between:
            buf.write(blank)
    if where == "end":
        buf.write(blank * blanks)
    path = os.path.join(d, "commas.csv")
    with open(path, "wb") as fh:
        fh.write(buf.getvalue().encode("utf-8-sig", errors="replace"))
    word = "1 empty row" if blanks == 1 else f"{blanks} empty rows"
    r3_snapshot(d, path, problems, True, count=rows, say=f"{word} skipped")
    return problems


def r3_html(rows, cdata_at=None):
    header, body = Ctx.header, Ctx.body[:rows]

    def cell(tag, v):
        return f"<{tag}>" + html.escape(v) + f"</{tag}>"
    out = ["<html><head><meta charset=\"utf-8\"></head><body>\n<table>\n",
           "<tr>" + "".join(cell("th", h) for h in header) + "</tr>\n"]
    title = header.index("공연/행사명")
    for k, r in enumerate(body):
        cells = [cell("td", v) for v in r]
        if k == cdata_at:
            cells[title] = "<td><![CDATA[</td></tr><tr><td>가짜</td><td>마포구</td><td>x</td><td>y]]></td>"
        out.append("<tr>" + "".join(cells) + "</tr>\n")
    out.append("</table>\n</body></html>\n")
    return "".join(out)


def case_r3_html(d, kind):
    problems = []
    text = r3_html(100, cdata_at=50 if kind == "cdata" else None)
    path = os.path.join(d, "catalog.xls")
    if kind == "cut-mid-row":
        rows = text.split("\n")
        cut = "\n".join(rows[:80]) + "\n" + rows[80][: len(rows[80]) // 2]
        open(path, "w", encoding="utf-8").write(cut)
        r3_snapshot(d, path, problems, False, say="cut short")
    elif kind == "cut-in-tag":
        at = text.index("<td", len(text) // 2)
        open(path, "w", encoding="utf-8").write(text[: at + 3])
        r3_snapshot(d, path, problems, False, say="cut short")
    elif kind == "no-table-end":
        open(path, "w", encoding="utf-8").write(text[: text.index("</table>")])
        r3_snapshot(d, path, problems, False, say="cut short")
    elif kind == "comment":
        rows = text.split("\n")
        rows[12] = "<!-- " + rows[12]
        open(path, "w", encoding="utf-8").write("\n".join(rows))
        r3_snapshot(d, path, problems, False, say="<!--")
    elif kind == "cdata":
        open(path, "w", encoding="utf-8").write(text)
        r3_snapshot(d, path, problems, True, count=100)
    return problems


def family_round3_ingest(n, rng):
    return [
        ("xlsx of 20,000 programs by openpyxl recorded whole", lambda d: case_r3_openpyxl(d, 20_000)),
        ("xlsx of 5,000 programs by openpyxl recorded whole", lambda d: case_r3_openpyxl(d, 5_000)),
        ("xlsx sheet over 1,000,000 rows refused naming the limit", case_r3_too_many_rows),
        ("xlsx sharedStrings with an XXE DTD refused", lambda d: case_r3_dtd(d, "xxe")),
        ("xlsx sheet with a billion-laughs DTD refused", lambda d: case_r3_dtd(d, "lol")),
        ("--district NFD: one NFC folder, NFC in JSON and title", lambda d: case_r3_district(d, ["NFD"])),
        ("--district NFD and NFC: one NFC folder", lambda d: case_r3_district(d, ["NFD", "NFC"])),
        ("1,000,000 bare-comma lines after 100 rows skipped and counted",
         lambda d: case_r3_commas(d, 100, 1_000_000, "end")),
        ("two bare-comma lines between rows skipped and counted", lambda d: case_r3_commas(d, 300, 2, "between")),
        ("HTML .xls cut mid-row refused", lambda d: case_r3_html(d, "cut-mid-row")),
        ("HTML .xls cut inside a tag refused", lambda d: case_r3_html(d, "cut-in-tag")),
        ("HTML .xls without </table> refused", lambda d: case_r3_html(d, "no-table-end")),
        ("HTML .xls with an unterminated <!-- refused", lambda d: case_r3_html(d, "comment")),
        ("HTML .xls with CDATA holding <tr>: text, 100 programs", lambda d: case_r3_html(d, "cdata")),
    ]


DEFAULT_COUNTS["round3_ingest"] = 0
FAMILIES.append("round3_ingest")
BUILDERS["round3_ingest"] = family_round3_ingest

# A family's quick subset (CI runs `--quick`): a function from its cases to the few to run.
QUICK = {}

import families_site  # noqa: E402 (raon site, issue 37: site_links, site_folders, site_signals, …)
families_site.register(sys.modules[__name__])


import families_round4  # noqa: E402 (issue 37's families, in a file of their own)
families_round4.register(sys.modules[__name__])


import families_mail  # noqa: E402 (issue 49: mail_smtp, mail_signals)
families_mail.register(sys.modules[__name__])
import families_mail_config  # noqa: E402 (issue 49: mail_config, child_env)
families_mail_config.register(sys.modules[__name__])
import families_weekly  # noqa: E402 (issue 49: weekly_fresh, weekly_gates, weekly_lock)
families_weekly.register(sys.modules[__name__])
import families_lineage  # noqa: E402 (issue 49: national_lineage)
families_lineage.register(sys.modules[__name__])
import families_webhook  # noqa: E402 (raon weekly's [webhook.NAME] channel: weekly_webhook)
families_webhook.register(sys.modules[__name__])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raon", required=True)
    ap.add_argument("--cases", type=int, help="scale the generated families so the total is about N")
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--out", help="write the results as Markdown here")
    ap.add_argument("--family", action="append", choices=FAMILIES, help="run only these (repeatable)")
    ap.add_argument("--count", action="append", default=[], help="NAME=N: cases of a generated family")
    ap.add_argument("--keep", action="store_true", help="keep every case's folder")
    ap.add_argument("--quick", action="store_true",
                    help="CI's run: each family with a quick subset (QUICK), that subset only")
    ap.add_argument("--work", help="work folder (default: a new one under /tmp)")
    ap.add_argument("--match", help="only the cases whose label contains this (case-insensitive)")
    a = ap.parse_args()

    Ctx.raon = os.path.abspath(a.raon)
    if not os.access(Ctx.raon, os.X_OK):
        sys.exit(f"not an executable: {Ctx.raon}")
    Ctx.work = a.work or tempfile.mkdtemp(prefix="raon-hostile-")
    os.makedirs(Ctx.work, exist_ok=True)
    rng = random.Random(a.seed)
    counts = dict(DEFAULT_COUNTS)
    for c in a.count:
        k, _, v = c.partition("=")
        counts[k] = int(v)
    families = a.family or (list(QUICK) if a.quick else FAMILIES)
    started = time.time()
    print(f"raon: {Ctx.raon}\nwork folder: {Ctx.work}\nseed: {a.seed}", flush=True)
    prepare(a)
    print("timings (s): " + ", ".join(f"{k} {v:.2f}" for k, v in Ctx.timings.items()), flush=True)
    Ctx.api = LoopbackAPI(api_rows(Ctx.header, Ctx.body[:1200]))
    plan = []
    for fam in families:
        fam_rng = random.Random(f"{a.seed}-{fam}")
        cases = BUILDERS[fam](counts[fam], fam_rng)
        cases = QUICK[fam](cases) if a.quick and fam in QUICK else cases
        if a.match:
            cases = [c for c in cases if a.match.lower() in c[0].lower()]
        plan.append((fam, cases))
    if a.cases:
        total = sum(len(c) for _, c in plan)
        fixed = sum(len(c) for f, c in plan if DEFAULT_COUNTS[f] == 0)
        gen = total - fixed
        if gen and a.cases != total:
            scale = max(0.0, (a.cases - fixed) / gen)
            plan = [(f, c if DEFAULT_COUNTS[f] == 0 else c[:max(1, round(len(c) * scale))]) for f, c in plan]
    summary = []
    failures = []
    skipped_reasons = {}
    failed_dir = os.path.join(Ctx.work, "failed")
    for fam, cases in plan:
        t0 = time.time()
        p = f_ = s = 0
        for idx, (name, fn) in enumerate(cases):
            d = os.path.join(Ctx.work, "cases", f"{fam}-{idx:04d}")
            os.makedirs(d)
            try:
                problems = fn(d)
            except Skip as e:
                s += 1
                skipped_reasons.setdefault(fam, set()).add(str(e))
                problems = None
            except Exception as e:  # the runner's own error counts as a failure, visibly
                problems = [f"runner error: {e!r} {traceback.format_exc().splitlines()[-3:]}"]
            home_files, home_dirs = check_home()
            if home_files and problems is not None:
                problems.append(f"files written under $HOME: {home_files[:4]}")
            for x in home_dirs:
                note("home", f"empty folder left under $HOME: {x}")
            if problems is not None:
                if problems:
                    f_ += 1
                    line = f"FAIL {fam} #{idx} [{name}]: " + "; ".join(dict.fromkeys(problems))
                    failures.append((fam, idx, name, list(dict.fromkeys(problems)), d))
                    print(line, flush=True)
                    os.makedirs(failed_dir, exist_ok=True)
                    try:
                        shutil.move(d, os.path.join(failed_dir, os.path.basename(d)))
                    except OSError:
                        pass
                else:
                    p += 1
            if os.path.isdir(d) and not a.keep:
                shutil.rmtree(d, ignore_errors=True)
        secs = time.time() - t0
        summary.append((fam, len(cases), p, f_, s, secs))
        print(f"-- {fam}: {len(cases)} cases, {p} passed, {f_} failed, {s} skipped ({secs:.0f} s)", flush=True)
        for reason in sorted(skipped_reasons.get(fam, ())):
            print(f"   skipped: {reason}", flush=True)
        for label, k in sorted(NOTES.get(fam, {}).items()):
            print(f"   outcome: {label} ×{k}", flush=True)
    Ctx.api.stop()
    R3SPostgres.stop_shared()
    total_p = sum(x[2] for x in summary)
    total_f = sum(x[3] for x in summary)
    total_s = sum(x[4] for x in summary)
    closing = f"{total_p} passed, {total_f} failed" + (f", {total_s} skipped" if total_s else "")
    table = ["| family | cases | passed | failed | skipped | seconds |", "|---|---:|---:|---:|---:|---:|"]
    for fam, n, p, f_, s, secs in summary:
        table.append(f"| {fam} | {n} | {p} | {f_} | {s} | {secs:.0f} |")
    table.append(f"| **total** | {sum(x[1] for x in summary)} | {total_p} | {total_f} | {total_s} | "
                 f"{time.time() - started:.0f} |")
    print()
    print("\n".join(table))
    print(closing)
    if a.out:
        try:
            commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True).stdout.strip()
        except OSError:
            commit = "?"
        version = run(["--version"], Ctx.work).stdout.strip()
        cmd = "python3 scripts/hostile/run_hostile.py " + " ".join(sys.argv[1:])
        md = ["# Hostile set: results", "",
              f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
              f"- git commit: {commit}", f"- raon --version: {version}", f"- command: `{cmd}`",
              f"- seed: {a.seed}; wall time {time.time() - started:.0f} s; "
              f"load average at the end {os.getloadavg()[0]:.1f}", "",
              "## Summary", ""] + table + ["", f"**{closing}**", ""]
        if skipped_reasons:
            md += ["## Skipped", ""]
            for fam, reasons in skipped_reasons.items():
                for reason in sorted(reasons):
                    md.append(f"- {fam}: {reason}")
            md.append("")
        if NOTES:
            md += ["## Outcomes", "", "How the runs ended (a signal sent after the run finished counts as finished).", ""]
            for fam, labels in NOTES.items():
                md.append(f"- {fam}: " + "; ".join(f"{label} ×{k}" for label, k in sorted(labels.items())))
            md.append("")
        md += ["## Failures", ""]
        if not failures:
            md.append("None.")
        for fam, idx, name, probs, _ in failures:
            md.append(f"- **{fam} #{idx}** `{name!r}`: " + "; ".join(x.replace("|", "\\|") for x in probs))
        md.append("")
        with open(a.out, "w", encoding="utf-8") as fh:
            fh.write("\n".join(md))
    if failures:
        print(f"failed cases' folders: {failed_dir}")
    sys.exit(1 if total_f else 0)


if __name__ == "__main__":
    main()
