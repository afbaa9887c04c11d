"""Issue 49's hostile families for this round's new surfaces of `raon weekly` (issue 45),
hooked into run_hostile.py by `register` (one import and one call there). Every case runs
the real binary on the clock `RAON_NOW` sets, with a folder of downloads as its source
(their modification time is their time) and a well-behaved SMTP server on 127.0.0.1
(raon_testkit.smtp_script: STARTTLS, AUTH), starting from a copy of one published week: the
first 600 programs of the bundled sample recorded and sent on Monday 2024-09-09 (3 lists,
4 recipients). Expectations are computed here, from the rows and the documented rules
(docs/WEEKLY.md), never read back from Raon.

  weekly_fresh  Monday sequences: no new file, the same file copied again, renamed, copied
                beside itself, a new file older than the latest snapshot, hidden or not a
                catalog, older than max_age, just inside it, a real new download; max_age in
                every documented form (and odd ones), stale_notice on and off, reruns of a
                Monday, dry runs. A model of the store (what is recorded, what was reported
                which week) says per Monday: stale (exit 66, one Error line, no report
                folder, the operators one alert, the offices nothing or — stale_notice —
                one notice per recipient once per week, `raon runs` exit 66 and outcome
                stale) or fresh (exit 0, each office the week's report once, no alert); the
                store's snapshot count as the model's. Malformed max_age/stale_notice: exit
                78 naming raon.toml and the line, nothing sent or recorded.
  weekly_gates  catalogs built from the base that trip each gate at, just under and just over
                its threshold (size up and down, a district emptied at its `emptied` count,
                the 미상 rows gone, the share of changed programs, columns added and
                removed), gates "off"/false, approve = true; every gate's verdict and value
                computed here. Tripped or approve: exit 65, nobody on the lists gets
                anything, the operators one alert, the report written, the deliveries held
                (`raon runs` 65), and `--release` sends exactly the held deliveries once
                (server log = ledger: sends 1, the Message-IDs received), a second
                `--release` and a rerun send nothing; passing: exit 0, each office once.
  weekly_lock   `[weekly] lock` naming the store, the config, a download, a published file, a
                symbolic link to each (and dangling, and to a folder), a folder, a FIFO, an
                existing foreign file (text, empty, binary, one line that is nearly Raon's),
                by relative, absolute and roundabout paths, in each mode (weekly, --resend,
                --deliver-pending, --release): exit 78, one Error line, the file and the link
                byte for byte as before (SHA-256), no run recorded, no mail. And two runs on
                one SQLite store at once (two configs, two working directories, the store
                reached through a symbolic link, by --db, RAON_DB or raon.toml, one of them
                with a lock file) through a slow server, the second started at a random
                moment of the first: each exits 0 or 69, every office gets the week exactly
                once, the ledger says sent with sends = 1, a rerun sends nothing.
                Also two machines (working directories with nothing in common) on one
                PostgreSQL store, the lock then being the store's own.

A sixth of the fresh sequences, a seventh of the gate specs and a sixth of the two-run cases
run again on a fresh schema of a private PostgreSQL server on 127.0.0.1 (run_hostile's
R3SPostgres: initdb + pg_ctl, as `nobody` when root), the template week published and sent
there first (`World`).
"""
import email
import email.policy
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone

H = None  # the run_hostile module, set by register()
M = None  # families_mail (its scripted server)

KST = timezone(timedelta(hours=9))
USER = "raon"
OPS = "ops@example.go.kr"
LISTS = [("city", ["city1@example.go.kr", "city2@example.go.kr"]), ("종로구", ["jongno@example.go.kr"]),
         ("중구", ["junggu@example.go.kr"])]
RECIPIENTS = sorted(a for _, xs in LISTS for a in xs)
INBOX_NAME = "서울시 문화행사 정보.csv"
BASE_ROWS = 600
# The sample's Mondays (its programs current then): the template's week is MONDAYS[0].
MONDAYS = [datetime(2024, 9, 9, 7, 0, tzinfo=KST) + timedelta(weeks=i) for i in range(6)]


def register(module):
    global H, M
    H = module
    import families_mail
    M = families_mail
    M.H = module
    for name, builder, quick in (("weekly_fresh", family_fresh, lambda c: c[::12]),
                                 ("weekly_gates", family_gates, lambda c: c[::12]),
                                 ("weekly_lock", family_lock,
                                  lambda c: [x for i, x in enumerate(c) if i % 10 == 0 or x[0].startswith(
                                      ("lock = a folder (weekly)", "lock = an old Raon's"))])):
        H.DEFAULT_COUNTS[name] = 0
        H.FAMILIES.append(name)
        H.BUILDERS[name] = builder
        H.QUICK[name] = quick


# ---------------------------------------------------------------------------------------
# The published week every case starts from
# ---------------------------------------------------------------------------------------

def iso(t):
    return t.isoformat()


def korean_day(t):
    return f"{t.year}. {t.month}. {t.day}."


def set_mtime(path, t):
    os.utime(path, (t.timestamp(), t.timestamp()), follow_symlinks=False)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def cult(header, row):
    m = re.search(r"cultcode=(\d+)", row[header.index("문화포털상세URL")])
    return "cult:" + m[1] if m else "row:" + "|".join(row)


class Base:
    """The base catalog (the sample's first 600 rows), its minor variants, the certificates
    and the published week (store, out/, inbox/) after Monday 1."""
    built = False
    folder = certs = template = None
    header = rows = None
    variants = []

    @classmethod
    def ensure(cls):
        if cls.built:
            return
        cls.folder = os.path.join(H.Ctx.work, "weekly-world")
        cls.certs = os.path.join(cls.folder, "certs")
        cls.template = os.path.join(cls.folder, "template")
        os.makedirs(os.path.join(cls.template, "inbox"))
        cls.header = list(H.Ctx.header)
        cls.rows = [list(r) for r in H.Ctx.body[:BASE_ROWS]]
        cls.extra = [list(r) for r in H.Ctx.body[BASE_ROWS:BASE_ROWS + 400]]
        # Minor new downloads (a few titles edited each): no gate trips on them.
        title = cls.header.index("공연/행사명")
        rng = random.Random(45)
        for i in range(12):
            rows = [list(r) for r in cls.rows]
            for r in rng.sample(rows, 5):
                r[title] += f" (수정 {i + 1})"
            path = os.path.join(cls.folder, f"v{i + 1}.csv")
            H.write_csv(path, cls.header, rows)
            cls.variants.append(path)
        M.Scripted(os.path.join(cls.folder, "first"), {}, certs=cls.certs).stop()
        base = os.path.join(cls.template, "inbox", INBOX_NAME)
        H.write_csv(base, cls.header, cls.rows)
        set_mtime(base, MONDAYS[0] - timedelta(minutes=8))
        server = M.Scripted(os.path.join(cls.folder, "srv-template"), {}, certs=cls.certs)
        try:
            write_config(cls.template, server)
            r = weekly(cls.template, MONDAYS[0])
            got = messages(server)
        finally:
            server.stop()
        if r.rc != 0 or sorted(m["to"] for m in got) != RECIPIENTS:
            raise SystemExit(f"weekly families: the template week was not published and sent: exit {r.rc}: "
                             f"{H.short(r.err, 400)} {[m['to'] for m in got]}")
        subprocess.run(["sqlite3", os.path.join(cls.template, "raon.sqlite"), "PRAGMA wal_checkpoint(TRUNCATE)"],
                       capture_output=True)
        for leftover in ("raon.sqlite-wal", "raon.sqlite-shm"):
            if os.path.exists(os.path.join(cls.template, leftover)):
                os.remove(os.path.join(cls.template, leftover))
        cls.built = True

    @classmethod
    def copy(cls, d):
        cls.ensure()
        for name in os.listdir(cls.template):
            source = os.path.join(cls.template, name)
            if os.path.isdir(source):
                shutil.copytree(source, os.path.join(d, name), symlinks=True)
            else:
                shutil.copy2(source, os.path.join(d, name))


