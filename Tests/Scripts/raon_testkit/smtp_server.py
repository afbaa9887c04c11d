"""A real SMTP server on 127.0.0.1 for Raon's mail tests and benchmarks: aiosmtpd with
STARTTLS required (or TLS from the start with --implicit-tls), AUTH (PLAIN, LOGIN) against
one user and password, and a certificate signed by a throwaway CA made here (Python's
`cryptography`), kept in --certs so a restarted server presents the same one (the CA's key
beside it, for smtp_script.py's wrong-host and expired certificates).

Each message handed over (one DATA) is saved in --dir as NNNN.eml, with NNNN.json holding
its envelope: {"mail_from", "rcpt_tos", "tls", "login"}.

  python3 -m raon_testkit.smtp_server --dir D --certs C --user U --password P
      [--port N] [--reject ADDRESS]... [--stop-after N] [--implicit-tls | --no-starttls]
      [--refuse-sender CODE] [--slow SECONDS [--slow-from N]]

Prints one JSON line when it listens: {"port": N, "ca": "C/ca.pem"}. With --stop-after N
it answers 421 to everything after the Nth message and exits a moment later (a mail
server going away in the middle of a run). With --no-starttls it offers no TLS at all and
takes AUTH in clear (a server a client must refuse). With --refuse-sender 553 (or 530) it
refuses every MAIL FROM with that code: a session-level refusal, not any address's. With
--slow S, each message from the --slow-from'th on (default the first) is answered S seconds
after its data arrives; NNNN.arrived is written when the data arrives (the client has had
the reply to every message before), and a message whose client is gone by the time of the
answer is not kept (the client never heard it was taken). SIGTERM stops it.
"""

import asyncio

import argparse
import datetime
import ipaddress
import json
import os
import signal
import ssl
import sys
import threading
import time


def make_certificates(folder):
    """ca.pem, server.pem and server.key in `folder` (made once, reused)."""
    ca_path = os.path.join(folder, "ca.pem")
    cert_path = os.path.join(folder, "server.pem")
    key_path = os.path.join(folder, "server.key")
    ca_key_path = os.path.join(folder, "ca.key")  # for smtp_script.py's other certificates
    if all(os.path.exists(p) for p in (ca_path, cert_path, key_path, ca_key_path)):
        return ca_path, cert_path, key_path
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Raon test CA")])
    ca = (
        x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name)
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(
            digital_signature=True, content_commitment=False, key_encipherment=False, data_encipherment=False,
            key_agreement=False, key_cert_sign=True, crl_sign=True, encipher_only=False, decipher_only=False),
            critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([
            x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    os.makedirs(folder, exist_ok=True)
    with open(ca_path, "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    with open(ca_key_path, "wb") as f:
        f.write(ca_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return ca_path, cert_path, key_path


SENDER_REFUSALS = {
    530: "530 5.7.0 Authentication required",
    553: "553 5.7.1 Sender address rejected: not owned by the user",
    554: "554 5.7.1 Sender refused by policy",
}


class Handler:
    def __init__(self, folder, reject, stop_after, stopped, refuse_sender=0, slow=0.0, slow_from=1):
        self.folder = folder
        self.reject = set(reject)
        self.stop_after = stop_after
        self.stopped = stopped
        self.refuse_sender = refuse_sender
        self.slow = slow
        self.slow_from = slow_from
        self.lock = threading.Lock()
        existing = [n for n in os.listdir(folder) if n.endswith(".eml")]
        self.count = len(existing)
        self.received = 0
        self.arrived = 0

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if self.stopped.is_set():
            return "421 4.3.2 Service shutting down"
        if self.refuse_sender:
            return SENDER_REFUSALS.get(self.refuse_sender, "%d 5.7.1 Sender refused" % self.refuse_sender)
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.stopped.is_set():
            return "421 4.3.2 Service shutting down"
        if address in self.reject:
            return "550 5.1.1 <%s>: Recipient address rejected: User unknown" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.arrived += 1
        if self.slow and self.arrived >= self.slow_from:
            with open(os.path.join(self.folder, "%04d.arrived" % (self.count + 1)), "w") as f:
                f.write("")
            await asyncio.sleep(self.slow)
            transport = getattr(server, "transport", None)
            if transport is None or transport.is_closing():
                return "421 4.4.2 The client went away"
        with self.lock:
            self.count += 1
            self.received += 1
            name = os.path.join(self.folder, "%04d" % self.count)
            with open(name + ".eml.part", "wb") as f:
                f.write(envelope.original_content)
            login = session.auth_data.decode() if isinstance(session.auth_data, bytes) else None
            with open(name + ".json", "w") as f:
                json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                           "tls": session.ssl is not None, "login": login}, f)
            os.rename(name + ".eml.part", name + ".eml")
            if self.stop_after and self.received >= self.stop_after:
                self.stopped.set()
        return "250 2.0.0 Message accepted for delivery"


def main(argv=None):
    # A child inherits its parent thread's signal mask: a test runner's worker thread may
    # have SIGTERM blocked, and then the server would never hear it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--certs", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--reject", action="append", default=[])
    parser.add_argument("--stop-after", type=int, default=0)
    parser.add_argument("--implicit-tls", action="store_true")
    parser.add_argument("--no-starttls", action="store_true")
    parser.add_argument("--refuse-sender", type=int, default=0)
    parser.add_argument("--slow", type=float, default=0.0)
    parser.add_argument("--slow-from", type=int, default=1)
    args = parser.parse_args(argv)

    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    os.makedirs(args.dir, exist_ok=True)
    ca, cert, key = make_certificates(args.certs)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    user, password = args.user.encode(), args.password.encode()

    def authenticator(server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword) and auth_data.login == user and auth_data.password == password:
            return AuthResult(success=True, auth_data=auth_data.login)
        return AuthResult(success=False, handled=False)

    stopped = threading.Event()
    handler = Handler(args.dir, args.reject, args.stop_after, stopped, args.refuse_sender, args.slow, args.slow_from)
    port = args.port
    if port == 0:
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    options = dict(hostname="127.0.0.1", port=port, authenticator=authenticator, auth_required=True,
                   server_hostname="raon-test-smtp", ready_timeout=10)
    if args.implicit_tls:
        options.update(ssl_context=context, auth_require_tls=False)
    elif args.no_starttls:
        options.update(auth_require_tls=False)
    else:
        options.update(tls_context=context, require_starttls=True, auth_require_tls=True)
    controller = Controller(handler, **options)
    for attempt in range(50):
        try:
            controller.start()
            break
        except Exception:
            # A restart on the port it had: the old socket may linger for a moment.
            if attempt == 49:
                raise
            time.sleep(0.1)
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    print(json.dumps({"port": port, "ca": ca}), flush=True)
    try:
        while not stopped.wait(0.2):
            pass
        if args.stop_after:
            time.sleep(0.3)  # the 421s to whatever is still talking
    finally:
        controller.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
