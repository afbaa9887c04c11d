#!/usr/bin/env python3
"""Reads a PDF with PyMuPDF (no Raon code) and prints, per page, its text and the smallest
and largest font size of any text on it, as JSON, for the HTML/PDF end-to-end tests.

usage: pdf_pages.py FILE
"""
import json
import sys

import pymupdf


def main():
    doc = pymupdf.open(sys.argv[1])
    pages = []
    for page in doc:
        sizes = []
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    if span["text"].strip():
                        sizes.append(round(span["size"], 2))
        pages.append({
            "text": page.get_text().replace("\u00a0", " "),
            "minSize": min(sizes) if sizes else None,
            "maxSize": max(sizes) if sizes else None,
        })
    print(json.dumps({"pages": pages}, ensure_ascii=False))


if __name__ == "__main__":
    main()