class World:
    """Where a case's store is: the template's SQLite copy, or (`pg`) a fresh schema on the
    shared private PostgreSQL server (run_hostile.R3SPostgres) in which the template's week
    is published and sent again, as Base's SQLite store had it."""

    def __init__(self, d, pg=False):
        self.pg = pg
        if not pg:
            Base.copy(d)
            self.db, self.config_db, self.env = os.path.join(d, "raon.sqlite"), '"raon.sqlite"', None
            return
        server_pg = H.R3SPostgres.shared()
        Base.ensure()
        shutil.copytree(os.path.join(Base.template, "inbox"), os.path.join(d, "inbox"))
        self.db = server_pg.url("wk_" + re.sub(r"\W", "_", os.path.basename(d)).lower())
        self.config_db = json.dumps(self.db)
        self.env = {"PGPASSWORD": H.R3S_SECRET}
        server = M.Scripted(os.path.join(d, "srv-template"), {}, certs=Base.certs)
        try:
            write_config(d, server, db=self.config_db)
            r = weekly(d, MONDAYS[0], extra_env=self.env)
            got = messages(server)
        finally:
            server.stop()
        if r.rc != 0 or sorted(m["to"] for m in got) != RECIPIENTS:
            raise RuntimeError(f"the template week on PostgreSQL: exit {r.rc}: {H.short(r.err, 300)}")

    def snapshots(self, problems):
        if not self.pg:
            return H.snapshots_json(self.db, os.path.dirname(self.db), problems)
        r = H.run(["snapshots", "--db", self.db, "--json"], os.path.join(H.Ctx.work, "neutral"),
                  env=H.base_env(self.env))
        if r.rc != 0:
            problems.append(f"'raon snapshots' fails on the store afterwards: exit {r.rc}: {H.short(r.err)}")
            return None
        try:
            return json.loads(r.out)
        except ValueError:
            problems.append(f"'raon snapshots --json' is not JSON: {H.short(r.out)}")
            return None

    def integrity(self, problems):
        if not self.pg:
            H.integrity(self.db, problems)


def config_text(server, weekly_extra="", gates="", db='"raon.sqlite"', out="out", lock=None):
    lines = [f"db = {db}"] if db else []
    lines += ["", "[weekly]", 'source = "inbox"', 'formats = ["json"]', 'districts = ["종로구", "중구"]',
              f'out = "{out}"', 'retry_for = "0"']
    if lock is not None:
        lines.append(f"lock = {json.dumps(lock, ensure_ascii=False)}")
    if weekly_extra:
        lines.append(weekly_extra)
    if gates:
        lines += ["", "[weekly.gates]", gates]
    lines += ["", "[mail]", f'server = "smtp://127.0.0.1:{server.port}"', 'from = "culture@example.go.kr"',
              f'user = "{USER}"', f'ca_file = "{server.ca}"', "timeout = 20", f'operator = ["{OPS}"]',
              f"city = {json.dumps(LISTS[0][1])}", "", "[mail.districts]"]
    lines += [f'"{name}" = {json.dumps(xs)}' for name, xs in LISTS[1:]]
    return "\n".join(lines) + "\n"


def write_config(d, server, name="raon.toml", **kw):
    with open(os.path.join(d, name), "w", encoding="utf-8") as f:
        f.write(config_text(server, **kw))


def env(now, extra=None):
    e = H.base_env({"RAON_SMTP_PASSWORD": M.PASSWORD, "RAON_NOW": iso(now)})
    if extra:
        e.update(extra)
    return e


def weekly(d, now, args=(), extra_env=None, timeout=300):
    return H.run(["weekly"] + list(args), d, env=env(now, extra_env), timeout=timeout)


def runs(d, now, db="raon.sqlite", extra_env=None):
    r = H.run(["runs", "--json", "--db", db], d, env=env(now, extra_env))
    try:
        data = json.loads(r.out)
    except ValueError:
        data = None
    return r, data


def messages(server):
    """Every message the server took: {to, subject, id, kind} (kind: report, notice, alert)."""
    out = []
    for envelope, raw in server.envelopes():
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        subject = str(msg["Subject"] or "")
        for rcpt in envelope.get("rcpt_tos", []):
            kind = "alert" if rcpt == OPS else ("notice" if "자료 미갱신 안내" in subject else "report")
            out.append({"to": rcpt, "subject": subject, "id": str(msg["Message-ID"] or "").strip("<>"), "kind": kind})
    return out


def error_lines(r):
    return [x for x in r.stderr.split("\n") if x.startswith("Error:")]


def week_folder(monday):
    y, w, _ = monday.isocalendar()
    return f"{y}-W{w:02d}"


def week_range(monday):
    sunday = monday + timedelta(days=6)
    end = (f"{sunday.year}. " if sunday.year != monday.year else "") + f"{sunday.month}. {sunday.day}.(일)"
    return f"{korean_day(monday)}(월) ~ {end}"


def check_sent_once(got, problems, what, kind="report"):
    """Each recipient exactly one message of `kind` in `got`."""
    to = sorted(m["to"] for m in got if m["kind"] == kind)
    if to != RECIPIENTS:
        problems.append(f"{what}: {kind}s went to {to}, expected each of {RECIPIENTS} once")


# ---------------------------------------------------------------------------------------
# weekly_fresh
# ---------------------------------------------------------------------------------------

# max_age written as a user might: (TOML value, seconds) — computed here from the docs' forms.
AGES = [(None, 8 * 86400), ('"8d"', 8 * 86400), ('"3d"', 3 * 86400), ('"36h"', 36 * 3600), ("259200", 259200),
        ('"72h"', 72 * 3600), ('"2d12h"', 2 * 86400 + 12 * 3600), ('"1d 12h"', 86400 + 12 * 3600),
        ('"4320m"', 4320 * 60), ('"8D"', 8 * 86400), ('"1h30m"', 5400), ('"3600"', 3600), ('"10d"', 10 * 86400),
        ('" 5d "', 5 * 86400), ('"400d"', 400 * 86400), ('"6d23h59m"', 6 * 86400 + 23 * 3600 + 59 * 60)]
