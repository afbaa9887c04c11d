#!/usr/bin/env python3
"""Follows the operator's set-up as README.md and docs/WEEKLY.md write it — from a fresh
server to a delivered Monday — on a scratch root, as far as it runs without systemd.

    operator_page.py REPO RAON SMTP_PORT CA_FILE SMTP_USER SMTP_PASSWORD SAMPLE.csv

Each page's first ```sh block is run line by line as written, with only these changes:
the system's paths (/etc/raon, /srv/raon, /var/lib/raon, /usr/local/bin, /run/raon,
/etc/systemd/system) live under a scratch root; the service user `raon` is a throwaway
user (useradd, removed at the end); `sudo CMD` runs CMD as root (this script runs as root),
`sudo -u USER sh -c …` runs through runuser(1); `.build/release/raon` is the binary under
test; `systemctl` is skipped, with the reason printed. Where the page says "then edit", the
example config is pointed at the test's SMTP server and a folder holding the sample (no
test reaches the internet), with retry_for = "0" (the page's "0: once") and the lock file
in /run/raon that the unit's RuntimeDirectory= makes.

Then the service runs as systemd would run it (deploy/raon-weekly.service: its User,
WorkingDirectory, EnvironmentFile read as root, ExecStart), every path the config writes is
checked to lie in what the unit lets it write (ProtectSystem=strict), cron's line runs as the
user, and the page's password-file block is followed (a password file the service user can
read, mode 0600). Prints one JSON object: {"steps": [...], "skipped": [...], "runs": [...]}
— each run's command, exit status and output — or {"skipped": reason} when not root.
"""
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

RUNUSER = shutil.which("runuser") or "/usr/sbin/runuser"


def blocks(path, after):
    """The ```sh blocks of `path` after the heading line `after` (in order)."""
    text = open(path, encoding="utf-8").read()
    start = text.index(after)
    return re.findall(r"```sh\n(.*?)```", text[start:], re.S)


def commands(block):
    return [l.split("   #")[0].split("  #")[0].rstrip() for l in block.splitlines()
            if l.strip() and not l.lstrip().startswith("#")]


class Page:
    def __init__(self, repo, raon, root, user):
        self.repo, self.raon, self.root, self.user = repo, raon, root, user
        self.steps, self.skipped, self.runs = [], [], []

    def path(self, text):
        for system in ["/etc/systemd/system", "/etc/raon", "/srv/raon", "/var/lib/raon", "/usr/local/bin", "/run/raon"]:
            text = re.sub(r"(?<![\w/])" + re.escape(system), self.root + system, text)
        return text

    def rewrite(self, line):
        line = self.path(line)
        line = line.replace(".build/release/raon", self.raon)
        line = re.sub(r"(?<![\w/-])raon weekly", self.root + "/usr/local/bin/raon weekly", line)
        line = re.sub(r"-([ogu]) raon\b", lambda m: "-%s %s" % (m[1], self.user), line)
        line = re.sub(r"(--shell \S+) raon$", r"\1 " + self.user, line)
        return line

    def run(self, line, check=True):
        """Runs one line of a page as root, as written (after rewrite)."""
        if "systemctl" in line:
            self.skipped.append({"line": line, "why": "needs systemd as PID 1 (not here): the unit is checked by systemd-analyze verify and run below as systemd would"})
            return None
        shell = self.rewrite(line)
        shell = re.sub(r"sudo -u (\S+) sh -c", lambda m: "%s -u %s -- sh -c" % (RUNUSER, m[1]), shell)
        shell = re.sub(r"(^|&& )sudo ", r"\1", shell)
        done = subprocess.run(["sh", "-c", shell], cwd=self.repo, capture_output=True, text=True)
        self.steps.append({"line": line, "ran": shell, "status": done.returncode,
                           "stdout": done.stdout[-3000:], "stderr": done.stderr[-3000:]})
        if check and done.returncode != 0:
            raise SystemExit(json.dumps({"failed": self.steps[-1], "steps": self.steps}, ensure_ascii=False))
        return done


