"""Issue 49's hostile families for the weekly service's settings and Raon's children, hooked
into run_hostile.py by `register` (the mail server and the published week they use are
families_mail.py's).

  mail_config   `[weekly]`, `[mail]` and `[document]` mutated a key at a time — wrong types,
                CR/LF and header look-alikes, NUL/ESC/U+2028/U+202E/BOM/zero-width characters,
                full-width '@' and homoglyphs, bad ports, malformed addresses (issue 49 items
                5 and 6), huge values, unknown and duplicated keys: `raon weekly --dry-run
                --deliver-pending` either reads the file (exit 0) or stops with exit 78 and
                one line naming raon.toml:LINE (the mutated key's line); never a crash. The
                ports and addresses of items 5 and 6 must be refused. Every mutant of a
                sender, an address or a document field that loads is delivered to a scripted
                server: no received header is bent (no injected Bcc/Subject/X- header, the
                header ASCII), and nobody outside the lists receives anything.
  child_env     the environment of every process Raon starts while it lives
                (/proc/PID/environ, read every 5 ms by Tests/Scripts/raon_testkit/proc_env.py):
                a stand-in Chromium wrapper that also writes its environment down, and the
                real Chromium (browser, zygote, renderers, crash handler) for `raon report
                --format pdf` and `raon weekly` with PDF attachments. Raon's secrets
                (SEOUL_API_KEY, DATA_GO_KR_KEY, RAON_SMTP_PASSWORD, PGPASSWORD, RAON_DB),
                variables named like secrets (*_TOKEN, *_PASSWORD, *_SECRET, *_KEY) and
                copies of a secret's value under another name never reach a child; the
                variables a browser needs (PATH, HOME, LANG) reach the wrapper.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import families_mail as M

H = None

DOCUMENT = '[document]\ndepartment = "문화본부 문화정책과"\nofficer = "주무관 홍길동"\nphone = "02-2133-0000"\n'
MAIL_KEYS = ["server", "from", "user", "ca_file", "operator", "city", "max_message_bytes", "timeout"]
WEEKLY_KEYS = ["source", "formats", "districts", "out", "retry_for", "retry_wait"]
DOCUMENT_KEYS = ["department", "officer", "phone"]

TYPES = ["1", "-1", "0", "1.5", "true", "[]", "[1, 2]", "{}", "{ a = 1 }", "1979-05-27", "\"\"", "\"   \"",
         "9223372036854775807", "-9223372036854775808", "inf", "nan", "[\"a\", 1]", "[[]]"]
TRICKS = [
    r'"a@x.kr\r\nBcc: evil@example.org"', r'"x\nSubject: evil"', r'"문화정책과\r\n\r\nbody"', r'"\u0000"',
    r'"\u001b[31mred"', r'"\u2028Bcc: evil@example.org"', r'"\u202eevil"', r'"\ufeffculture@example.go.kr"',
    r'"culture\u200b@example.go.kr"', r'"culture＠example.go.kr"', r'"сulture@example.go.kr"',
    r'"culture@example.go.kr\r\nX-Evil: 1"', r'"=?UTF-8?B?QmNjOiBldmls?= <culture@example.go.kr>"',
    '"""culture@example.go.kr\nBcc: evil@example.org"""', r'"A Name <culture@example.go.kr>, Bcc <evil@example.org>"',
    r'"\"Quoted\" <culture@example.go.kr>"', r'"문화정책과 <CULTURE@EXAMPLE.GO.KR>"', r'"e\u0301 <culture@example.go.kr>"',
]
BAD_ADDRESSES = ["a@-x.kr", ".a@x.kr", "a..b@x.kr", "a@x-.kr", "a.@x.kr", "a@x..kr", "a@.x.kr", "a@x.kr.", "a@x",
                 "a@x_y.kr", "a@[127.0.0.1]", "a@127.0.0.1", "담당@x.kr", "a@문화.한국", "a b@x.kr", "a@b@x.kr",
                 "\"a\"@x.kr", "a(c)@x.kr", "@x.kr", "a@", "a@" + "b" * 64 + ".kr", "a" * 65 + "@x.kr"]
BAD_PORTS = ["smtp://127.0.0.1:99999", "smtp://127.0.0.1:0", "smtp://127.0.0.1:65536", "smtp://127.0.0.1:abc",
             "smtp://127.0.0.1:", "smtp://127.0.0.1:-25", "smtps://127.0.0.1:0", "smtp://[::1]:0",
             "smtp://127.0.0.1:587/x%0d%0aMAIL", "smtp://-bad.example:587", "smtp://user:pw@127.0.0.1:587"]
HUGE = ['"' + "x" * 100_000 + '"', "[" + ", ".join(f'"a{i}@example.go.kr"' for i in range(5000)) + "]",
        '"a@' + "b" * 300 + '.kr"', "99999999999999999999", '"' + "가" * 30_000 + '"']
UNKNOWN = ['bcc = ["evil@example.org"]', 'headers = "X-Evil: 1"', 'Server = "smtp://127.0.0.1:25"',
           'reply_to = "evil@example.org"', '"from " = "x@y.kr"']


def register(module):
    global H
    H = module
    for name, builder in (("mail_config", family_mail_config), ("child_env", family_child_env)):
        H.DEFAULT_COUNTS[name] = 0
        H.FAMILIES.append(name)
        H.BUILDERS[name] = builder
    H.QUICK["mail_config"] = lambda cases: cases[::10]
    H.QUICK["child_env"] = lambda cases: [c for c in cases if "stand-in" in c[0]][:4] + \
        [c for c in cases if "real Chromium" in c[0]][:1]


# ---------------------------------------------------------------------------------------
# mail_config
# ---------------------------------------------------------------------------------------

class Probe:
    """Whether this build reads [document] (the fifth round's head of every report)."""
    document = None


def base_lines(port=25, ca="ca.pem", document=True):
    text = M.config_text(port, ca)
    if document:
        text = text.replace("[mail]\n", DOCUMENT + "\n[mail]\n")
    return text.split("\n")


def document_known(d):
    if Probe.document is None:
        probe = os.path.join(d, "probe")
        os.makedirs(probe)
        with open(os.path.join(probe, "raon.toml"), "w", encoding="utf-8") as f:
            f.write("\n".join(base_lines()))
        r = H.run(["weekly", "--dry-run", "--deliver-pending"], probe, env=M.env())
        Probe.document = r.rc == 0
        shutil.rmtree(probe, ignore_errors=True)
        H.note("mail_config", f"[document] {'read' if Probe.document else 'not known to this build: its cases expect 78'}")
    return Probe.document


def mutate(lines, section, key, value):
    """The lines with `key` of `section` set to `value` (the key added if absent); the
    1-based line of the key."""
    out, current, done, line = [], None, False, None
    for text in lines:
        stripped = text.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            if current == section and not done:
                out.append(f"{key} = {value}")
                line, done = len(out), True
            current = stripped[1:-1]
        if current == section and not done and re.match(rf"^{re.escape(key)}\s*=", stripped):
            out.append(f"{key} = {value}")
            line, done = len(out), True
            continue
        out.append(text)
    if not done:
        out.append(f"{key} = {value}")
        line = len(out)
    return out, line


def family_mail_config(n, rng):
    cases = []

    def add(label, section, key, value, must_fail=False, deliver=False):
        cases.append((f"[{section}] {key} = {value[:50]}", lambda d: case_mail_config(
            d, section, key, value, must_fail, deliver)))

    for key in MAIL_KEYS:
        for value in TYPES + HUGE:
            add("type", "mail", key, value)
        for value in TRICKS:
            add("trick", "mail", key, value, deliver=key in ("from", "city", "operator"))
    for value in BAD_PORTS:
        add("port", "mail", "server", json.dumps(value), must_fail=True)
    for key in ("from", "city", "operator"):
        for address in BAD_ADDRESSES:
            value = json.dumps(address) if key == "from" else json.dumps([address])
            add("address", "mail", key, value, must_fail=True)
    for address in BAD_ADDRESSES[:8]:
        add("address", "mail.districts", '"종로구"', json.dumps([address]), must_fail=True)
    for value in ["0", "-5", '"0"', '"3601"', '"1h1s"', '"soon"', '"1.5s"', "3601"]:
        add("timeout", "mail", "timeout", value, must_fail=True)
    for line in UNKNOWN:
        key, _, value = line.partition(" = ")
        add("unknown", "mail", key, value, must_fail=True)
    for key in WEEKLY_KEYS:
        for value in TYPES[:12] + TRICKS[:6] + HUGE[:2]:
            add("weekly", "weekly", key, value)
    for key in DOCUMENT_KEYS:
        for value in TYPES[:8] + TRICKS + HUGE[:1]:
            add("document", "document", key, value, deliver=value in TRICKS)
    return cases


def case_mail_config(d, section, key, value, must_fail, deliver):
    problems = []
    lines, line = mutate(base_lines(document=document_known(d) or section == "document"), section, key, value)
    with open(os.path.join(d, "raon.toml"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    r = H.run(["weekly", "--dry-run", "--deliver-pending"], d, env=M.env())
    H.check_no_crash(r, problems, "raon weekly --dry-run")
    if r.rc == "timeout":
        return problems
    if r.rc not in (0, 78):
        problems.append(f"exit {r.rc}: {H.short(r.err)}")
    if must_fail and r.rc != 78:
        problems.append(f"accepted (exit {r.rc}); issue 49 items 5/6 want exit 78")
    if r.rc == 78:
        H.check_one_line_error(r, problems)
        m = re.search(rb"raon\.toml:(\d+):", r.err)
        if not m:
            problems.append(f"the error does not name raon.toml:LINE: {H.short(r.err)}")
        elif not 1 <= int(m.group(1)) <= len(lines):
            problems.append(f"names line {m.group(1)} of a file of {len(lines)}")
        elif "\n" not in value and int(m.group(1)) != line and section != "document":
            # Another key's line is right when the message is about that key (districts = []
            # makes [mail.districts]' "종로구" the mistake).
            named = lines[int(m.group(1)) - 1].split("=")[0].strip().strip('"\'')
            if not named or named.encode() not in r.err:
                problems.append(f"names line {m.group(1)}; the key is on line {line}")
    H.note("mail_config", f"exit {r.rc}")
    if os.path.exists(os.path.join(d, "raon.sqlite")) or os.path.exists(os.path.join(d, "out")):
        problems.append("a dry run wrote the store or out/")
    if deliver and r.rc == 0:
        problems += deliver_mutant(d, lines)
    return problems


def deliver_mutant(d, lines):
    """Sends the published week with the mutated config; the headers received stay whole."""
    problems = []
    week = os.path.join(d, "week")
    os.makedirs(week)
    M.World.copy(week)
    server = M.Scripted(os.path.join(week, "srv-config"), {})
    try:
        text = "\n".join(lines)
        text = re.sub(r'server = "smtp://127\.0\.0\.1:\d+"', f'server = "smtp://127.0.0.1:{server.port}"', text)
        text = re.sub(r'ca_file = "[^"\n]*"', f'ca_file = "{server.ca}"', text, count=1)
        with open(os.path.join(week, "raon.toml"), "w", encoding="utf-8") as f:
            f.write(text)
        r = H.run(["weekly", "--deliver-pending"], week, env=M.env(), timeout=300)
    finally:
        server.stop()
    H.check_no_crash(r, problems, "delivery")
    allowed = set(M.RECIPIENTS) | {M.OPS}
    for envelope, raw in server.envelopes():
        outsiders = set(envelope.get("rcpt_tos", [])) - allowed
        if outsiders:
            problems.append(f"delivered to {sorted(outsiders)}")
        head = raw.split(b"\r\n\r\n", 1)[0]
        if any(b > 127 for b in head):
            problems.append("a header holds raw non-ASCII bytes")
        for header in head.split(b"\r\n"):
            if re.match(rb"(?i)^(bcc|x-evil|subject: evil|reply-to)", header):
                problems.append(f"an injected header: {header[:60]!r}")
            if len(header) > 998:
                problems.append(f"a header line of {len(header)} bytes")
    M.check_secrets(d, [r], problems)
    return problems


# ---------------------------------------------------------------------------------------
# child_env
# ---------------------------------------------------------------------------------------

SECRETS = {"SEOUL_API_KEY": "seoul-KEY-0a1b2c3d4e", "DATA_GO_KR_KEY": "national-KEY-5f6e7d8c9b",
           "RAON_SMTP_PASSWORD": "smtp-PASSWORD-a9b8c7d6", "PGPASSWORD": "pg-PASSWORD-1q2w3e4r"}
SHAPED = {"DEPLOY_TOKEN": "deploy-TOKEN-z9y8x7w6", "BACKUP_PASSWORD": "backup-PW-6t5r4e3w",
          "S3_SECRET": "s3-SECRET-2k3j4h5g", "MAPS_API_KEY": "maps-KEY-9o8i7u6y", "app_secret_key": "app-KEY-1z2x3c4v"}


def family_child_env(n, rng):
    cases = []
    sets = [("each of Raon's secrets", dict(SECRETS)), ("secret-shaped names", dict(SHAPED)),
            ("a copy under another name", {"SEOUL_API_KEY": SECRETS["SEOUL_API_KEY"],
                                           "INNOCENT": "x-" + SECRETS["SEOUL_API_KEY"] + "-y"}),
            ("RAON_DB with a password", {"RAON_DB": "postgresql://raon@127.0.0.1:1/x?password=db-PW-0p9o8i7u"}),
            ("all at once", {**SECRETS, **SHAPED})]
    for name in SECRETS:
        sets.append((f"{name} alone", {name: SECRETS[name]}))
    for label, secrets in sets:
        cases.append((f"stand-in Chromium, raon report: {label}",
                      lambda d, s=secrets: case_child_env(d, s, real=False, weekly=False)))
    cases.append(("stand-in Chromium, raon weekly with PDF attachments: all",
                  lambda d: case_child_env(d, {**SECRETS, **SHAPED}, real=False, weekly=True)))
    cases.append(("real Chromium, raon report --format pdf: all",
                  lambda d: case_child_env(d, {**SECRETS, **SHAPED}, real=True, weekly=False)))
    cases.append(("real Chromium, raon weekly with PDF attachments: all",
                  lambda d: case_child_env(d, {**SECRETS, **SHAPED}, real=True, weekly=True)))
    return cases


def chromium():
    path = os.environ.get("RAON_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser") \
        or shutil.which("google-chrome")
    if not path:
        raise H.Skip("no Chromium on this machine")
    return path


def case_child_env(d, secrets, real, weekly):
    problems = []
    dump = os.path.join(d, "wrapper-env.txt")
    if real:
        target = chromium()
    else:
        target = H.fake_chromium.write(os.path.join(d, "fake-chromium"), "good")
    wrapper = os.path.join(d, "chromium-wrapper")
    with open(wrapper, "w") as f:
        f.write(f"#!/bin/sh\nenv > '{dump}'\nexec '{target}' \"$@\"\n")
    os.chmod(wrapper, 0o755)
    extra = dict(secrets)
    extra["RAON_CHROMIUM"] = wrapper
    if weekly:
        secrets = dict(secrets, RAON_SMTP_PASSWORD=M.PASSWORD)
        M.World.copy(d)
        server = M.Scripted(os.path.join(d, "srv-env"), {})
        text = M.config_text(server.port, server.ca).replace('formats = ["xlsx", "html", "json"]', 'formats = ["pdf", "xlsx"]')
        with open(os.path.join(d, "raon.toml"), "w", encoding="utf-8") as f:
            f.write(text)
        extra["RAON_SMTP_PASSWORD"] = M.PASSWORD
        extra.setdefault("SEOUL_API_KEY", M.API_KEY)
        # The week's report again, now with PDFs (the formats changed), then its deliveries.
        args = ["weekly"]
    else:
        server = None
        args = ["report", "--input", H.Ctx.inputs["S0"], "--taken-at", "2024-09-09", "--db",
                os.path.join(d, "r.sqlite"), "--out", os.path.join(d, "out"), "--format", "pdf"]
    env = H.base_env(extra)
    if "RAON_DB" in secrets:
        env["RAON_DB"] = secrets["RAON_DB"]
    try:
        p = subprocess.run([sys.executable, "-m", "raon_testkit.proc_env", "--cwd", d, "--timeout", "500", "--",
                            H.Ctx.raon] + args, cwd=M.KIT, env=env, capture_output=True, timeout=600)
    finally:
        if server:
            server.stop()
    try:
        result = json.loads(p.stdout)
    except ValueError:
        return [f"proc_env gave no JSON: {H.short(p.stderr)}"]
    if result["status"] not in (0,):
        problems.append(f"raon {args[0]}: exit {result['status']}: {H.short(result['stderr'].encode())}")
    processes = result["processes"]
    if not any("chrom" in " ".join(x["cmdline"]) for x in processes):
        problems.append(f"no Chromium process was seen ({len(processes)} processes)")
    H.note("child_env", f"{'real' if real else 'stand-in'}: {min(len(processes), 20)}{'+' if len(processes) >= 20 else ''} "
           "processes read")
    values = [v for v in secrets.values() if len(v) >= 8]
    for x in processes:
        command = " ".join(x["cmdline"][:1])
        for name in secrets:
            if name in x["environ"]:
                problems.append(f"{os.path.basename(command)} (pid {x['pid']}) holds {name}")
        for name, value in x["environ"].items():
            if any(v in value for v in values):
                problems.append(f"{os.path.basename(command)} holds a secret's value in {name}")
    if os.path.exists(dump):
        with open(dump, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name, value in secrets.items():
            if f"{name}=" in text or (len(value) >= 8 and value in text):
                problems.append(f"the wrapper's environment holds {name}")
        # What a browser needs is still there (Chromium itself gives its helpers less).
        for needed in ("PATH", "HOME", "LANG"):
            if f"\n{needed}=" not in "\n" + text:
                problems.append(f"the wrapper's environment lost {needed}")
    else:
        problems.append("the wrapper never ran")
    return sorted(set(problems))