BAD_AGES = ['"0"', '"59m"', '"401d"', '"8 days"', '"-1d"', '"1.5d"', '""', '"d"', "3599", "true", '"8d8"', '"1w"',
            "[1]", '"８d"', '"3d-1h"', "-5"]
BAD_NOTICES = ['"yes"', "1", '"true"', "[true]"]
KINDS = ["none", "recopy", "rename", "beside", "older", "hidden", "partial", "aged", "underage", "fresh", "rerun"]


class Fresh:
    """The store as the docs say it evolves: snapshots (sha, taken), the week that
    reported each, the weeks whose notices went."""

    def __init__(self, max_age, notice, base_sha):
        self.max_age, self.notice = max_age, notice
        self.snaps = [(base_sha, MONDAYS[0] - timedelta(minutes=8))]  # the template's
        self.reported = {0: MONDAYS[0]}
        self.noticed = set()
        self.last = ("fresh", MONDAYS[0])

    def judge(self, now, monday, newest):
        """(stale, recorded) for a run at `now` whose folder's newest catalog is `newest`
        ((sha, mtime) or None)."""
        recorded = False
        if newest is not None:
            shas = {s for s, _ in self.snaps}
            latest = max(t for _, t in self.snaps)
            if newest[0] not in shas and newest[1] > latest:
                self.snaps.append(newest)
                recorded = True
        idx = max(range(len(self.snaps)), key=lambda i: self.snaps[i][1])
        earlier = self.reported.get(idx)
        stale = (earlier is not None and earlier < monday) or (now - self.snaps[idx][1]).total_seconds() > self.max_age
        if not stale:
            self.reported.setdefault(idx, monday)
        return stale, recorded, idx


def newest_catalog(inbox):
    best = None
    for name in os.listdir(inbox):
        if name.startswith(".") or not name.lower().endswith((".csv", ".json", ".xlsx", ".xls")):
            continue
        path = os.path.join(inbox, name)
        t = datetime.fromtimestamp(os.stat(path).st_mtime, KST)
        if best is None or t > best[1]:
            best = (sha(path), t, path)
    return best


def family_fresh(n, rng):
    cases = []
    for i in range(72):
        age_text, age = AGES[i % len(AGES)]
        notice = rng.random() < 0.4
        steps, k = [], 1
        for _ in range(rng.randint(2, 4)):
            kind = rng.choice(KINDS)
            if kind == "rerun" and (not steps or steps[-1][0] == "rerun"):
                kind = "none"
            if kind != "rerun":
                k += 1
            steps.append((kind, k, rng.random() < 0.25))
        label = f"max_age {age_text or 'default'}, notice {'on' if notice else 'off'}: " + ", ".join(
            s[0] + ("+dry" if s[2] else "") for s in steps)
        cases.append((label, lambda d, a=(age_text, age), no=notice, st=steps: case_fresh(d, a, no, st)))
        if i % 6 == 0:
            # The same sequence on a PostgreSQL store (its ledger and freshness check).
            cases.append((label + " (PostgreSQL)",
                          lambda d, a=(age_text, age), no=notice, st=steps: case_fresh(d, a, no, st, pg=True)))
    for text in BAD_AGES:
        cases.append((f"max_age = {text} refused", lambda d, t=text: case_fresh_bad(d, f"max_age = {t}", "max_age")))
    for text in BAD_NOTICES:
        cases.append((f"stale_notice = {text} refused",
                      lambda d, t=text: case_fresh_bad(d, f"stale_notice = {t}", "stale_notice")))
    return cases


def place(d, kind, monday, model, versions):
    """Changes the inbox as a Monday of `kind` would find it."""
    inbox = os.path.join(d, "inbox")
    now = monday
    newest = newest_catalog(inbox)
    morning = monday - timedelta(minutes=8)
    latest = max(t for _, t in model.snaps)

    def new_content(name, t):
        path = os.path.join(inbox, name)
        shutil.copyfile(versions.pop(0), path)
        set_mtime(path, t)

    if kind == "recopy":
        data = open(newest[2], "rb").read()
        os.remove(newest[2])
        with open(newest[2], "wb") as f:
            f.write(data)
        set_mtime(newest[2], morning)
    elif kind == "rename":
        target = os.path.join(inbox, f"download-{monday:%m%d}.csv")
        os.rename(newest[2], target)
        set_mtime(target, morning)
    elif kind == "beside":
        target = os.path.join(inbox, f"copy-{monday:%m%d}.csv")
        shutil.copyfile(newest[2], target)
        set_mtime(target, morning)
    elif kind == "older":
        new_content(f"late-{monday:%m%d}.csv", latest - timedelta(hours=1))
    elif kind == "hidden":
        new_content(f".download-{monday:%m%d}.csv", morning)
    elif kind == "partial":
        new_content(f"download-{monday:%m%d}.csv.part", morning)
    elif kind == "aged":
        new_content(f"aged-{monday:%m%d}.csv", now - timedelta(seconds=model.max_age) - timedelta(hours=1))
    elif kind == "underage":
        t = now - timedelta(seconds=model.max_age) + timedelta(minutes=10)
        new_content(f"inside-{monday:%m%d}.csv", min(t, now - timedelta(minutes=5)))
    elif kind == "fresh":
        new_content(f"download-{monday:%m%d}.csv", morning)


