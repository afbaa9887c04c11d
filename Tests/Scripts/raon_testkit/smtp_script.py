"""A misbehaving SMTP server on 127.0.0.1, on raw sockets, scripted per phase: the hostile
runner's and the hang/refusal tests' server (the well-behaved one is smtp_server.py,
aiosmtpd). It speaks enough ESMTP for libcurl (EHLO, STARTTLS, AUTH PLAIN/LOGIN, MAIL,
RCPT, DATA, RSET, NOOP, QUIT) and does, at any phase, what the script says: a reply of its
choice, nothing at all (a hang), a dropped connection, a reply echoing the login, a reply of
megabytes, a reply one byte at a time.

  python3 -m raon_testkit.smtp_script --dir D --certs C --user U --password P \\
      --script JSON [--port N]

Prints one JSON line when it listens: {"port": N, "ca": "C/ca.pem"}; SIGTERM stops it.

The script (a JSON object; every key optional):
  tls          "starttls" (default) | "implicit" | "none"
  cert         "good" (default: signed by C/ca.pem for 127.0.0.1) | "self" (self-signed)
               | "wronghost" (signed by the CA for other.example) | "expired"
  offer_starttls  false: EHLO does not offer STARTTLS (it is still answered)
  starttls_plain  true: STARTTLS is answered 220 but the server stays in plain text
  auth_in_clear   true: AUTH is offered (and taken) before TLS
  mechanisms   ["LOGIN", "PLAIN"] (default): what EHLO offers
  require_auth true (default): MAIL before a login is answered 530
  delay        seconds before every reply
  on           {PHASE: ACTION or [ACTION, ...]}: the first action whose conditions hold is
               taken. PHASE: connect (the greeting), tls (the handshake), ehlo, starttls,
               auth (the first reply to AUTH), login (the reply once the credentials are in),
               mail, rcpt, data (the reply to DATA), body (while the message comes in), end
               (the reply to the message's end), rset, quit.
  ACTION keys: reply "550 5.1.1 no" (lines split on \\n become a multi-line reply) | hang
               true | drop true | echo true (the reply also carries the login: the password
               and the base64 the client sent) | huge N (a reply padded to N bytes; with
               "one_line": true on one line) | drip S (the reply a byte every S seconds);
               then "drop" | "hang" (after the reply); conditions: match "ADDRESS" (rcpt,
               mail), times N (the first N times, counted over all connections), after N
               (once N messages were accepted), conn N (only on the Nth connection, from 1);
               keep true (end: the message is kept even though the reply is a hang, a drop
               or a refusal — a server that stored it and then failed to say so).

What it keeps in --dir: NNNN.eml and NNNN.json for every message it accepted (the
envelope: mail_from, rcpt_tos, tls, login, conn — as smtp_server.py, so mail.py reads
them); clear.bin, every byte a client sent outside TLS; events.jsonl, one JSON object per
event (connect, hang, drop, login, mail — a sender taken —, message — with its
Message-ID —, quit) with its phase and time.
"""

import argparse
import base64
import datetime
import ipaddress
import json
import os
import re
import signal
import socket
import ssl
import sys
import threading
import time

HANG_LIMIT = 600


