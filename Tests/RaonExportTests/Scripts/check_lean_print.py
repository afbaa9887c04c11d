#!/usr/bin/env python3
"""Prints an .xlsx through LibreOffice and checks with PyMuPDF that it prints lean, for
Raon's Swift tests (XLSXLeanPrintTests.swift) — no Raon code involved.

Checks, page by page (the sheet named at the right of the page header):
- fill: no page more than two-thirds empty (its text and drawings reach down less than a
  third of the space between the margins), except a sheet's last page;
- twice: no two sheets print the same rows (lines of text, page headers left out);
- code: no English code (a snake_case key) and no ISO week (2024-W38) outside 자료 정보;
- empty column: no table header on a page with nothing printed under one of its cells;
- whole: every word given in `whole` for a sheet (the sheets whose names hold the key)
  prints whole on a line of that sheet
  (not one syllable a line);
- sentences: every sentence given in `sentences` prints on the first sheet's pages
  (spaces and line breaks ignored).

usage: check_lean_print.py FILE.xlsx OUTDIR [EXPECT.json]
EXPECT.json: {"sentences": [...], "whole": {sheet: [...]}}
Prints JSON: {"pages": n, "sheets": {name: pages printed}, "sheetNames": [every sheet, in
order, from xl/workbook.xml], "problems": [one line each]}.
"""
import json
import os
import re
import subprocess
import sys
import zipfile

import pymupdf

MARGIN = 0.6 * 72  # the workbook's top and bottom margins (XLSXPrintSetUp)


def convert(xlsx, outdir):
    profile = "file://" + os.path.abspath(os.path.join(outdir, "lo-profile"))
    subprocess.run(
        ["soffice", "-env:UserInstallation=" + profile, "--headless", "--convert-to", "pdf",
         "--outdir", outdir, xlsx],
        check=True, capture_output=True, timeout=900)
    return os.path.join(outdir, os.path.splitext(os.path.basename(xlsx))[0] + ".pdf")


def spans_of(page):
    return [
        (pymupdf.Rect(s["bbox"]), s["text"].strip())
        for block in page.get_text("dict")["blocks"]
        for line in block.get("lines", [])
        for s in line["spans"]
        if s["text"].strip()
    ]


def lines_of(spans):
    """Spans grouped by their vertical centre (3 pt), left to right, and spans that touch
    (a font change inside one cell's text: "기간 중앙값" + "(" + "일" + ")") joined."""
    rows = {}
    for rect, text in spans:
        rows.setdefault(round((rect.y0 + rect.y1) / 2 / 3), []).append((rect, text))
    lines = []
    for k in sorted(rows):
        line = []
        for rect, text in sorted(rows[k], key=lambda s: s[0].x0):
            if line and rect.x0 - line[-1][0].x1 < 1.5:
                line[-1] = (line[-1][0] | rect, line[-1][1] + text)
            else:
                line.append((rect, text))
        lines.append(line)
    return lines


def read(pdf):
    pages = []
    for page in pymupdf.open(pdf):
        spans = spans_of(page)
        # The page header and footer print in the top and bottom margins; the sheet's name
        # is the header's rightmost text (a pack's name may take a second line at the left).
        bottom = page.rect.height - MARGIN
        header = [s for s in spans if s[0].y1 <= MARGIN + 1]
        body = [s for s in spans if s[0].y1 > MARGIN + 1 and s[0].y0 < bottom - 1]
        right = sorted((s for s in header if s[0].x0 > page.rect.width / 2), key=lambda s: s[0].x1)
        top = MARGIN
        # How far down the sheet's print reaches: its text and its drawings (borders,
        # charts), between the header's line and the footer's.
        reach = [r.y1 for r, _ in body]
        for d in page.get_drawings():
            r = d["rect"]
            if r.y0 > top and r.y1 < bottom:
                reach.append(r.y1)
        for info in page.get_image_info():
            reach.append(min(pymupdf.Rect(info["bbox"]).y1, bottom))
        usable = page.rect.height - 2 * MARGIN
        fill = (max(reach) - MARGIN) / usable if reach else 0
        pages.append({
            "sheet": right[-1][1] if right else "",
            "fill": fill,
            "lines": lines_of(body),
            "width": page.rect.width,
            "text": page.get_text(),
        })
    return pages


def column_number(letters):
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n