def edit_config(page, port, ca, smtp_user, inbox):
    path = page.root + "/etc/raon/raon.toml"
    text = open(path, encoding="utf-8").read()
    text = text.replace('source = "api"', 'source = "%s"' % inbox)
    text = text.replace('formats = ["pdf", "xlsx"]', 'formats = ["xlsx"]')
    text = text.replace('districts = "all"', 'districts = ["종로구", "중구"]')
    text = text.replace('retry_for = "2h"', 'retry_for = "0"')
    text = text.replace('# lock = "/run/raon/weekly.lock"', 'lock = "/run/raon/weekly.lock"')
    text = re.sub(r'server = "[^"]*"', 'server = "smtp://127.0.0.1:%d"' % port, text)
    text = text.replace('# ca_file = "/etc/raon/ca.pem"', 'ca_file = "%s"' % ca)
    text = re.sub(r'user = "[^"]*"', 'user = "%s"' % smtp_user, text, count=1)
    text = page.path(text)
    open(path, "w", encoding="utf-8").write(text)


def edit_env(page, password, with_password=True):
    path = page.root + "/etc/raon/raon.env"
    text = open(path, encoding="utf-8").read()
    text = text.replace("put-your-key-here", "not-used-by-a-folder-source")
    text = re.sub(r"RAON_SMTP_PASSWORD=.*", "RAON_SMTP_PASSWORD=%s" % password if with_password else "", text)
    with open(path, "w", encoding="utf-8") as f:  # edited in place: its owner and mode stay
        f.write(text)


def unit(repo):
    values = {}
    for line in open(os.path.join(repo, "deploy/raon-weekly.service"), encoding="utf-8"):
        if "=" in line and not line.startswith("#"):
            key, value = line.rstrip("\n").split("=", 1)
            values.setdefault(key, []).append(value)
    return values


def as_service(page, extra=()):
    """ExecStart as systemd runs it: EnvironmentFile read by root, then User, WorkingDirectory."""
    u = unit(page.repo)
    env = {"HOME": page.path(u["Environment"][0].split("=", 1)[1]), "PATH": "/usr/local/bin:/usr/bin:/bin",
           "LANG": "C.UTF-8"}
    for line in open(page.path(u["EnvironmentFile"][0]), encoding="utf-8"):
        if "=" in line and not line.lstrip().startswith("#"):
            key, value = line.strip().split("=", 1)
            env[key] = value
    command = shlex.split(page.path(u["ExecStart"][0])) + list(extra)
    command[0] = page.root + "/usr/local/bin/raon"
    os.makedirs(page.path("/run/raon"), exist_ok=True)  # RuntimeDirectory=raon: systemd makes it, the user's
    shutil.chown(page.path("/run/raon"), page.user, page.user)
    done = subprocess.run([RUNUSER, "-u", page.user, "--"] + ["env", "-i"] + ["%s=%s" % kv for kv in env.items()] + command,
                          cwd=page.path(u["WorkingDirectory"][0]), capture_output=True, text=True)
    page.runs.append({"as": "service", "command": command, "status": done.returncode,
                      "stdout": done.stdout[-3000:], "stderr": done.stderr[-3000:]})
    return done


def writable_paths(page):
    """What the unit lets the run write (ProtectSystem=strict): ReadWritePaths, StateDirectory, RuntimeDirectory."""
    u = unit(page.repo)
    paths = [p for v in u.get("ReadWritePaths", []) for p in v.split()]
    paths += ["/var/lib/" + v for v in u.get("StateDirectory", [])] + ["/run/" + v for v in u.get("RuntimeDirectory", [])]
    return [page.path(p) for p in paths]


