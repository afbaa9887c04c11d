"""The hostile family for `raon weekly`'s HTTP webhook channel (`[webhook.NAME]`), hooked into
run_hostile.py by `register` (one import and one call there).

  weekly_webhook  A published week (store and `out/`) after one `raon weekly` without the
                RAON_WEBHOOK_* variables — `webhook:city` (list "city", the default timeout) and
                `webhook:jongno` (list "종로구", timeout "3s") pending, and the mail too ([mail] at
                a port nobody listens on) — copied by each case, which runs `raon weekly
                --deliver-pending` with the variables pointing at a hostile endpoint (a raw-socket
                HTTP server in a thread here, recording every request), then again at a good
                one. Cases: each hook answered 200…599 (the other 200); no answer, closed before
                or after the body, garbage for HTTP, headers then nothing, a 200 a byte at a time
                or 5 s late, an 8 MB body, a 500 echoing the token, redirects (301…308) to a
                path with the token; the variable unset, empty, blank, ftp://, not a URL, port 0
                or 65536, https:// to plain HTTP, a closed port, a user:password@ login; SIGKILL,
                SIGTERM, SIGINT at random moments of a delivery to a slow endpoint.
                Checked: no crash; exit 75 (the mail stays pending), 130/143 after an interrupt
                and no `.raon-partial*` left; each run within 3 × the timeout + 20 s; stderr one
                line per problem (`warning: …`, then `Error: …`), no control bytes; the ledger
                (`raon runs --json`) sent exactly when the endpoint answered the payload (a POST
                with it) 2xx, its `HTTP nnn` that answer, pending otherwise; after the rerun each
                hook sent, sends = 1, the endpoint holding the first run's copies and one more if
                it left the hook pending (one or two when the first went unanswered, or a SIGKILL
                hit it in flight; SIGTERM/SIGINT wait for the request in hand); each payload JSON
                of its list with a title and sentences; the token, the URL's password (also in a
                Basic login) and the API key in no stdout, stderr or file of the case; a variable
                Raon cannot use named in its output; the mail pending after every run (a mail
                server out of reach never stops the webhooks).
"""
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time

H = None  # the run_hostile module, set by register()

API_KEY = "HOSTILE-HOOK-KEY-3a2b1c0d"
TOKENS = {"city": "HookTok-city-9f8e7d6c", "jongno": "HookTok-jongno-5b4a3928"}
VARS = {"city": "RAON_WEBHOOK_CITY", "jongno": "RAON_WEBHOOK_JONGNO"}
LISTS = {"city": "city", "jongno": "종로구"}
TIMEOUTS = {"city": 30, "jongno": 3}  # city: the default
PASSWORD = "Secr3tPw-in-url"
MAIL = {"city": ["city1@example.go.kr", "city2@example.go.kr"], "종로구": ["jongno@example.go.kr"],
        "중구": ["junggu@example.go.kr"]}
ADDRESSES = [a for x in MAIL.values() for a in x]
UNKNOWN = "unknown"  # an outcome not pinned, a 2xx maybe unread (a SIGKILL); None: not pinned, strict


def register(module):
    global H
    H = module
    H.DEFAULT_COUNTS["weekly_webhook"] = 0
    H.FAMILIES.append("weekly_webhook")
    H.BUILDERS["weekly_webhook"] = family_weekly_webhook
    H.QUICK["weekly_webhook"] = lambda cases: cases[::8]


# --- The hostile endpoint ---------------------------------------------------------------