def printed_rows(xlsx, sheets):
    """Each of `sheets`' rows under its header within its print area (whole columns or a
    range, from xl/workbook.xml), as tuples of cell text; rows of one cell (a sentence)
    left out."""
    import warnings

    import openpyxl
    warnings.simplefilter("ignore")  # openpyxl cannot keep whole-column print areas; read here
    with zipfile.ZipFile(xlsx) as z:
        workbook = z.read("xl/workbook.xml").decode("utf-8")
    order = re.findall(r'<sheet name="([^"]*)"', workbook)
    areas = {}
    for local, ref in re.findall(r'<definedName name="_xlnm.Print_Area" localSheetId="(\d+)"[^>]*>([^<]*)<', workbook):
        m = re.search(r"!\$([A-Z]+)(?:\$(\d+))?:\$([A-Z]+)(?:\$(\d+))?", ref)
        if m:
            areas[order[int(local)]] = (
                column_number(m.group(1)), int(m.group(2) or 1), column_number(m.group(3)), int(m.group(4) or 1048576))
    book = openpyxl.load_workbook(xlsx, read_only=True, data_only=True)
    out = {}
    for name in sheets:
        if name not in book.sheetnames:
            continue
        c0, r0, c1, r1 = areas.get(name, (1, 1, 16384, 1048576))
        found = set()
        for i, row in enumerate(book[name].iter_rows(values_only=True), start=1):
            if i <= max(r0, 1) and r0 == 1 or i < r0 or i > r1:
                continue
            cells = tuple("" if v is None else str(v) for v in row[c0 - 1:c1])
            if sum(1 for v in cells if v) >= 2:
                found.add(cells)
        out[name] = found
    return out


def empty_columns(lines, width):
    """The header cells of a table (the first line of three or more cells) with nothing
    printed in their column on the page. Headers sit at the left of their cells (numbers
    at the right), so a column runs from its header's left edge to the next header's. A
    table holding one line (a sentence saying it is empty) is not checked."""
    for i, line in enumerate(lines):
        if len(line) < 3:
            continue
        below = [s for later in lines[i + 1:] for s in later]
        if len(lines) - i - 1 < 2:
            return []
        empty = []
        for k, (rect, text) in enumerate(line):
            left = rect.x0 - 2
            right = line[k + 1][0].x0 - 2 if k + 1 < len(line) else width
            if not any(r.x0 < right and r.x1 > left for r, _ in below):
                empty.append(text)
        return empty
    return []


def main():
    xlsx, outdir = sys.argv[1], sys.argv[2]
    expect = json.load(open(sys.argv[3], encoding="utf-8")) if len(sys.argv) > 3 else {}
    pages = read(convert(xlsx, outdir))
    problems = []
    by_sheet = {}
    for i, p in enumerate(pages):
        by_sheet.setdefault(p["sheet"], []).append(i)
    for sheet, indices in by_sheet.items():
        for i in indices[:-1]:
            if pages[i]["fill"] < 1 / 3:
                problems.append(f"page {i + 1} ({sheet}) is {100 - pages[i]['fill'] * 100:.0f}% empty")
    # The same rows on two printed sheets: a page's lines do not make rows (numbers sit at
    # the foot of a wrapped row, text at its top), so the rows are read from the workbook,
    # within each printed sheet's print area.
    rows = printed_rows(xlsx, [name for name in by_sheet if name])
    names = list(rows)
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            x, y = rows[names[a]], rows[names[b]]
            small = min(len(x), len(y))
            if small >= 3 and len(x & y) >= 0.9 * small:
                problems.append(f"{names[a]} and {names[b]} print the same {len(x & y)} rows")
    for i, p in enumerate(pages):
        if p["sheet"] not in ("자료 정보", "About the data"):
            code = re.search(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b\d{4}-W\d{2}\b", p["text"])
            if code:
                problems.append(f"page {i + 1} ({p['sheet']}) prints {code.group(0)}")
        empty = empty_columns(p["lines"], p["width"])
        if empty:
            problems.append(f"page {i + 1} ({p['sheet']}) prints empty columns {', '.join(empty)}")
    for sheet, words in expect.get("whole", {}).items():
        # The sheets whose names hold `sheet` (분류×자치구, 제공기관×시·도: "×").
        sheet_lines = [
            " ".join(t for _, t in line)
            for name, indices in by_sheet.items() if sheet in name for i in indices for line in pages[i]["lines"]
        ]
        for word in words:
            if not any(word in line for line in sheet_lines):
                problems.append(f"{sheet}: {word} never prints whole on a line")
    first = "".join(pages[i]["text"] for i in by_sheet.get(pages[0]["sheet"], [])) if pages else ""
    flat = re.sub(r"\s+", "", first)
    for sentence in expect.get("sentences", []):
        if re.sub(r"\s+", "", sentence) not in flat:
            problems.append(f"the first sheet lacks: {sentence}")
    with zipfile.ZipFile(xlsx) as z:
        names = re.findall(r'<sheet name="([^"]*)"', z.read("xl/workbook.xml").decode("utf-8"))
    print(json.dumps({
        "pages": len(pages), "sheets": {k: len(v) for k, v in by_sheet.items()}, "sheetNames": names,
        "problems": problems,
    }, ensure_ascii=False))


if __name__ == "__main__":
    main()
