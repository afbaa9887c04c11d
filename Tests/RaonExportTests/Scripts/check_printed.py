#!/usr/bin/env python3
"""Prints an .xlsx through LibreOffice and reads the PDF back with PyMuPDF, for Raon's
Swift tests (XLSXRenderingTests.swift) — no Raon code involved.

Prints JSON: {"hidden": [names of hidden sheets, from xl/workbook.xml],
"pages": [{"sheet": the sheet's name (the right of the page header), "minSize": the
smallest text size on the page in points (null when it has no text), "bodyRows": how many
distinct lines of text lie between the page header and footer, "text": the page's text}]}.

usage: check_printed.py FILE.xlsx OUTDIR
"""
import json
import os
import re
import subprocess
import sys
import zipfile

import pymupdf


def hidden_sheets(path):
    with zipfile.ZipFile(path) as z:
        workbook = z.read("xl/workbook.xml").decode("utf-8")
    return [
        re.search(r'name="([^"]*)"', tag).group(1)
        for tag in re.findall(r"<sheet [^>]*>", workbook)
        if re.search(r'state="(hidden|veryHidden)"', tag)
    ]


def main():
    xlsx, outdir = sys.argv[1], sys.argv[2]
    profile = "file://" + os.path.abspath(os.path.join(outdir, "lo-profile"))
    subprocess.run(
        ["soffice", "-env:UserInstallation=" + profile, "--headless", "--convert-to", "pdf",
         "--outdir", outdir, xlsx],
        check=True, capture_output=True, timeout=600)
    pdf = os.path.join(outdir, os.path.splitext(os.path.basename(xlsx))[0] + ".pdf")
    pages = []
    for page in pymupdf.open(pdf):
        height, width = page.rect.height, page.rect.width
        spans = [
            (s["bbox"], s["size"], s["text"])
            for block in page.get_text("dict")["blocks"]
            for line in block.get("lines", [])
            for s in line["spans"]
            if s["text"].strip()
        ]
        # The page header is the top line of text (LibreOffice prints it in the top margin),
        # the footer the bottom line ("- n -"); whatever lies between is the sheet's print.
        top = min((s[0][1] for s in spans), default=0)
        bottom = max((s[0][3] for s in spans), default=height)
        header = [s for s in spans if s[0][1] < top + 2]
        body = [s for s in spans if s[0][1] >= top + 2 and s[0][3] <= bottom - 2]
        right = sorted((s for s in header if s[0][0] > width / 2), key=lambda s: s[0][0])
        rows = sorted({round((s[0][1] + s[0][3]) / 2 / 3) for s in body})
        pages.append({
            "sheet": right[-1][2].strip() if right else "",
            "minSize": round(min(s[1] for s in spans), 2) if spans else None,
            "bodyRows": len(rows),
            "text": page.get_text(),
        })
    print(json.dumps({"hidden": hidden_sheets(xlsx), "pages": pages}, ensure_ascii=False))


if __name__ == "__main__":
    main()