def case_fresh(d, age, notice, steps, pg=False):
    problems = []
    world = World(d, pg)
    age_text, age_seconds = age
    model = Fresh(age_seconds, notice, sha(os.path.join(d, "inbox", INBOX_NAME)))
    versions = list(Base.variants)
    extra = "\n".join(x for x in ((f"max_age = {age_text}" if age_text else ""),
                                  ("stale_notice = true" if notice else "stale_notice = false")) if x)
    server = M.Scripted(os.path.join(d, "srv"), {}, certs=Base.certs)
    try:
        write_config(d, server, weekly_extra=extra, db=world.config_db)
        seen = 0
        for n, (kind, k, dry) in enumerate(steps):
            monday = MONDAYS[k]
            now = monday + (timedelta(minutes=30) if kind == "rerun" else timedelta())
            what = f"step {n + 1} ({kind}, {monday:%Y-%m-%d})"
            if kind != "rerun":
                place(d, kind, monday, model, versions)
            newest = newest_catalog(os.path.join(d, "inbox"))
            before_model = (list(model.snaps), dict(model.reported))
            stale, recorded, idx = model.judge(now, monday, newest[:2] if newest else None)
            if dry:
                r = weekly(d, now, ["--dry-run"], extra_env=world.env)
                H.check_no_crash(r, problems, what + " dry run")
                if r.rc != 0:
                    problems.append(f"{what}: the dry run exited {r.rc}: {H.short(r.err)}")
                if ("freshness: STALE" in r.stdout) != stale:
                    problems.append(f"{what}: the dry run's verdict is not {'STALE' if stale else 'fresh'}: "
                                    f"{H.short(r.out, 300)}")
                if len(messages(server)) != seen:
                    problems.append(f"{what}: the dry run sent mail")
            r = weekly(d, now, extra_env=world.env)
            H.check_no_crash(r, problems, what)
            got = messages(server)[seen:]
            seen += len(got)
            week_out = os.path.join(d, "out", week_folder(monday))
            if stale:
                if r.rc != 66:
                    problems.append(f"{what}: exit {r.rc}, expected 66 (stale): {H.short(r.err)} {H.short(r.out)}")
                errors = error_lines(r)
                if len(errors) != 1 or "no new data since" not in errors[0]:
                    problems.append(f"{what}: Error lines {errors[:3]}")
                if os.path.exists(week_out) and model.last != ("fresh", monday):
                    problems.append(f"{what}: a stale week wrote {os.path.basename(week_out)}")
                alerts = [m for m in got if m["kind"] == "alert"]
                if len(alerts) != 1:
                    problems.append(f"{what}: {len(alerts)} alerts to the operators, expected 1")
                elif not alerts[0]["subject"].startswith(f"[raon weekly] {korean_day(monday)}(월) 주:"):
                    problems.append(f"{what}: the alert's subject {alerts[0]['subject']!r}")
                if any(m["kind"] == "report" for m in got):
                    problems.append(f"{what}: a stale week sent reports to {[m['to'] for m in got if m['kind'] == 'report']}")
                if notice and monday not in model.noticed:
                    check_sent_once(got, problems, what, "notice")
                    model.noticed.add(monday)
                    for m in got:
                        if m["kind"] == "notice" and week_range(monday) not in m["subject"]:
                            problems.append(f"{what}: the notice's subject {m['subject']!r}")
                elif any(m["kind"] == "notice" for m in got):
                    problems.append(f"{what}: {sum(m['kind'] == 'notice' for m in got)} notices "
                                    f"({'a second time this week' if notice else 'with stale_notice off'})")
            else:
                first_time = model.last != ("fresh", monday)
                if r.rc != 0:
                    problems.append(f"{what}: exit {r.rc}, expected 0 (new data): {H.short(r.err)}")
                if any(m["kind"] != "report" for m in got):
                    problems.append(f"{what}: a fresh week sent {[(m['kind'], m['to']) for m in got if m['kind'] != 'report']}")
                if first_time:
                    check_sent_once(got, problems, what)
                    if any(week_range(monday) not in m["subject"] for m in got):
                        problems.append(f"{what}: subjects {[m['subject'] for m in got][:2]}")
                    if not os.path.exists(os.path.join(week_out, "report.json")):
                        problems.append(f"{what}: no report in {os.path.basename(week_out)}")
                elif got:
                    problems.append(f"{what}: the week's rerun sent {len(got)} messages again")
            model.last = ("stale" if stale else "fresh", monday)
            rr, data = runs(d, now + timedelta(minutes=5), db=world.db, extra_env=world.env)
            want = 66 if stale else 0
            if rr.rc != want:
                problems.append(f"{what}: raon runs exit {rr.rc}, expected {want}: {H.short(rr.err)}")
            if data is None:
                problems.append(f"{what}: raon runs --json is not JSON")
            else:
                outcome = (data.get("runs") or [{}])[0].get("outcome")
                if outcome != ("stale" if stale else "succeeded"):
                    problems.append(f"{what}: the run's outcome {outcome!r}")
                bad = [x for x in data.get("deliveries", []) if x.get("status") == "sent" and x.get("sends") != 1]
                if bad:
                    problems.append(f"{what}: deliveries sent more than once: {bad[:2]}")
            snaps = world.snapshots(problems)
            if snaps is not None and len(snaps) != len(model.snaps):
                problems.append(f"{what}: {len(snaps)} snapshots, expected {len(model.snaps)} "
                                f"({'recorded' if recorded else 'not recorded'}: {os.path.basename(newest[2]) if newest else '-'})")
                break
            del before_model
    finally:
        server.stop()
    if any(m["kind"] == "alert" and M.PASSWORD in m["subject"] for m in messages(server)):
        problems.append("the password in an alert")
    return problems


def case_fresh_bad(d, line, key):
    problems = []
    Base.copy(d)
    server = M.Scripted(os.path.join(d, "srv"), {}, certs=Base.certs)
    try:
        write_config(d, server, weekly_extra=line)
        text = open(os.path.join(d, "raon.toml"), encoding="utf-8").read().split("\n")
        line_no = text.index(line) + 1
        shutil.copyfile(Base.variants[0], os.path.join(d, "inbox", "new.csv"))
        set_mtime(os.path.join(d, "inbox", "new.csv"), MONDAYS[1] - timedelta(minutes=8))
        before = sha(os.path.join(d, "raon.sqlite"))
        r = weekly(d, MONDAYS[1])
    finally:
        server.stop()
    H.check_no_crash(r, problems)
    if r.rc != 78:
        problems.append(f"exit {r.rc}, expected 78: {H.short(r.err)}")
    errors = error_lines(r)
    if len(errors) != 1 or f"raon.toml:{line_no}" not in errors[0] or key not in errors[0]:
        problems.append(f"the error does not name raon.toml:{line_no} and {key}: {errors[:2]} {H.short(r.err)}")
    if messages(server):
        problems.append("mail was sent")
    if sha(os.path.join(d, "raon.sqlite")) != before:
        problems.append("the store changed")
    return problems


# ---------------------------------------------------------------------------------------
# weekly_gates
# ---------------------------------------------------------------------------------------

def gate_expectation(header, rows, new_header, new_rows, settings):
    """Every checked gate's (tripped, value) from the rows, as docs/WEEKLY.md words them."""
    old_n, new_n = len(rows), len(new_rows)
    out = {}
    size = settings.get("size_change", 0.20)
    if size is not None:
        change = (new_n - old_n) / old_n
        out["size_change"] = (abs(change) > size, change)
    least = settings.get("emptied", 5)
    dcol, ndcol = header.index("자치구"), new_header.index("자치구") if "자치구" in new_header else None
    before, after = {}, {}
    for r in rows:
        before[r[dcol] or "미상"] = before.get(r[dcol] or "미상", 0) + 1
    for r in new_rows:
        key = (r[ndcol] if ndcol is not None else "") or "미상"
        after[key] = after.get(key, 0) + 1
    if least is not None:
        emptied = [x for x, c in before.items() if x != "미상" and c >= least and after.get(x, 0) == 0]
        out["emptied"] = (bool(emptied), float(len(emptied)))
    share = settings.get("changed_share", 0.50)
    if share is not None:
        def by_id(h, rs):
            d = {}
            for r in rs:
                d.setdefault(cult(h, r), []).append(tuple(sorted(zip(h, r))))
            return d
        old, new = by_id(header, rows), by_id(new_header, new_rows)
        changed = sum(1 for k in old if k in new and sorted(old[k]) != sorted(new[k]))
        gone = sum(1 for k in old if k not in new)
        value = (changed + gone) / len(old)
        out["changed_share"] = (value > share, value)
    if settings.get("columns", True):
        moved = len(set(new_header) ^ set(header))
        out["columns"] = (moved > 0, float(moved))
    return out