class Endpoint:
    """An HTTP server on 127.0.0.1 (raw sockets, a thread per connection) that records each
    request ({hook, method, path, headers, body, complete, t, answered, status}) and answers as
    `script[hook]` says: {"status": n, "delay": s} or {"act": hang | close | close_early | garbage
    | headers_hang | trickle | huge | echo | redirect}; …/moved (a redirect's target) gets 200."""

    def __init__(self, script=None):
        self.script = script or {}
        self.requests, self.conns, self.stopping = [], [], threading.Event()
        self.sock = socket.create_server(("127.0.0.1", 0), backlog=64)
        self.port = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, hook, login=""):
        return f"http://{login}127.0.0.1:{self.port}/hook/{TOKENS[hook]}"

    def stop(self):
        self.stopping.set()
        self.sock.close()
        for c in list(self.conns):
            c.close()

    def posts(self, hook):
        """The payloads the hook was sent (complete POSTs with a body)."""
        return [r for r in self.requests if r["hook"] == hook and r["method"] == "POST" and r["complete"] and r["body"]]

    def _accept(self):
        while True:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(c)
            threading.Thread(target=self._serve, args=(c,), daemon=True).start()

    def _serve(self, c):
        with c:
            try:
                c.settimeout(60)
                self._handle(c)
            except OSError:
                pass

    def _handle(self, c):
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = c.recv(65536)
            if not chunk or len(buf) > 1 << 20:
                return
            buf += chunk
        head, _, rest = buf.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/"):
            return  # not HTTP (a TLS hello)
        headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
        path = parts[1]
        hook = next((h for h, t in TOKENS.items() if t in path), None)
        rec = {"hook": hook, "method": parts[0], "path": path, "headers": headers, "body": b"", "complete": False,
               "t": time.time(), "answered": None, "status": None}
        self.requests.append(rec)
        how = {"status": 200} if path.endswith("/moved") else self.script.get(hook, {"status": 200})
        act = how.get("act", "status")
        if act == "close_early":
            return
        if headers.get("expect", "").lower() == "100-continue":
            c.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        n = int(headers.get("content-length") or 0)  # none (chunked): an empty body, a bad payload
        while len(rest) < n:
            chunk = c.recv(65536)
            if not chunk:
                return
            rest += chunk
        rec.update(body=rest[:n], complete=True, t=time.time())
        if act in ("hang", "headers_hang", "close", "garbage"):  # no (whole) answer
            c.sendall({"headers_hang": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nok",
                       "garbage": b"\x00\xff\x1b[31mNOT HTTP " + path.encode() + b"\r\n\x07\r\n\r\n" + os.urandom(512)
                       }.get(act, b""))
            if act.endswith("hang"):
                self.stopping.wait()
            return
        status, extra, payload = how.get("status", 200), [], b""
        if act == "huge":
            payload = b"x" * 8_000_000
        elif act == "echo":
            status, extra = 500, [f"X-Echo: {path}", f"X-Token: {hook and TOKENS[hook]}"]
            payload = f"error at {path}: {json.dumps(headers)}".encode()
        elif act == "redirect":
            status, extra = how.get("status", 302), [f"Location: http://127.0.0.1:{self.port}{path}/moved"]
            payload = f"moved to {path}/moved".encode()
        time.sleep(how.get("delay", 0))
        reply = (f"HTTP/1.1 {status} Status{status}\r\n" + "".join(h + "\r\n" for h in extra) +
                 (f"Content-Length: {len(payload)}\r\n" if status not in (204, 304) else "") +
                 "Connection: close\r\n\r\n").encode() + (payload if status not in (204, 304) else b"")
        if act == "trickle":
            for i in range(len(reply)):
                time.sleep(how["drip"] if i else 0)
                c.sendall(reply[i:i + 1])
        else:
            c.sendall(reply)
        rec.update(answered=time.time(), status=status)
        c.shutdown(socket.SHUT_WR)
        c.settimeout(2)
        while c.recv(65536):  # until the client closes (at most a moment)
            pass


def free_port():
    with socket.create_server(("127.0.0.1", 0)) as s:  # let go at once: nobody listens there
        return s.getsockname()[1]


# --- The published week every case starts from -----------------------------------------

def env(urls=None):
    e = {k: v for k, v in H.base_env({"SEOUL_API_KEY": API_KEY}).items() if not k.startswith("RAON_WEBHOOK_")}
    e.update({VARS[h]: u for h, u in (urls or {}).items() if u is not None})
    return e


def config_text(api_base):
    districts = "".join(f'"{k}" = {json.dumps(v)}\n' for k, v in MAIL.items() if k != "city")
    return (f'db = "raon.sqlite"\napi_base = "{api_base}"\n\n[weekly]\nsource = "api"\nformats = ["xlsx", "json"]\n'
            f'districts = ["종로구", "중구"]\nout = "out"\nretry_for = "2s"\nretry_wait = "1s"\n\n'
            f'[mail]\nserver = "smtp://127.0.0.1:{free_port()}"\nfrom = "문화정책과 <culture@example.go.kr>"\n'
            f'timeout = 3\ncity = {json.dumps(MAIL["city"])}\n\n[mail.districts]\n{districts}\n'
            f'[webhook.city]\nurl_env = "{VARS["city"]}"\nlist = "city"\nsite_url = "https://raon.example.go.kr/"\n\n'
            f'[webhook.jongno]\nurl_env = "{VARS["jongno"]}"\nlist = "종로구"\ntimeout = "3s"\n')


