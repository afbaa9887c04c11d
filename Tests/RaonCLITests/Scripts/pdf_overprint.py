"""Text that overprints in a PDF: two text spans of different lines whose boxes overlap — a
name run over the next column. (Chromium's PDF puts a table row's cells in one block, each
cell's text a line of its own; the spans of one line may touch — 「」· are set tight — and
are not counted.)

    python3 pdf_overprint.py FILE.pdf ...   # JSON: {file: {"pages": N, "spans": N, "overprints": [[page, text, text], ...]}}
"""
import json
import sys

import pymupdf


def spans(page):
    out = []
    for bi, block in enumerate(page.get_text("dict")["blocks"]):
        for li, line in enumerate(block.get("lines", [])):
            for span in line["spans"]:
                text = span["text"].strip()
                if text:
                    out.append((pymupdf.Rect(span["bbox"]), text, (bi, li)))
    return out


def overprints(path, tolerance=1.0):
    """The pages and spans read, and [page, text, text] for every pair of spans of different
    lines overlapping by more than `tolerance` points each way."""
    found = []
    read = 0
    with pymupdf.open(path) as doc:
        pages = len(doc)
        for number, page in enumerate(doc, 1):
            ordered = sorted(spans(page), key=lambda s: s[0].y0)
            read += len(ordered)
            for i, (a, ta, ba) in enumerate(ordered):
                for b, tb, bb in ordered[i + 1:]:
                    if b.y0 >= a.y1:
                        break
                    if ba == bb:
                        continue
                    r = a & b
                    if not r.is_empty and r.width > tolerance and r.height > tolerance:
                        found.append([number, ta, tb])
    return {"pages": pages, "spans": read, "overprints": found}


if __name__ == "__main__":
    print(json.dumps({p: overprints(p) for p in sys.argv[1:]}, ensure_ascii=False))