def size_figure(old, new):
    change = (new - old) / old
    text = f"{abs(change) * 100:.1f}%"
    sign = "+" if change > 0.0005 else "−" if change < -0.0005 else ""
    return f"{old:,} → {new:,} ({sign}{text})"


def spread(rows, k, keep_districts=True, col=None):
    """`rows` without k of them, taken evenly, never a district's last rows (so no gate but
    size trips); returns the kept rows."""
    n = len(rows)
    left = {}
    for r in rows:
        left[r[col]] = left.get(r[col], 0) + 1
    drop, step, i = set(), n / k if k else n, 0.0
    order = [int(i * step) for i in range(k)] if k else []
    for j in order:
        while j < n and (j in drop or (keep_districts and left[rows[j][col]] <= 2)):
            j += 1
        if j >= n:
            j = next(x for x in range(n) if x not in drop and left[rows[x][col]] > 2)
        drop.add(j)
        left[rows[j][col]] -= 1
    return [r for x, r in enumerate(rows) if x not in drop]


def gate_catalog(spec):
    """(header, rows) of the case `spec` built from the base."""
    header, rows = list(Base.header), [list(r) for r in Base.rows]
    dcol, tcol = header.index("자치구"), header.index("공연/행사명")
    kind, arg = spec
    if kind == "grow":
        return header, rows + [list(r) for r in Base.extra[:arg]]
    if kind == "shrink":
        return header, spread(rows, arg, col=dcol)
    if kind == "empty":
        return header, [r for r in rows if (r[dcol] or "미상") not in arg]
    if kind == "unknown":  # a district's rows lose their district (they are not gone)
        for r in rows:
            if r[dcol] == arg:
                r[dcol] = ""
        return header, rows
    if kind == "trim":  # a district left with `n` rows
        district, keep = arg
        seen, out = 0, []
        for r in rows:
            if r[dcol] == district:
                seen += 1
                if seen > keep:
                    continue
            out.append(r)
        return header, out
    if kind == "change":
        for r in rows[:arg]:
            r[tcol] += " (일정 변경)"
        return header, rows
    if kind == "change+drop":
        changed, dropped = arg
        for r in rows[:changed]:
            r[tcol] += " (일정 변경)"
        return header, rows[:BASE_ROWS - dropped] if dropped else rows
    if kind == "add-column":
        return header + list(arg), [r + ["02-2133-0000"] * len(arg) for r in rows]
    if kind == "drop-column":
        idx = [header.index(c) for c in arg]
        return [c for i, c in enumerate(header) if i not in idx], [[v for i, v in enumerate(r) if i not in idx]
                                                                   for r in rows]
    if kind == "minor":
        for r in rows[:arg]:
            r[tcol] += " (수정)"
        return header, rows
    raise ValueError(kind)


def gate_specs():
    """(label, spec, gates toml, parsed settings, approve)."""
    out = []

    def add(label, spec, gates="", settings=None, approve=False):
        out.append((label, spec, gates, settings or {}, approve))

    n = BASE_ROWS
    for pct, text in ((0.20, None), (0.10, '"10%"'), (0.05, '"5%"'), (0.125, '"12.5%"'), (0.01, '"1%"'),
                      (0.15, '"15 %"'), (0.3333, '"33.33%"')):
        g = f"size_change = {text}" if text else ""
        s = {"size_change": float(text.strip('"% ')) / 100} if text else {}
        at = round(n * pct) if text != '"33.33%"' else 199
        for delta, where in ((-1, "under"), (0, "at"), (1, "over")):
            add(f"size +{at + delta} ({where} {text or 'default 20%'})", ("grow", at + delta), g, s)
            if at + delta <= 126:
                add(f"size −{at + delta} ({where} {text or 'default 20%'})", ("shrink", at + delta), g, s)
    add("size −25% with size_change off", ("shrink", 150), 'size_change = "off"', {"size_change": None})
    add("size +40% with size_change false", ("grow", 240), "size_change = false", {"size_change": None})
    add("size +40% with size_change \"None\"", ("grow", 240), 'size_change = "None"', {"size_change": None})
    add("size +1000% limit (at most)", ("grow", 400), 'size_change = "1000%"', {"size_change": 10.0})
    # emptied: 중랑구 5, 양천구 6, 강서구 7, 동작구 3, 서대문구 2 rows in the base; 미상 11.
    for district, count in (("중랑구", 5), ("양천구", 6), ("동작구", 3), ("서대문구", 2), ("강서구", 7)):
        add(f"{district} ({count}) emptied, default 5", ("empty", (district,)))
        for least in (count - 1, count, count + 1):
            if least >= 1:
                add(f"{district} ({count}) emptied, emptied = {least}", ("empty", (district,)), f"emptied = {least}",
                    {"emptied": least})
        add(f"{district} left with 1 row, emptied = 1", ("trim", (district, 1)), "emptied = 1", {"emptied": 1})
    add("중랑구 and 양천구 emptied", ("empty", ("중랑구", "양천구")))
    add("the 미상 rows gone (미상 is no district), emptied = 1", ("empty", ("미상",)), "emptied = 1", {"emptied": 1})
    add("중랑구's rows lose their district (now 미상)", ("unknown", "중랑구"))
    add("중랑구 emptied, emptied off", ("empty", ("중랑구",)), 'emptied = "off"', {"emptied": None})
    add("중랑구 emptied, emptied false", ("empty", ("중랑구",)), "emptied = false", {"emptied": None})
    add("강남구 (22) emptied, emptied = 22", ("empty", ("강남구",)), "emptied = 22", {"emptied": 22})
    add("강남구 (22) emptied, emptied = 23", ("empty", ("강남구",)), "emptied = 23", {"emptied": 23})
    # changed_share: 600 distinct programs.
    for pct, text in ((0.50, None), (0.30, '"30%"'), (0.10, '"10%"'), (0.75, '"75%"'), (0.025, '"2.5%"')):
        g = f"changed_share = {text}" if text else ""
        s = {"changed_share": float(text.strip('"%')) / 100} if text else {}
        at = round(n * pct)
        for delta, where in ((-1, "under"), (0, "at"), (1, "over")):
            add(f"{at + delta} changed ({where} {text or 'default 50%'})", ("change", at + delta),
                g + "\nsize_change = \"off\"", dict(s, size_change=None))
    add("20 changed + 11 gone of 600 (5%)", ("change+drop", (20, 11)), 'changed_share = "5%"', {"changed_share": 0.05})
    add("19 changed + 11 gone of 600 (5%)", ("change+drop", (19, 11)), 'changed_share = "5%"', {"changed_share": 0.05})
    add("all changed, changed_share off", ("change", 600), 'changed_share = "off"', {"changed_share": None})
    # columns (changed_share off: a column changes every record).
    off = 'changed_share = "off"'
    for cols in (("문의",), ("문의", "예약"), ("Contact",)):
        add(f"column(s) {', '.join(cols)} added", ("add-column", cols), off, {"changed_share": None})
    for cols in (("기타내용",), ("출연자정보",), ("이용대상", "기타내용")):
        add(f"column(s) {', '.join(cols)} removed", ("drop-column", cols), off, {"changed_share": None})
    add("column added, columns = false", ("add-column", ("문의",)), off + "\ncolumns = false",
        {"changed_share": None, "columns": False})
    add("column added, columns = \"off\"", ("add-column", ("문의",)), off + '\ncolumns = "off"',
        {"changed_share": None, "columns": False})
    add("column removed, every gate on", ("drop-column", ("기타내용",)))
    # approve.
    add("an ordinary week, approve = true", ("minor", 10), approve=True)
    add("an ordinary week, approve = false", ("minor", 10))
    add("size tripped and approve = true", ("grow", 200), approve=True)
    add("every gate off, +40%", ("grow", 240),
        'size_change = "off"\nemptied = "off"\nchanged_share = "off"\ncolumns = false',
        {"size_change": None, "emptied": None, "changed_share": None, "columns": False})
    add("every gate off, approve = true", ("minor", 3),
        'size_change = "off"\nemptied = "off"\nchanged_share = "off"\ncolumns = false',
        {"size_change": None, "emptied": None, "changed_share": None, "columns": False}, approve=True)
    return out


