"""Runs a command and reads the environment of every process it starts while each lives
(`/proc/PID/environ`, polled every few milliseconds), for the check that Raon's children —
the Chromium wrapper, the browser, its zygote, renderers and crash handler — hold none of
Raon's secrets (issue 49 item 7).

  python3 -m raon_testkit.proc_env [--cwd D] [--timeout S] [--env NAME=VALUE]... -- COMMAND ARG...

Prints one JSON object: {"status": N, "stdout": "...", "stderr": "...", "processes":
[{"pid": N, "cmdline": [...], "environ": {NAME: VALUE}}]} — every descendant seen, the
command itself left out (and a child caught between fork and exec, still a copy of it). The command's environment is this process's, with each --env.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import time


def parents():
    """{pid: ppid} of every process now."""
    out = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                stat = f.read()
            # comm may hold spaces and parentheses: the fields after the last ')'.
            fields = stat[stat.rindex(b")") + 2:].split()
            out[int(name)] = int(fields[1])
        except (OSError, ValueError, IndexError):
            continue
    return out


def descendants(root, table):
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in table.items() if ppid in frontier and pid not in found}
        found |= frontier
    return found


def read(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            environ = f.read()
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            cmdline = f.read()
    except OSError:
        return None
    if not cmdline:
        return None  # a zombie: nothing left to read
    env = {}
    for item in environ.split(b"\0"):
        if b"=" in item:
            k, _, v = item.partition(b"=")
            env[k.decode("utf-8", "replace")] = v.decode("utf-8", "replace")
    return {"pid": pid, "cmdline": [a.decode("utf-8", "replace") for a in cmdline.split(b"\0") if a], "environ": env}


def run_watching(command, cwd=None, env=None, timeout=600, every=0.005):
    """(status, stdout, stderr, processes) of `command`, its descendants' environments
    read while they lived (a process seen again after an exec is read again)."""
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    seen = {}
    done = threading.Event()

    def watch():
        while not done.is_set():
            for pid in descendants(proc.pid, parents()):
                record = read(pid)
                # A child between fork and exec is still a copy of the command (its
                # memory, its environment): not a program the command started.
                if record and record["cmdline"] == [str(a) for a in command]:
                    continue
                if record and (pid, tuple(record["cmdline"])) not in seen:
                    seen[(pid, tuple(record["cmdline"]))] = record
            time.sleep(every)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        out, err = proc.communicate(timeout=timeout)
        status = proc.returncode
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        status = "timeout"
    done.set()
    watcher.join()
    return status, out, err, list(seen.values())


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--cwd")
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    env = dict(os.environ)
    for item in args.env:
        name, _, value = item.partition("=")
        env[name] = value
    status, out, err, processes = run_watching(command, cwd=args.cwd, env=env, timeout=args.timeout)
    json.dump({"status": status, "stdout": out.decode("utf-8", "replace"), "stderr": err.decode("utf-8", "replace"),
               "processes": processes}, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
