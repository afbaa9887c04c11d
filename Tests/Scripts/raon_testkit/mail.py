"""Reads messages back with Python's standard MIME parser (`email`, policy.default), as an
independent check of what Raon sent.

  python3 -m raon_testkit.mail FILE.eml|DIR   → JSON: one object per message (a DIR: every
                                                NNNN.eml in order, with its envelope)
"""

import email
import email.header
import email.policy
import email.utils
import hashlib
import json
import os
import re
import sys


def sender(data):
    """(display name, address) of the From header, decoded as RFC 2047 says: whitespace
    between adjacent encoded words is dropped. (Python's newer header parser keeps it in a
    display name — "문화정 책과" — so the older decoder reads it here.)"""
    head = data.partition(b"\r\n\r\n")[0].decode("ascii", "replace")
    unfolded = re.sub(r"\r\n(?=[ \t])", "", head)
    for line in unfolded.split("\r\n"):
        if line.lower().startswith("from:"):
            name, address = email.utils.parseaddr(line[5:].strip())
            decoded = str(email.header.make_header(email.header.decode_header(name))) if name else None
            return decoded, address
    return None, None


def read(data):
    msg = email.message_from_bytes(data, policy=email.policy.default)
    text = msg.get_body(("plain",))
    html = msg.get_body(("html",))
    attachments = []
    for part in msg.iter_attachments():
        payload = part.get_payload(decode=True) or b""
        attachments.append({
            "filename": part.get_filename(),
            "contentType": part.get_content_type(),
            "size": len(payload),
            "sha256": hashlib.sha256(payload).hexdigest(),
        })
    head, _, _ = data.partition(b"\r\n\r\n")
    lines = data.split(b"\r\n")
    return {
        "from": str(msg["From"]),
        "fromName": sender(data)[0],
        "fromAddress": sender(data)[1],
        "to": [a.addr_spec for a in msg["To"].addresses] if msg["To"] else [],
        "subject": str(msg["Subject"]),
        "date": str(msg["Date"]),
        "dateParsed": msg["Date"].datetime.isoformat() if msg["Date"] and msg["Date"].datetime else None,
        "messageId": str(msg["Message-ID"]),
        "text": text.get_content() if text is not None else None,
        "html": html.get_content() if html is not None else None,
        "attachments": attachments,
        "defects": [type(d).__name__ for d in msg.defects],
        "rawHeaders": head.decode("ascii", "replace"),
        "longestLine": max(len(l) for l in lines),
        "bareLineFeeds": data.replace(b"\r\n", b"").count(b"\n"),
        "bytes": len(data),
    }


def read_folder(folder):
    out = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".eml"):
            continue
        with open(os.path.join(folder, name), "rb") as f:
            message = read(f.read())
        envelope = os.path.join(folder, name[:-4] + ".json")
        if os.path.exists(envelope):
            with open(envelope) as f:
                message["envelope"] = json.load(f)
        message["file"] = name
        out.append(message)
    return out


def main(argv):
    path = argv[1]
    if os.path.isdir(path):
        result = read_folder(path)
    else:
        with open(path, "rb") as f:
            result = read(f.read())
    json.dump(result, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