def family_gates(n, rng):
    specs = gate_specs()
    cases = [(label, lambda d, sp=spec, g=gates, s=settings, a=approve: case_gate(d, sp, g, s, a))
             for label, spec, gates, settings, approve in specs]
    # Every seventh spec again on a PostgreSQL store (the held deliveries and --release there).
    cases += [(label + " (PostgreSQL)",
               lambda d, sp=spec, g=gates, s=settings, a=approve: case_gate(d, sp, g, s, a, pg=True))
              for label, spec, gates, settings, approve in specs[::7]]
    return cases


def case_gate(d, spec, gates, settings, approve, pg=False):
    problems = []
    world = World(d, pg)
    header, rows = gate_catalog(spec)
    expected = gate_expectation(Base.header, Base.rows, header, rows, settings)
    tripped = sorted(g for g, (t, _) in expected.items() if t)
    held = bool(tripped) or approve
    monday = MONDAYS[1]
    path = os.path.join(d, "inbox", "download.csv")
    H.write_csv(path, header, rows)
    set_mtime(path, monday - timedelta(minutes=8))
    server = M.Scripted(os.path.join(d, "srv"), {}, certs=Base.certs)
    try:
        write_config(d, server, weekly_extra="approve = true" if approve else "", gates=gates, db=world.config_db)
        r = weekly(d, monday, extra_env=world.env)
        H.check_no_crash(r, problems, "the week")
        got = messages(server)
        for g in tripped:
            if f"TRIPPED {g}: " not in r.stdout:
                problems.append(f"'TRIPPED {g}' not in the run's output")
        if spec[0] in ("grow", "shrink") and "size_change" in tripped:
            fig = size_figure(len(Base.rows), len(rows))
            if f"TRIPPED size_change: {fig}" not in r.stdout:
                problems.append(f"the size figure {fig!r} not in {H.short(r.out, 300)}")
        for g in set(expected) - set(tripped):
            if f"TRIPPED {g}" in r.stdout:
                problems.append(f"{g} tripped, expected to pass ({expected[g][1]:.4f})")
        if held:
            if r.rc != 65:
                problems.append(f"exit {r.rc}, expected 65 (held: {tripped or 'approve'}): {H.short(r.err)}")
            if [m["to"] for m in got] != [OPS]:
                problems.append(f"a held week's mail went to {[m['to'] for m in got]} (only the operators' alert)")
            if not os.path.exists(os.path.join(d, "out", week_folder(monday), "report.json")):
                problems.append("a held week's report was not written")
        else:
            if r.rc != 0:
                problems.append(f"exit {r.rc}, expected 0 (every gate passes): {H.short(r.err)} {H.short(r.out, 300)}")
            check_sent_once(got, problems, "the week")
        rr, data = runs(d, monday + timedelta(hours=1), db=world.db, extra_env=world.env)
        if rr.rc != (65 if held else 0):
            problems.append(f"raon runs exit {rr.rc}, expected {65 if held else 0}")
        if data is not None:
            run = (data.get("runs") or [{}])[0]
            listed = {x.get("gate"): x for x in run.get("gates") or []}
            if sorted(listed) != sorted(expected):
                problems.append(f"the ledger's gates {sorted(listed)}, expected {sorted(expected)}")
            for g, (t, value) in expected.items():
                x = listed.get(g)
                if x is None:
                    continue
                if x.get("tripped") != t:
                    problems.append(f"{g}: ledger tripped {x.get('tripped')}, expected {t} (value {value:.5f})")
                if abs((x.get("value") if isinstance(x.get("value"), (int, float)) else 1e9) - value) > 1e-9:
                    problems.append(f"{g}: ledger value {x.get('value')}, computed {value}")
            book = [x for x in data.get("deliveries", []) if x.get("week") == f"{monday:%Y-%m-%d}"]
            want = "held" if held else "sent"
            if sorted(x.get("recipient") for x in book) != RECIPIENTS or any(x.get("status") != want for x in book):
                problems.append(f"the week's deliveries {[(x.get('recipient'), x.get('status')) for x in book]}, "
                                f"expected each {want}")
        if not held:
            return problems
        seen = len(got)
        rel = weekly(d, monday + timedelta(hours=2), ["--release"], extra_env=world.env)
        H.check_no_crash(rel, problems, "--release")
        if rel.rc != 0:
            problems.append(f"--release: exit {rel.rc}: {H.short(rel.err)}")
        released = messages(server)[seen:]
        check_sent_once(released, problems, "--release")
        if any(week_range(monday) not in m["subject"] for m in released):
            problems.append(f"--release sent {[m['subject'] for m in released][:2]}")
        rr, data = runs(d, monday + timedelta(hours=3), db=world.db, extra_env=world.env)
        if rr.rc != 0:
            problems.append(f"raon runs after --release: exit {rr.rc}: {H.short(rr.err)}")
        if data is not None:
            book = {x.get("recipient"): x for x in data.get("deliveries", []) if x.get("week") == f"{monday:%Y-%m-%d}"}
            for m in released:
                x = book.get(m["to"], {})
                if x.get("status") != "sent" or x.get("sends") != 1:
                    problems.append(f"{m['to']}: ledger {x.get('status')} sends {x.get('sends')}")
                if set((x.get("messageId") or "").split()) != {m["id"]}:
                    problems.append(f"{m['to']}: ledger Message-ID {x.get('messageId')!r}, received {m['id']!r}")
        seen = len(messages(server))
        again = weekly(d, monday + timedelta(hours=4), ["--release"], extra_env=world.env)
        if again.rc != 0 or "nothing is held" not in again.stdout:
            problems.append(f"a second --release: exit {again.rc}: {H.short(again.out)}")
        rerun = weekly(d, monday + timedelta(hours=5), ["--deliver-pending"], extra_env=world.env)
        if rerun.rc != 0:
            problems.append(f"--deliver-pending after --release: exit {rerun.rc}: {H.short(rerun.err)}")
        late = messages(server)[seen:]
        if late:
            problems.append(f"after --release, {len(late)} more messages: {[(m['kind'], m['to']) for m in late]}")
    finally:
        server.stop()
    return problems


