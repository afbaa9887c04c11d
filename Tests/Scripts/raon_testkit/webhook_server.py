"""A loopback webhook endpoint, on 127.0.0.1 only, for `raon weekly`'s webhook channel.

    python3 -m raon_testkit.webhook_server --dir FOLDER [--answer PATH=503,200] [--hang PATH=2]

It takes `POST /hook/...` and keeps each request as FOLDER/NNNN.json: the path, the
headers and the body (parsed as JSON when it is JSON, else as text). `--answer` scripts the
statuses of one path, in order (the last repeats; default 200); `--hang PATH=N` lets the
first N requests to PATH go unanswered until the client gives up (it sleeps 600 s).
The first line printed says where it listens: {"port": N, "ca": ""}.
"""
import argparse
import http.server
import json
import os
import signal
import socketserver
import sys
import threading
import time


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--answer", action="append", default=[])
    parser.add_argument("--hang", action="append", default=[])
    args = parser.parse_args(argv)
    os.makedirs(args.dir, exist_ok=True)
    answers = {}
    for item in args.answer:
        path, _, codes = item.partition("=")
        answers[path] = [int(c) for c in codes.split(",") if c]
    hangs = {}
    for item in args.hang:
        path, _, n = item.partition("=")
        hangs[path] = int(n)
    lock = threading.Lock()
    seen = {}
    count = [0]

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0") or 0)
            raw = self.rfile.read(length)
            with lock:
                n = seen.get(self.path, 0)
                seen[self.path] = n + 1
                hang = n < hangs.get(self.path, 0)
                codes = answers.get(self.path, [200])
                status = codes[min(n, len(codes) - 1)]
                count[0] += 1
                index = count[0]
            try:
                body = json.loads(raw.decode("utf-8"))
            except ValueError:
                body = raw.decode("utf-8", "replace")
            record = {"path": self.path, "headers": dict(self.headers.items()), "body": body,
                      "status": None if hang else status}
            with open(os.path.join(args.dir, "%04d.json" % index), "w", encoding="utf-8") as f:
                json.dump(record, f, ensure_ascii=False)
            if hang:
                time.sleep(600)
                return
            reply = b'{"ok": true}' if status < 300 else b'{"ok": false}'
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(reply)

    # The test process may block or ignore SIGTERM, and a child inherits both (Foundation's
    # Process keeps the spawning thread's mask): stop on it regardless.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = Server(("127.0.0.1", args.port), Handler)
    print(json.dumps({"port": server.server_address[1], "ca": ""}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


def posts(folder):
    """Every request kept in FOLDER, in the order received."""
    out = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                out.append(json.load(f))
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
