"""A stand-in Chromium for Chromium's faults: it prints a PDF it makes itself, over the
DevTools pipe (descriptors 3 and 4, as Raon drives Chromium) or to `--print-to-pdf=PATH`,
and misbehaves as told. `write(path, mode, record)` makes the executable raon is given
(Tests/TestSupport/FakeChromium.swift writes the same three lines).

Modes: `good` prints the whole PDF; `truncate` prints its first 20,000 bytes and exits 0;
`failSecondPrint` answers its second `Page.printToPDF` with an error;
`linger` prints it but leaves a child (`sleep 300`) holding the pipes; `hang` starts a
child and never answers. RECORD (a path, or "") receives, on start, the `SigBlk:` and
`SigIgn:` lines of /proc/self/status, `pid:`, `pgid:` and `child:` (its child's pid).

The PDF is a real one (header, objects, cross-reference table, trailer, `%%EOF`), 3 pages
and about 40 KB, so that its first 20,000 bytes are a truncated PDF.
"""
import base64
import json
import os
import subprocess
import sys
import time


def make_pdf():
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R 5 0 R 7 0 R] /Count 3 >>"]
    for page in range(3):
        body = b"BT /F1 12 Tf 72 720 Td (page %d) Tj ET\n" % page + b"% padding " * 1300 + b"\n"
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R >>" % (len(objects) + 2))
        objects.append(b"<< /Length %d >>\nstream\n" % len(body) + body + b"endstream")
    out = b"%PDF-1.4\n"
    offsets = []
    for i, obj in enumerate(objects):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % (i + 1) + obj + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for o in offsets:
        out += b"%010d 00000 n \n" % o
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def main(mode, record):
    pdf = make_pdf()
    if mode == "truncate":
        pdf = pdf[:20000]
    lines = [line.strip() for line in open("/proc/self/status") if line.startswith(("SigBlk:", "SigIgn:"))]
    lines += ["pid:%d" % os.getpid(), "pgid:%d" % os.getpgid(0)]
    pipe = os.path.exists("/proc/self/fd/3")
    if mode in ("linger", "hang"):
        child = subprocess.Popen(["sleep", "300"], pass_fds=(3, 4) if pipe else ())
        lines.append("child:%d" % child.pid)
    if record:
        with open(record + ".tmp", "w") as f:
            f.write("\n".join(lines) + "\n")
        os.rename(record + ".tmp", record)
    if mode == "hang":
        time.sleep(600)
        sys.exit(0)
    targets = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--print-to-pdf=")]
    if targets:
        with open(targets[0], "wb") as f:
            f.write(pdf)
        sys.exit(0)

    def send(message):
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(4, data):]

    buffer = b""
    tabs = 0
    prints = 0
    while True:
        chunk = os.read(3, 65536)
        if not chunk:
            break
        buffer += chunk
        while b"\0" in buffer:
            raw, buffer = buffer.split(b"\0", 1)
            m = json.loads(raw)
            method, session = m.get("method"), m.get("sessionId")
            result = {}
            reply = {"id": m["id"]}
            if method == "Target.createTarget":
                tabs += 1
                result = {"targetId": "T%d" % tabs}
            elif method == "Target.attachToTarget":
                result = {"sessionId": "S" + m["params"]["targetId"][1:]}
            elif method == "Page.navigate":
                result = {"frameId": "F1", "loaderId": "L1"}
            elif method == "Page.printToPDF":
                prints += 1
                if mode == "failSecondPrint" and prints == 2:
                    reply["error"] = {"code": -32000, "message": "Printing failed"}
                result = {"data": base64.b64encode(pdf).decode()}
            if "error" not in reply:
                reply["result"] = result
            if session:
                reply["sessionId"] = session
            send(reply)
            if method == "Page.navigate":
                send({"method": "Page.loadEventFired", "params": {"timestamp": 1}, "sessionId": session})
            if method == "Browser.close":
                sys.exit(0)


def write(path, mode, record=""):
    """Writes the executable stand-in at `path`."""
    kit = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(path, "w") as fh:
        fh.write("#!/usr/bin/env python3\nimport sys\nsys.path.insert(0, %r)\n"
                 "from raon_testkit.fake_chromium import main\nmain(%r, %r)\n" % (kit, mode, record))
    os.chmod(path, 0o755)
    return path