# ---------------------------------------------------------------------------------------
# weekly_lock
# ---------------------------------------------------------------------------------------

LOCK_MODES = [[], ["--resend"], ["--deliver-pending"], ["--release"]]


def lock_targets():
    """(label, setup(d) -> (lock value, [paths to keep byte for byte]))."""
    inbox = "inbox/" + INBOX_NAME
    published = "out/2024-W37/report.json"

    def plain(value, *keep):
        return lambda d: (value(d) if callable(value) else value, [os.path.join(d, k) for k in (keep or (value,))])

    def link(target, name="planted.lock", absolute=False):
        def setup(d):
            os.symlink(os.path.join(d, target) if absolute else target, os.path.join(d, name))
            return name, [os.path.join(d, name)] + ([os.path.join(d, target)] if os.path.exists(os.path.join(d, target)) else [])
        return setup

    def foreign(content, name="notes.txt"):
        def setup(d):
            with open(os.path.join(d, name), "wb") as f:
                f.write(content)
            return name, [os.path.join(d, name)]
        return setup

    def fifo(d):
        os.mkfifo(os.path.join(d, "pipe.lock"))
        return "pipe.lock", [os.path.join(d, "pipe.lock")]

    def folder(d):
        os.makedirs(os.path.join(d, "lockdir"))
        with open(os.path.join(d, "lockdir", "keep.txt"), "w") as f:
            f.write("keep\n")
        return "lockdir", [os.path.join(d, "lockdir", "keep.txt")]

    def hardlink(d):
        os.link(os.path.join(d, "raon.sqlite"), os.path.join(d, "store-link.lock"))
        return "store-link.lock", [os.path.join(d, "raon.sqlite")]

    def chain(d):
        os.symlink("raon.sqlite", os.path.join(d, "one.lock"))
        os.symlink("one.lock", os.path.join(d, "two.lock"))
        return "two.lock", [os.path.join(d, "two.lock"), os.path.join(d, "one.lock"), os.path.join(d, "raon.sqlite")]

    return [
        ("the store", plain("raon.sqlite")),
        ("the store, absolute", lambda d: (os.path.join(d, "raon.sqlite"), [os.path.join(d, "raon.sqlite")])),
        ("the store, ./raon.sqlite", lambda d: ("./raon.sqlite", [os.path.join(d, "raon.sqlite")])),
        ("the store, inbox/../raon.sqlite", lambda d: ("inbox/../raon.sqlite", [os.path.join(d, "raon.sqlite")])),
        ("the store by a hard link", hardlink),
        ("the config", plain("raon.toml")),
        ("the config, absolute", lambda d: (os.path.join(d, "raon.toml"), [os.path.join(d, "raon.toml")])),
        ("the download", plain(inbox)),
        ("a published file", plain(published)),
        ("a link to the store", link("raon.sqlite")),
        ("an absolute link to the store", link("raon.sqlite", absolute=True)),
        ("a link to the config", link("raon.toml")),
        ("a link to the download", link(inbox)),
        ("a link to a link to the store", chain),
        ("a dangling link", link("nowhere/weekly.lock")),
        ("a dangling link to a name of its own", link("victim-to-be.lock")),
        ("a link to a folder", link("out")),
        ("a folder", folder),
        ("a FIFO", fifo),
        ("a text file", foreign(b"hello\nworld\n")),
        ("an empty file", foreign(b"", "empty.lock")),
        ("a binary file", foreign(bytes(range(256)) * 8, "blob.lock")),
        ("a pid line followed by a line of the user's",
         foreign(b"pid 4242 since 2024-09-09T07:00:00+09:00\nmy notes\n", "old.lock")),
        ("a pid line in a longer first line", foreign(b"pid 4242 since then, said the note; and more\n" * 10, "pid.lock")),
        ("a file with a Korean name", foreign("잠금 파일이 아님\n".encode(), "잠금.lock")),
    ]


def family_lock(n, rng):
    cases = []
    for i, (label, setup) in enumerate(lock_targets()):
        modes = LOCK_MODES if i % 2 == 0 else [LOCK_MODES[0], LOCK_MODES[i % 4 or 1]]
        for mode in modes:
            cases.append((f"lock = {label} ({' '.join(['weekly'] + mode)})",
                          lambda d, s=setup, m=mode: case_lock_file(d, s, m)))
    for mode in LOCK_MODES[:2]:
        cases.append((f"lock = an old Raon's lock file (pid … since …) taken over ({' '.join(['weekly'] + mode)})",
                      lambda d, m=mode: case_legacy_lock(d, m)))
    for i in range(36):
        shape = ["configs", "dirs", "linked", "env", "lockfile", "postgres"][i % 6]
        offset = rng.random()
        cases.append((f"two runs on one store ({shape}), the second at {offset:.2f} of the first",
                      lambda d, s=shape, o=offset: case_two_runs(d, s, o)))
    return cases


def fingerprint(path):
    st = os.lstat(path)
    if os.path.islink(path):
        return ("link", os.readlink(path))
    import stat as st_
    if st_.S_ISFIFO(st.st_mode):
        return ("fifo", st.st_size)
    if st_.S_ISDIR(st.st_mode):
        return ("dir", sorted(os.listdir(path)))
    return ("file", st.st_size, sha(path))