class World:
    built = False
    template = None
    start_secs = 1.0  # launch to the first request of a delivery, measured once

    @classmethod
    def copy(cls, d):
        if not cls.built:
            cls.template = os.path.join(H.Ctx.work, "webhook-world")
            os.makedirs(cls.template)
            with open(os.path.join(cls.template, "raon.toml"), "w", encoding="utf-8") as f:
                f.write(config_text(H.Ctx.api.register("webhookworld")))
            r = H.run(["weekly"], cls.template, env=env(), timeout=900)
            book = ledger(cls.template)
            if r.rc != 75 or not book or any(book.get("webhook:" + h, {}).get("status") != "pending" for h in TOKENS):
                raise SystemExit(f"weekly_webhook: the template week was not published with its webhooks pending: "
                                 f"exit {r.rc}: {H.short(r.err, 400)} {H.short(r.out, 400)}")
            subprocess.run(["sqlite3", os.path.join(cls.template, "raon.sqlite"), "PRAGMA wal_checkpoint(TRUNCATE)"],
                           capture_output=True)
            for leftover in ("raon.sqlite-wal", "raon.sqlite-shm", "out/.raon-weekly.lock"):
                if os.path.exists(os.path.join(cls.template, leftover)):
                    os.remove(os.path.join(cls.template, leftover))
            cls.built = True
            d0 = os.path.join(H.Ctx.work, "webhook-timing")
            os.makedirs(d0)
            cls.copy(d0)
            ep = Endpoint()
            t = time.time()
            r = H.run(["weekly", "--deliver-pending"], d0, env=env({h: ep.url(h) for h in TOKENS}), timeout=300)
            ep.stop()
            if r.rc != 75 or len(ep.requests) != 2:
                raise SystemExit(f"weekly_webhook: the timing run: exit {r.rc}, {len(ep.requests)} requests")
            cls.start_secs = min(x["t"] for x in ep.requests) - t
            shutil.rmtree(d0)
        shutil.copytree(cls.template, d, dirs_exist_ok=True)


# --- Checks ----------------------------------------------------------------------------

def ledger(d, problems=None):
    """{recipient: delivery} from `raon runs --json` (its output checked for the secrets)."""
    r = H.run(["runs", "--json", "--db", os.path.join(d, "raon.sqlite")], d, env=env())
    if problems is not None:
        check_secrets(None, [r], problems)
    try:
        return {x["recipient"]: x for x in json.loads(r.out).get("deliveries", [])}
    except (ValueError, AttributeError):
        return None


def secrets():
    return [t.encode() for t in TOKENS.values()] + [PASSWORD.encode(), API_KEY.encode(),
                                                    base64.b64encode(f"raon:{PASSWORD}".encode())]


def check_secrets(d, results, problems):
    """The secrets in no output of `results` and no file under `d`."""
    found = [(f"{stream} of raon {' '.join(map(str, r.args[:2]))}", blob) for r in results
             for stream, blob in (("stdout", r.out), ("stderr", r.err))]
    for root, _, files in os.walk(d) if d else ():
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                found.append((os.path.relpath(os.path.join(root, name), d), f.read()))
    problems += [f"{s[:12]!r}… in {where}" for where, blob in found for s in secrets() if s in blob]


def check_run(r, problems, what, codes=(75,), bound=None):
    H.check_no_crash(r, problems, what)
    if r.rc == "timeout":
        return
    if r.rc not in codes:
        problems.append(f"{what}: exit {r.rc} (expected {codes}): {H.short(r.err)}")
    if H.control_bytes(r.err, allow=b"\t\n"):
        problems.append(f"{what}: control bytes on stderr: {H.short(r.err)!r}")
    lines = r.stderr.splitlines()  # one line per problem: warnings, then the error
    if any(not x.startswith(("warning: ", "Error: ")) for x in lines):
        problems.append(f"{what}: a stderr line that is neither a warning nor the error: {H.short(r.err)}")
    if r.rc in (75, 130, 143) and not (lines and lines[-1].startswith("Error: ")):
        problems.append(f"{what}: exit {r.rc} without its error line: {H.short(r.err)}")
    for hook in TOKENS:
        if sum(f"webhook:{hook}:" in x for x in lines) > 1:
            problems.append(f"{what}: more than one line about webhook:{hook}: {H.short(r.err)}")
    if bound and r.elapsed > bound:
        problems.append(f"{what} took {r.elapsed:.0f} s (bound {bound:.0f} s)")