def main(argv):
    repo, raon, port, ca, smtp_user, password, sample = argv
    if os.geteuid() != 0:
        print(json.dumps({"skipped": "not root: useradd and runuser need root"}))
        return 0
    base = tempfile.mkdtemp(prefix="raon-operator-page-")
    os.chmod(base, 0o755)
    user = "raont%d" % os.getpid()
    report = {"root": base, "user": user, "pages": {}}
    try:
        for name, page_file, heading in [("README", "README.md", "## The weekly service"),
                                         ("WEEKLY", "docs/WEEKLY.md", "## From a fresh server")]:
            root = os.path.join(base, name)
            # What a fresh Debian server has already.
            for system in ["etc/systemd/system", "usr/local/bin", "var/lib", "srv", "run"]:
                os.makedirs(os.path.join(root, system), mode=0o755)
            page = Page(repo, raon, root, user)
            sh = blocks(os.path.join(repo, page_file), heading)
            first = commands(sh[0])
            # Up to the dry run: the set-up, then the edits the page asks for.
            dry_at = next(i for i, l in enumerate(first) if "--dry-run" in l)
            for line in first[:dry_at]:
                page.run(line)
            inbox = page.path("/srv/raon/inbox")
            os.makedirs(inbox, exist_ok=True)
            shutil.copy(sample, os.path.join(inbox, "서울시 문화행사 정보.csv"))
            # Downloaded an hour ago (its time is the data's: an old one would make the week stale).
            hour_ago = time.time() - 3600
            os.utime(os.path.join(inbox, "서울시 문화행사 정보.csv"), (hour_ago, hour_ago))
            shutil.chown(inbox, user, user)
            edit_config(page, int(port), ca, smtp_user, inbox)
            edit_env(page, password)
            env_mode = oct(os.stat(page.path("/etc/raon/raon.env")).st_mode & 0o777)
            page.run(first[dry_at])
            for line in first[dry_at + 1:]:
                page.run(line)
            # The Monday itself, as systemd runs the unit; then again as cron's line.
            service = as_service(page)
            cron = [l for l in open(os.path.join(repo, "deploy/raon-weekly.cron"), encoding="utf-8")
                    if l.strip() and not l.startswith("#")][0].split(None, 6)
            cron_command = page.rewrite(cron[6].strip()).replace(page.root + "/usr/local/bin/raon weekly", page.root + "/usr/local/bin/raon weekly --resend")
            done = subprocess.run([RUNUSER, "-u", cron[5].replace("raon", user), "--", "sh", "-c", cron_command],
                                  capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": "/"})
            page.runs.append({"as": "cron", "command": cron_command, "status": done.returncode,
                              "stdout": done.stdout[-2000:], "stderr": done.stderr[-2000:]})
            # The password-file block of the page that has one.
            if len(sh) > 1 and "smtp-password" in sh[1]:
                for line in commands(sh[1]):
                    page.run(line)
                secret = page.path("/etc/raon/smtp-password")
                with open(secret, "w", encoding="utf-8") as f:  # "then write the password in it"
                    f.write(password + "\n")
                config = page.path("/etc/raon/raon.toml")
                text = open(config, encoding="utf-8").read().replace(
                    'user = "%s"' % smtp_user, 'user = "%s"\npassword_file = "%s"' % (smtp_user, secret), 1)
                open(config, "w", encoding="utf-8").write(text)
                edit_env(page, password, with_password=False)
                as_service(page, ["--resend"])
            # What the run wrote lies in what the unit lets it write.
            allowed = writable_paths(page)
            written = [page.path(p) for p in ["/var/lib/raon/raon.sqlite", "/srv/raon/reports", "/srv/raon/site", "/run/raon/weekly.lock"]]
            outside = [w for w in written if not any(w == a or w.startswith(a + "/") for a in allowed)]
            report["pages"][name] = {"steps": page.steps, "skipped": page.skipped, "runs": page.runs,
                                     "envMode": env_mode, "outside": outside, "allowed": allowed,
                                     "lockFile": open(page.path("/run/raon/weekly.lock"), encoding="utf-8").readline().strip()
                                     if os.path.exists(page.path("/run/raon/weekly.lock")) else None}
            subprocess.run(["userdel", user], capture_output=True)
            subprocess.run(["groupdel", user], capture_output=True)
    finally:
        subprocess.run(["userdel", user], capture_output=True)
        subprocess.run(["groupdel", user], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)
    print(json.dumps(report, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