def case_lock_file(d, setup, mode):
    problems = []
    Base.copy(d)
    value, keep = setup(d)
    before = {p: fingerprint(p) for p in keep}
    server = M.Scripted(os.path.join(d, "srv"), {}, certs=Base.certs)
    try:
        write_config(d, server, lock=value)
        for p in keep:  # the config may be among them: written first, then fingerprinted
            before[p] = fingerprint(p)
        r0, data0 = runs(d, MONDAYS[1])
        r = weekly(d, MONDAYS[0] + timedelta(hours=3), mode, timeout=60)
        got = messages(server)
    finally:
        server.stop()
    H.check_no_crash(r, problems)
    if r.rc != 78:
        problems.append(f"exit {r.rc}, expected 78: {H.short(r.err)} {H.short(r.out)}")
    errors = error_lines(r)
    if len(errors) != 1:
        problems.append(f"{len(errors)} Error lines: {H.short(r.err)}")
    elif "lock" not in errors[0]:
        problems.append(f"the error does not say it is the lock: {errors[0]}")
    for p in keep:
        try:
            now = fingerprint(p)
        except OSError as e:
            problems.append(f"{os.path.relpath(p, d)} is gone: {e}")
            continue
        if now != before[p]:
            problems.append(f"{os.path.relpath(p, d)} changed: {before[p]} → {now}")
    for name in ("victim-to-be.lock", "nowhere"):
        if os.path.lexists(os.path.join(d, name)):
            problems.append(f"{name} was created through the link")
    if got:
        problems.append(f"{len(got)} messages sent")
    r1, data1 = runs(d, MONDAYS[1])
    if data0 is not None and data1 is not None and len(data1.get("runs", [])) != len(data0.get("runs", [])):
        problems.append("a run was recorded")
    H.integrity(os.path.join(d, "raon.sqlite"), problems)
    return problems


def case_legacy_lock(d, mode):
    """The lock file of the Raon before the signature (one line, `pid N on HOST since
    TIME`) is Raon's own: taken over, rewritten with the signature, the run done."""
    problems = []
    Base.copy(d)
    path = os.path.join(d, "run", "weekly.lock")
    os.makedirs(os.path.dirname(path))
    with open(path, "w") as f:
        f.write("pid 4242 on web1 since 2024-09-02 07:00 KST\n")
    server = M.Scripted(os.path.join(d, "srv"), {}, certs=Base.certs)
    try:
        write_config(d, server, lock="run/weekly.lock")
        r = weekly(d, MONDAYS[0] + timedelta(hours=3), mode, timeout=120)
        got = messages(server)
    finally:
        server.stop()
    H.check_no_crash(r, problems)
    if r.rc != 0:
        problems.append(f"exit {r.rc}: {H.short(r.err)}")
    with open(path, encoding="utf-8") as f:
        first = f.readline().rstrip("\n")
    if first != "raon weekly lock — delete only when no raon weekly runs":
        problems.append(f"the lock file's first line is now {first!r}")
    if mode == ["--resend"]:
        check_sent_once(got, problems, "--resend")
    elif got:
        problems.append(f"{len(got)} messages for a week already sent")
    return problems


def case_two_runs(d, shape, offset):
    """Two runs of one Monday on one store, the second started `offset` of the way through
    the first's delivery (through a server answering slowly)."""
    problems = []
    world = World(d, pg=shape == "postgres")
    monday = MONDAYS[1]
    new = os.path.join(d, "inbox", "download.csv")
    shutil.copyfile(Base.variants[0], new)
    set_mtime(new, monday - timedelta(minutes=8))
    server = M.Scripted(os.path.join(d, "srv"), {"delay": 0.08}, certs=Base.certs)
    store = world.db
    try:
        a_dir, a_args, a_env = d, [], world.env
        b_dir, b_args, b_env = d, [], world.env
        if shape == "configs":
            write_config(d, server)
            write_config(d, server, name="raon-b.toml", out="out-b")
            b_args = ["--config", os.path.join(d, "raon-b.toml")]
        else:
            b_dir = os.path.join(d, "machine-b")
            os.makedirs(os.path.join(b_dir, "inbox"))
            shutil.copy2(new, os.path.join(b_dir, "inbox", "download.csv"))
            if shape == "dirs":
                write_config(d, server)
                write_config(b_dir, server, db=json.dumps(store))
            elif shape == "linked":
                write_config(d, server)
                os.symlink(store, os.path.join(b_dir, "raon.sqlite"))
                write_config(b_dir, server)
            elif shape == "env":
                write_config(d, server, db=None)
                write_config(b_dir, server, db=None)
                a_env = {"RAON_DB": store}
                b_env = {"RAON_DB": os.path.join("..", "raon.sqlite")}
            elif shape == "lockfile":
                write_config(d, server, lock="run/weekly.lock")
                write_config(b_dir, server, db=json.dumps(store))
            elif shape == "postgres":
                # Two machines on one PostgreSQL store: no file in common at all.
                write_config(d, server, db=world.config_db)
                write_config(b_dir, server, db=world.config_db)
        timing = Base.__dict__.get("two_run_seconds")
        start = time.monotonic()
        first = subprocess.Popen([H.Ctx.raon, "weekly"] + a_args, cwd=a_dir, env=env(monday, a_env),
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        ended = {}
        watcher = threading.Thread(target=lambda: ended.setdefault("t", (first.wait(), time.monotonic())[1]))
        watcher.start()
        # The second starts `offset` of the way from the start to the first's last message
        # (measured once); before the first connection when offset is small.
        wait = offset * (timing or 6.0)
        time.sleep(wait)
        second = H.run(["weekly"] + b_args, b_dir, env=env(monday, b_env), timeout=300)
        out, err = first.communicate(timeout=300)
        watcher.join()
        if timing is None:
            Base.two_run_seconds = max(1.0, ended["t"] - start)
        rcs = (first.returncode, second.rc)
        H.note("weekly_lock", f"two runs: exits {rcs}")
        for rc, what, e in ((first.returncode, "the first", err), (second.rc, "the second", second.err)):
            if rc not in (0, 69):
                problems.append(f"{what} run: exit {rc}: {H.short(e)}")
            if rc == 69 and b"another raon weekly is running" not in e:
                problems.append(f"{what} run: 69 without naming the run: {H.short(e)}")
        if 0 not in rcs:
            problems.append(f"neither run succeeded: {rcs}")
        # Each loser, run again: nothing more to send.
        for rc, wd, args, e in ((first.returncode, a_dir, a_args, a_env), (second.rc, b_dir, b_args, b_env)):
            if rc == 69:
                again = weekly(wd, monday + timedelta(minutes=20), args, e)
                if again.rc != 0:
                    problems.append(f"the refused run, again: exit {again.rc}: {H.short(again.err)}")
        got = [m for m in messages(server) if m["kind"] == "report"]
        check_sent_once(got, problems, "the week")
        rr, data = runs(d, monday + timedelta(hours=1), db=store, extra_env=world.env)
        if data is not None:
            book = [x for x in data.get("deliveries", []) if x.get("week") == f"{monday:%Y-%m-%d}"]
            if sorted(x.get("recipient") for x in book) != RECIPIENTS or any(
                    x.get("status") != "sent" or x.get("sends") != 1 for x in book):
                problems.append(f"the ledger: {[(x.get('recipient'), x.get('status'), x.get('sends')) for x in book]}")
            ids = {m["to"]: m["id"] for m in got}
            for x in book:
                if x.get("messageId") and ids.get(x.get("recipient")) and x["messageId"] != ids[x["recipient"]]:
                    problems.append(f"{x.get('recipient')}: ledger id {x['messageId']} ≠ received {ids[x['recipient']]}")
        else:
            problems.append("raon runs --json is not JSON")
        world.integrity(problems)
    finally:
        server.stop()
    return problems