def check_payloads(ep, problems):
    for rec in ep.requests:
        if rec["method"] != "POST" or not rec["complete"] or rec["hook"] is None:
            continue
        if not rec["headers"].get("content-type", "").startswith("application/json"):
            problems.append(f"{rec['hook']}: Content-Type {rec['headers'].get('content-type')!r}")
        try:
            p = json.loads(rec["body"])
            ok = p["list"] == LISTS[rec["hook"]] and p["title"] and p["sentences"] and p["text"] and p["files"]
        except (ValueError, KeyError, TypeError):
            ok = False
        if not ok:
            problems.append(f"{rec['hook']}: a POST to …{rec['path'][-12:]} without its list's page 1: "
                            f"{H.short(rec['body'], 60)!r}")


def check_ledger(book, ep, problems, when, outcomes=None):
    """The ledger against what the endpoint answered; the mail pending."""
    if book is None:
        problems.append(f"{when}: 'raon runs --json' is not JSON")
        return {}
    states = {}
    for hook in TOKENS:
        entry = book.get("webhook:" + hook)
        if entry is None:
            problems.append(f"{when}: no webhook:{hook} in the ledger")
            continue
        states[hook] = entry["status"]
        ok = [x for x in ep.posts(hook) if x["status"] and 200 <= x["status"] < 300]
        want = (outcomes or {}).get(hook)
        if entry["status"] == "sent":
            if not ok:
                problems.append(f"{when}: webhook:{hook} sent, but no payload of it was answered 2xx")
            elif ok and entry.get("messageId") != f"webhook {hook} HTTP {ok[-1]['status']}":
                problems.append(f"{when}: webhook:{hook} messageId {entry.get('messageId')!r}, answered "
                                f"{ok[-1]['status']}")
            if entry.get("sends") != 1:
                problems.append(f"{when}: webhook:{hook} sends = {entry.get('sends')}")
        elif entry["status"] != "pending":
            problems.append(f"{when}: webhook:{hook} is {entry['status']}")
        elif ok and want is None:  # pending pinned: the client gave up before the answer
            problems.append(f"{when}: webhook:{hook} pending, but the endpoint answered it {ok[-1]['status']}")
        if want in ("sent", "pending") and entry["status"] != want:
            problems.append(f"{when}: webhook:{hook} {entry['status']}, expected {want}")
    for a in ADDRESSES:
        if book.get(a, {}).get("status") != "pending":
            problems.append(f"{when}: the mail to {a} is {book.get(a, {}).get('status')} (its server is out of reach)")
    return states


def check_partial(d, problems, when):
    for root, dirs, files in os.walk(d):
        left = [f for f in dirs + files if ".raon-partial" in f]
        if left:
            problems.append(f"{when}: {left[:3]} left in {os.path.relpath(root, d)}")


def deliver(d, urls, bound):
    return H.run(["weekly", "--deliver-pending"], d, env=env(urls), timeout=bound + 60)


def rerun(d, ep, states, results, problems, unknown=()):
    """The rerun against a well-behaved endpoint: each hook sent; its payloads those of the
    first run and one more if that left it pending (one or two for the hooks in `unknown`)."""
    want = {h: len(ep.posts(h)) + (states.get(h) == "pending") for h in TOKENS}
    ep.script = {}
    r = deliver(d, {h: ep.url(h) for h in TOKENS}, 3 * max(TIMEOUTS.values()) + 20)
    results.append(r)
    check_run(r, problems, "the rerun")
    check_ledger(ledger(d, problems), ep, problems, "after the rerun", {h: "sent" for h in TOKENS})
    for hook in TOKENS:
        n = len(ep.posts(hook))
        if n != want[hook] and not (hook in unknown and n in (1, 2)):
            problems.append(f"webhook:{hook} received {n} payloads in all (expected {want[hook]})")
    check_payloads(ep, problems)
    check_secrets(d, results, problems)