def certificates(folder, kind):
    """(cert, key) paths for `kind`; the CA (ca.pem) signs all but "self"."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from raon_testkit.smtp_server import make_certificates
    ca_path, cert_path, key_path = make_certificates(folder)
    if kind == "good":
        return ca_path, cert_path, key_path
    out_cert = os.path.join(folder, "%s.pem" % kind)
    out_key = os.path.join(folder, "%s.key" % kind)
    if os.path.exists(out_cert) and os.path.exists(out_key):
        return ca_path, out_cert, out_key
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    key = ec.generate_private_key(ec.SECP256R1())
    host = "other.example" if kind == "wronghost" else "127.0.0.1"
    names = [x509.DNSName("other.example")] if kind == "wronghost" else [
        x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, host)])
    if kind == "self":
        issuer, signer = subject, key
    else:
        with open(os.path.join(folder, "ca.key"), "rb") as f:
            signer = serialization.load_pem_private_key(f.read(), None)
        with open(ca_path, "rb") as f:
            issuer = x509.load_pem_x509_certificate(f.read()).subject
    before, after = now - datetime.timedelta(days=1), now + datetime.timedelta(days=30)
    if kind == "expired":
        before, after = now - datetime.timedelta(days=60), now - datetime.timedelta(days=30)
    cert = (x509.CertificateBuilder().subject_name(subject).issuer_name(issuer).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(before).not_valid_after(after)
            .add_extension(x509.SubjectAlternativeName(names), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .sign(signer, hashes.SHA256()))
    with open(out_cert, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(out_key, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return ca_path, out_cert, out_key


class Dropped(Exception):
    pass


class Server:
    def __init__(self, folder, user, password, script, context):
        self.folder, self.user, self.password, self.script = folder, user, password, script
        self.context = context
        self.lock = threading.Lock()
        self.counts = {}
        self.accepted = len([n for n in os.listdir(folder) if n.endswith(".eml")])
        self.connections = 0
        self.stopped = threading.Event()

    def event(self, conn, what, **fields):
        fields.update(conn=conn, event=what, t=round(time.time(), 3))
        with self.lock, open(os.path.join(self.folder, "events.jsonl"), "a") as f:
            f.write(json.dumps(fields) + "\n")

    def action(self, phase, conn, address=None):
        """The scripted action for `phase` now, or None; counts the phase."""
        with self.lock:
            n = self.counts[phase] = self.counts.get(phase, 0) + 1
            accepted = self.accepted
        actions = self.script.get("on", {}).get(phase)
        if actions is None:
            return None
        for a in actions if isinstance(actions, list) else [actions]:
            if "match" in a and (address or "").lower() != a["match"].lower():
                continue
            if "times" in a and n > a["times"]:
                continue
            if "after" in a and accepted < a["after"]:
                continue
            if "conn" in a and conn != a["conn"]:
                continue
            return a
        return None


class Session:
    def __init__(self, server, sock, number):
        self.s, self.sock, self.n = server, sock, number
        self.buffer = b""
        self.tls = False
        self.login = None
        self.auth_raw = []
        self.mail_from = None
        self.rcpt = []
        self.delay_spent = 0

    # -- the wire -----------------------------------------------------------------------

    def recv(self):
        try:
            data = self.sock.recv(65536)
        except socket.timeout:
            raise
        except (OSError, ssl.SSLError):
            data = b""
        if not data:
            raise Dropped()
        if not self.tls:
            with self.s.lock, open(os.path.join(self.s.folder, "clear.bin"), "ab") as f:
                f.write(data)
        return data

    def line(self, limit=1 << 20):
        while b"\n" not in self.buffer:
            if len(self.buffer) > limit:
                raise Dropped()
            self.buffer += self.recv()
        raw, self.buffer = self.buffer.split(b"\n", 1)
        return raw.rstrip(b"\r")

    def send(self, data):
        try:
            self.sock.sendall(data)
        except (OSError, ssl.SSLError):
            raise Dropped()

    def hang(self, phase, read=True):
        """Answers nothing: reads (and keeps) what comes until the client goes away."""
        self.s.event(self.n, "hang", phase=phase)
        deadline = time.time() + HANG_LIMIT
        self.sock.settimeout(0.5)
        while time.time() < deadline and not self.s.stopped.is_set():
            if not read:
                time.sleep(0.5)
                continue
            try:
                self.recv()
            except socket.timeout:
                continue
            except Dropped:
                break
        self.s.event(self.n, "hang-over", phase=phase)
        raise Dropped()

    def echo_text(self):
        return " you sent %s (%s)" % (" ".join(self.auth_raw) or "-", self.s.password)

    def reply(self, phase, default, action):
        """Sends the reply `action` says (else `default`) for `phase`; False: none was sent."""
        delay = self.s.script.get("delay", 0) if not self.delay_spent else 0
        self.delay_spent = 0
        if delay:
            time.sleep(delay)
        if action and action.get("hang"):
            self.hang(phase)
        if action and action.get("drop"):
            self.s.event(self.n, "drop", phase=phase)
            raise Dropped()
        text = action.get("reply", default) if action else default
        if action and action.get("echo"):
            text += self.echo_text()
        lines = text.split("\n")
        if action and action.get("huge"):
            size = int(action["huge"])
            code = lines[-1][:3]
            if action.get("one_line"):
                lines[-1] = lines[-1] + " " + "x" * size
            else:
                lines = lines[:-1] + ["%s %s" % (code, "y" * 996)] * max(1, size // 1000) + [lines[-1]]
        data = "".join("%s%s%s\r\n" % (l[:3], "-" if i < len(lines) - 1 else " ", l[4:])
                       for i, l in enumerate(lines)).encode("utf-8", "replace")
        if action and action.get("drip"):
            for i in range(len(data)):
                self.send(data[i:i + 1])
                time.sleep(float(action["drip"]))
        else:
            self.send(data)
        then = action.get("then") if action else None
        if then == "drop":
            self.s.event(self.n, "drop", phase=phase + "-after-reply")
            raise Dropped()
        if then == "hang":
            self.hang(phase + "-after-reply")
        return text

    # -- the conversation ---------------------------------------------------------------

    def start_tls(self):
        action = self.s.action("tls", self.n)
        if action and action.get("hang"):
            self.hang("tls", read=False)
        if action and action.get("drop"):
            raise Dropped()
        self.sock.settimeout(30)
        try:
            self.sock = self.s.context.wrap_socket(self.sock, server_side=True)
        except (OSError, ssl.SSLError) as e:
            self.s.event(self.n, "tls-failed", reason=str(e)[:200])
            raise Dropped()
        self.sock.settimeout(None)
        self.tls = True
        self.buffer = b""

    def ehlo_lines(self, greeting):
        script = self.s.script
        lines = ["250-raon-script greets %s" % greeting, "250-8BITMIME", "250-SIZE 104857600"]
        if script.get("tls", "starttls") == "starttls" and not self.tls and script.get("offer_starttls", True):
            lines.append("250-STARTTLS")
        if self.tls or script.get("auth_in_clear") or script.get("tls") == "none":
            lines.append("250-AUTH " + " ".join(script.get("mechanisms", ["LOGIN", "PLAIN"])))
        lines.append("250 HELP")
        return "\n".join(lines)

    def authenticate(self, arguments):
        parts = arguments.split()
        mechanism = parts[0].upper() if parts else ""
        action = self.s.action("auth", self.n)
        if mechanism == "PLAIN":
            if len(parts) > 1:
                data = parts[1]
            else:
                self.reply("auth", "334 ", action)
                action = None
                data = self.line().decode("ascii", "replace")
            self.auth_raw.append(data)
            try:
                _, user, password = base64.b64decode(data).split(b"\0", 2)
            except Exception:
                user, password = b"", b""
        elif mechanism == "LOGIN":
            if len(parts) > 1:
                first = parts[1]
            else:
                self.reply("auth", "334 VXNlcm5hbWU6", action)
                action = None
                first = self.line().decode("ascii", "replace")
            self.auth_raw.append(first)
            self.reply("auth", "334 UGFzc3dvcmQ6", action)
            second = self.line().decode("ascii", "replace")
            self.auth_raw.append(second)
            try:
                user, password = base64.b64decode(first), base64.b64decode(second)
            except Exception:
                user, password = b"", b""
        else:
            self.reply("auth", "504 5.5.4 Unrecognized authentication type", action)
            return
        good = user == self.s.user.encode() and password == self.s.password.encode()
        self.s.event(self.n, "login", ok=good, tls=self.tls, mechanism=mechanism)
        if good:
            self.login = user.decode()
        self.reply("login", "235 2.7.0 Authentication successful" if good else
                   "535 5.7.8 Authentication credentials invalid", self.s.action("login", self.n))

    def message(self):
        action = self.s.action("data", self.n)
        if not self.rcpt and not action:
            self.reply("data", "554 5.5.1 No valid recipients", None)
            return
        self.reply("data", "354 End data with <CR><LF>.<CR><LF>", action)
        body_action = self.s.action("body", self.n)
        lines = []
        size = 0
        while True:
            if body_action and body_action.get("hang") and size >= body_action.get("after_bytes", 0):
                self.hang("body", read=False)
            if body_action and body_action.get("drop") and size >= body_action.get("after_bytes", 0):
                self.s.event(self.n, "drop", phase="body")
                raise Dropped()
            raw = self.line(limit=64 << 20)
            if raw == b".":
                break
            lines.append(raw[1:] if raw.startswith(b".") else raw)
            size += len(raw) + 2
        content = b"\r\n".join(lines) + b"\r\n"
        action = self.s.action("end", self.n)
        # A slow server is slow before it takes the message, not between taking it and
        # saying so (that moment is the client's to lose, whatever it does).
        self.delay_spent = self.s.script.get("delay", 0)
        if self.delay_spent:
            time.sleep(self.delay_spent)
        accepts = (action or {}).get("keep") or not (action and (action.get("hang") or action.get("drop"))) and \
            (not action or action.get("reply", "250")[:1] == "2")
        if accepts:
            self.keep(content)
        self.reply("end", "250 2.0.0 Message accepted for delivery", action)

    def keep(self, content):
        with self.s.lock:
            self.s.accepted += 1
            name = os.path.join(self.s.folder, "%04d" % self.s.accepted)
            with open(name + ".json", "w") as f:
                json.dump({"mail_from": self.mail_from, "rcpt_tos": self.rcpt, "tls": self.tls,
                           "login": self.login, "conn": self.n}, f)
            with open(name + ".eml.part", "wb") as f:
                f.write(content)
            os.rename(name + ".eml.part", name + ".eml")
        found = re.search(rb"(?im)^Message-ID:[ \t]*<([^>\r\n]+)>", content)
        self.s.event(self.n, "message", rcpt=self.rcpt, mail_from=self.mail_from,
                     message_id=found.group(1).decode("ascii", "replace") if found else None)

    def run(self):
        script = self.s.script
        self.s.event(self.n, "connect")
        if script.get("tls") == "implicit":
            self.start_tls()
        self.reply("connect", script.get("banner", "220 raon-script ESMTP ready"), self.s.action("connect", self.n))
        while True:
            raw = self.line()
            text = raw.decode("utf-8", "replace")
            verb, _, rest = text.partition(" ")
            verb = verb.upper()
            if verb in ("EHLO", "HELO"):
                default = self.ehlo_lines(rest) if verb == "EHLO" else "250 raon-script"
                self.reply("ehlo", default, self.s.action("ehlo", self.n))
            elif verb == "STARTTLS":
                action = self.s.action("starttls", self.n)
                sent = self.reply("starttls", "220 2.0.0 Ready to start TLS", action)
                if sent.startswith("220") and not script.get("starttls_plain"):
                    self.start_tls()
            elif verb == "AUTH":
                self.authenticate(rest)
            elif verb == "MAIL":
                address = rest.partition(":")[2].strip().split(" ")[0].strip("<>")
                if script.get("require_auth", True) and self.login is None:
                    self.reply("mail", "530 5.7.0 Authentication required", self.s.action("mail", self.n, address))
                    continue
                sent = self.reply("mail", "250 2.1.0 Ok", self.s.action("mail", self.n, address))
                if sent.startswith("2"):
                    self.mail_from, self.rcpt = address, []
                    self.s.event(self.n, "mail", mail_from=address)
            elif verb == "RCPT":
                address = rest.partition(":")[2].strip().split(" ")[0].strip("<>")
                sent = self.reply("rcpt", "250 2.1.5 Ok", self.s.action("rcpt", self.n, address))
                if sent.startswith("2"):
                    self.rcpt.append(address)
            elif verb == "DATA":
                self.message()
                self.mail_from, self.rcpt = None, []
            elif verb == "RSET":
                self.mail_from, self.rcpt = None, []
                self.reply("rset", "250 2.0.0 Ok", self.s.action("rset", self.n))
            elif verb == "NOOP":
                self.reply("noop", "250 2.0.0 Ok", None)
            elif verb == "QUIT":
                self.s.event(self.n, "quit")
                self.reply("quit", "221 2.0.0 Bye", self.s.action("quit", self.n))
                return
            else:
                self.reply("unknown", "502 5.5.2 Command not recognized", None)


def serve(server, listener):
    while not server.stopped.is_set():
        try:
            sock, _ = listener.accept()
        except OSError:
            break
        with server.lock:
            server.connections += 1
            number = server.connections

        def handle(sock=sock, number=number):
            session = Session(server, sock, number)
            try:
                session.run()
            except Dropped:
                pass
            except Exception as e:  # the server's own fault: recorded, the connection closed
                server.event(number, "error", reason=repr(e)[:300])
            finally:
                server.event(number, "closed")
                try:
                    session.sock.close()
                except OSError:
                    pass
        threading.Thread(target=handle, daemon=True).start()


def main(argv=None):
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--certs", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--script", default="{}")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    script = json.loads(args.script)
    os.makedirs(args.dir, exist_ok=True)
    ca, cert, key = certificates(args.certs, script.get("cert", "good"))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server = Server(args.dir, args.user, args.password, script, context)
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", args.port))
    listener.listen(64)
    signal.signal(signal.SIGTERM, lambda *_: server.stopped.set())
    threading.Thread(target=serve, args=(server, listener), daemon=True).start()
    print(json.dumps({"port": listener.getsockname()[1], "ca": ca}), flush=True)
    while not server.stopped.wait(0.2):
        pass
    listener.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
