#!/usr/bin/env python3
"""Two commands timed in alternating pairs, each process alone at real-time priority, so
that other work on a shared machine does not stretch one side more than the other.

  python3 bench/ab_pairs.py N --store BASE.sqlite --input NEW.csv --taken-at T [--args '...'] \\
      --a 'RAON_A [VAR=VALUE ...]' --b 'RAON_B [VAR=VALUE ...]'
  python3 bench/ab_pairs.py N ... --a 'RAON' --b peer --peer 'python3 PEER NEW --compare OLD'

Each run of a raon side copies BASE (a store holding last week's snapshot) to a fresh
folder (untimed), then times `RAON report --input NEW --taken-at T --compare-to previous
--db COPY --out OUT ARGS` as a process: wall time, CPU time and peak RSS, as bench.py does.
VAR=VALUE words set environment variables for that side (a build's switches, when
measuring one mechanism against the same binary without it: docs/PERFORMANCE.md, the cost
ledger). `peer` runs --peer instead. Runs go A B, B A, A B, …; printed: each side's median
wall and CPU time and largest peak, and the median of the pairs' ratios B/A.

Real-time priority (`chrt -f 10`) needs root or CAP_SYS_NICE; without it, pass --no-rt.
Used for the cost ledger of round five (the figures of record come from `make bench` on a
quiet machine).
"""
import argparse, os, shlex, shutil, statistics, subprocess, tempfile, time

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("runs", type=int)
ap.add_argument("--store", required=True)
ap.add_argument("--input", required=True)
ap.add_argument("--taken-at", required=True)
ap.add_argument("--args", default="", help="more arguments for `raon report`")
ap.add_argument("--a", required=True)
ap.add_argument("--b", required=True)
ap.add_argument("--peer", help="the peer's command line, for a side named peer")
ap.add_argument("--no-rt", action="store_true")
a = ap.parse_args()


def one(side):
    words = shlex.split(side)
    d = tempfile.mkdtemp(prefix="raon-ab-")
    env = dict(os.environ)
    if words == ["peer"]:
        argv = shlex.split(a.peer) + ["--out", os.path.join(d, "peer")]
    else:
        shutil.copy(a.store, os.path.join(d, "s.sqlite"))
        for kv in words[1:]:
            key, value = kv.split("=", 1)
            env[key] = value
        argv = [words[0], "report", "--input", a.input, "--taken-at", a.taken_at, "--compare-to", "previous",
                "--db", os.path.join(d, "s.sqlite"), "--out", os.path.join(d, "out")] + shlex.split(a.args)
    if not a.no_rt:
        argv = ["chrt", "-f", "10"] + argv
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    shutil.rmtree(d)
    if status != 0:
        raise SystemExit(f"{side}: exit status {status}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


runs = {"A": [], "B": []}
for k in range(a.runs):
    for name in ("A", "B") if k % 2 == 0 else ("B", "A"):
        runs[name].append(one(a.a if name == "A" else a.b))
for name, side in (("A", a.a), ("B", a.b)):
    r = runs[name]
    print(f"{name} {side[:60]:60s} wall {statistics.median(x[0] for x in r):.3f} s, "
          f"cpu {statistics.median(x[1] for x in r):.3f} s, peak {max(x[2] for x in r):.0f} MiB")
ratios = [b[0] / x[0] for x, b in zip(runs["A"], runs["B"])]
print(f"B/A wall, median of pairs {statistics.median(ratios):.3f}: " + " ".join(f"{x:.2f}" for x in ratios))