# --- The cases -------------------------------------------------------------------------

OK_STATUSES = [200, 201, 202, 204, 299]
BAD_STATUSES = [300, 304, 400, 401, 403, 404, 405, 408, 410, 413, 429, 500, 502, 503, 504, 599]
# (label, script, outcome of the hook, hook's request unknown to the client)
MISBEHAVIOURS = [
    ("no answer ever", {"act": "hang"}, "pending", True),
    ("closed right after the request", {"act": "close"}, "pending", True),
    ("closed before the body", {"act": "close_early"}, "pending", False),
    ("garbage instead of HTTP", {"act": "garbage"}, "pending", True),
    ("200's headers, then nothing", {"act": "headers_hang"}, "pending", True),
    ("a 200 a byte every 0.02 s (about 1.5 s in all)", {"act": "trickle", "drip": 0.02}, "sent", False),
    ("an 8 MB body with 200", {"act": "huge"}, "sent", False),
    ("500 echoing the path and headers", {"act": "echo"}, "pending", False),
    ("302 to a path with the token", {"act": "redirect"}, None, False),
]
# Only the city's: a redirect's kinds (301-303 turn a POST into a GET without the payload).
REDIRECTS = [(f"{n} to a path with the token", {"act": "redirect", "status": n}, None, False) for n in (301, 303, 307, 308)]

# Slow answers against each hook's timeout (city's the default 30 s, jongno's 3 s).
SLOW = [("city", "a 200 a byte every 0.2 s (within 30 s)", {"act": "trickle", "drip": 0.2}, "sent"),
        ("jongno", "a 200 a byte every 0.2 s (over timeout = 3s)", {"act": "trickle", "drip": 0.2}, "pending"),
        ("jongno", "a 200 after 5 s (over timeout = 3s)", {"delay": 5}, "pending")]


def family_weekly_webhook(n, rng):
    cases = []
    for hook in TOKENS:
        for status in OK_STATUSES + BAD_STATUSES:
            outcome = "sent" if status in OK_STATUSES else "pending"
            cases.append((f"{hook} answered {status}",
                          lambda d, h=hook, s=status, o=outcome: case_script(d, {h: {"status": s}}, {h: o})))
        for label, how, outcome, unknown in MISBEHAVIOURS + (REDIRECTS if hook == "city" else []):
            cases.append((f"{hook}: {label}", lambda d, h=hook, s=how, o=outcome, u=unknown:
                          case_script(d, {h: s}, {h: o}, (h,) if u else ())))
    for hook, label, how, outcome in SLOW:
        cases.append((f"{hook}: {label}", lambda d, h=hook, s=how, o=outcome:
                      case_script(d, {h: s}, {h: o}, () if o == "sent" else (h,))))
    forms = [("unset", None, True), ("empty", "", True), ("blank", " \t ", True),
             ("ftp://", "ftp://127.0.0.1/x/{T}", True), ("not a URL", "not a url /hook/{T}", True),
             ("port 0", "http://127.0.0.1:0/hook/{T}", False), ("port 65536", "http://127.0.0.1:65536/hook/{T}", False),
             ("https:// to plain HTTP", "https://127.0.0.1:{P}/hook/{T}", False),
             ("a closed port", "http://127.0.0.1:{Q}/hook/{T}", False),
             ("with a login", "http://raon:" + PASSWORD + "@127.0.0.1:{P}/hook/{T}", False)]
    for hook in TOKENS:
        for label, form, named in forms:
            cases.append((f"{hook}: the URL {label}", lambda d, h=hook, f=form, nm=named: case_url(d, h, f, nm)))
    sigs = [signal.SIGKILL, signal.SIGTERM, signal.SIGINT]
    for i in range(24):
        sig, frac, delay = sigs[i % 3], rng.random(), rng.uniform(0.5, 1.5)
        cases.append((f"{sig.name} at {frac:.2f} of a delivery answered after {delay:.1f} s",
                      lambda d, s=sig, f=frac, dl=delay: case_signal(d, s, f, dl)))
    return cases


def case_script(d, script, outcomes, unknown=()):
    problems, results = [], []
    World.copy(d)
    ep = Endpoint(script)
    try:
        bound = 3 * max(TIMEOUTS[h] for h in script) + 20
        r = deliver(d, {h: ep.url(h) for h in TOKENS}, bound)
        results.append(r)
        check_run(r, problems, "raon weekly --deliver-pending", bound=bound)
        want = {h: outcomes.get(h, "sent") for h in TOKENS}
        states = check_ledger(ledger(d, problems), ep, problems, "first run", want)
        for hook in TOKENS:
            if not any(x["hook"] == hook for x in ep.requests):
                problems.append(f"webhook:{hook} was never posted to")
        H.note("weekly_webhook", "first run " + ", ".join(f"{h} {s}" for h, s in sorted(states.items())))
        rerun(d, ep, states, results, problems, unknown)
    finally:
        ep.stop()
    return problems


def case_url(d, hook, form, named):
    problems, results = [], []
    World.copy(d)
    ep = Endpoint()
    try:
        urls = {h: ep.url(h) for h in TOKENS}
        urls[hook] = None if form is None else form.format(T=TOKENS[hook], P=ep.port, Q=free_port())
        r = deliver(d, urls, 3 * TIMEOUTS[hook] + 20)
        results.append(r)
        check_run(r, problems, "raon weekly --deliver-pending", bound=3 * TIMEOUTS[hook] + 20)
        login = form is not None and "@" in form
        states = check_ledger(ledger(d, problems), ep, problems, "first run", {hook: None if login else "pending"})
        if named and VARS[hook].encode() not in r.out + r.err:
            problems.append(f"the output does not name {VARS[hook]}: {H.short(r.out + r.err)}")
        if login:
            H.note("weekly_webhook", f"URL with a login: {states.get(hook)}")
        rerun(d, ep, states, results, problems)
    finally:
        ep.stop()
    return problems


def case_signal(d, sig, frac, delay):
    problems, results = [], []
    World.copy(d)
    ep = Endpoint({h: {"status": 200, "delay": delay} for h in TOKENS})
    try:
        proc = subprocess.Popen([H.Ctx.raon, "weekly", "--deliver-pending"], cwd=d,
                                env=env({h: ep.url(h) for h in TOKENS}), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
        time.sleep(frac * (World.start_secs + 2 * delay + 0.3))
        finished = proc.poll() is not None
        killed_at = time.time()
        if not finished:
            proc.send_signal(sig)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            problems.append(f"raon did not end within 60 s of {sig.name}")
        r = H.Result(["weekly", "--deliver-pending"], proc.returncode, out, err, 0)
        results.append(r)
        H.note("weekly_webhook", f"{sig.name}: " + ("finished before the signal" if finished else f"exit {r.rc}"))
        codes = (75,) if finished else {signal.SIGKILL: (-9,), signal.SIGTERM: (143,), signal.SIGINT: (130,)}[sig]
        # After every hook's answer the work is done: it ends as it would have (as mail_signals).
        if not finished and sig != signal.SIGKILL and all(ep.posts(h) for h in TOKENS) and all(
                x["answered"] and x["answered"] <= killed_at for x in ep.requests if x["hook"]):
            codes = codes + (75,)
        check_run(r, problems, f"the run sent {sig.name}", codes)
        if r.rc in (130, 143):
            H.check_one_line_error(r, problems, f"the run sent {sig.name}")
        check_ledger(ledger(d, problems), ep, problems, f"after {sig.name}",
                     {h: UNKNOWN for h in TOKENS} if sig == signal.SIGKILL else None)
        if sig != signal.SIGKILL:
            check_partial(d, problems, f"after {sig.name}")
        rerun_at = time.time()
        # In flight at the kill: posted by the killed run, and it posted nothing after its answer.
        killed = [x for x in ep.requests if x["t"] <= rerun_at and x["hook"]] if not finished else []
        in_flight = {x["hook"] for x in killed if sig == signal.SIGKILL
                     and not any(y["t"] > (x["answered"] or killed_at) for y in killed if y is not x)}
        if any(x["t"] <= killed_at < (x["answered"] or rerun_at) for x in killed):
            H.note("weekly_webhook", f"{sig.name} while a payload was in flight")
        rerun(d, ep, {h: "pending" for h in TOKENS if not ep.posts(h)}, results, problems, tuple(in_flight))
        check_partial(d, problems, "after the rerun")
        if in_flight and any(len(ep.posts(h)) == 2 for h in in_flight):
            H.note("weekly_webhook", "SIGKILL: the payload in flight posted again by the rerun")
    finally:
        ep.stop()
    return problems
