#!/usr/bin/env python3
"""Reads page 1 of a report's PDF with PyMuPDF (no Raon code) and checks it as an office
reads it: the head's values (부서, 담당자, 연락처) and 보고일 are on page 1; its 붙임 are
numbered 1..N, each "… 1부." and "끝." closing the last; every item is printed in the PDF
under its heading "붙임 N. …", or names the workbook's sheet that stands in for it (which the
workbook given beside it holds); no text claims paper sent separately.

usage: page_one_head.py PDF [--xlsx FILE] [--head VALUE ...] [--reported WORD]
Prints a JSON object {"items": [...], "problems": [...]}; exits 1 when there is a problem.
Text is compared with every space removed, as a line may wrap anywhere in Korean.
"""
import argparse
import json
import re
import sys
import zipfile

import pymupdf


def squeeze(text):
    return re.sub(r"\s+", "", text.replace("\u00a0", " "))


def sheet_names(path):
    with zipfile.ZipFile(path) as z:
        xml = z.read("xl/workbook.xml").decode("utf-8")
    return [squeeze(re.sub(r"&amp;", "&", n)) for n in re.findall(r'<sheet [^>]*name="([^"]*)"', xml)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pdf")
    ap.add_argument("--xlsx")
    ap.add_argument("--head", action="append", default=[])
    ap.add_argument("--lang", default="ko", choices=["ko", "en"])
    a = ap.parse_args()
    doc = pymupdf.open(a.pdf)
    pages = [squeeze(p.get_text()) for p in doc]
    first, rest = pages[0], "".join(pages[1:])
    problems = []
    ko = a.lang == "ko"
    heading, section, source = ("붙임", "붙임", "출처:") if ko else ("Attachments", "Attachment", "Source:")
    for value in a.head + ["보고일" if ko else "Reported"]:
        if squeeze(value) not in first:
            problems.append(f"page 1 lacks the head's {value!r}")
    # 붙임 … up to the source line.
    start, end = first.find(heading + "1."), first.find(source)
    if start < 0 or end < start:
        problems.append("page 1 has no 붙임 list before its source line")
        print(json.dumps({"items": [], "problems": problems}, ensure_ascii=False))
        return 1
    body = "." + first[start + len(heading):end]
    # An item starts with its number and a dot after the end of the one before ("…1부.2.…").
    # English items end without a dot and start with a capital ("…district2.Starting…").
    parts = re.split(r"(?<=\.)(\d{1,2})\." if ko else r"(\d{1,2})\.(?=[A-Z])", body)
    items = [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]
    sheets = sheet_names(a.xlsx) if a.xlsx else []
    out = []
    for k, (n, text) in enumerate(items):
        last = k == len(items) - 1
        if n != k + 1:
            problems.append(f"item {k + 1} is numbered {n}")
        if ko:
            closing = text.endswith("끝.")
            if last and not closing:
                problems.append(f"the last item ({text}) is not followed by 끝.")
            if not last and closing:
                problems.append(f"끝. closes item {n}, not the last")
            item = text[: -len("끝.")] if closing else text
            if not item.endswith(".") or "1부" not in item:
                problems.append(f"item {n} ({item}) is not written '… 1부.'")
            title = item.split("1부")[0]
            named = re.search(r"엑셀파일「([^」]*)」시트로갈음", item)
        else:
            # English: the title alone (no copy count, no closing mark).
            if "End." in text or "1부" in text:
                problems.append(f"item {n} ({text}) carries Korean marks")
            title = re.sub(r"\(theworkbook's“[^”]*”sheet\)$", "", text)
            named = re.search(r"\(theworkbook's“([^”]*)”sheet\)$", text)
        if named:
            if not a.xlsx:
                problems.append(f"item {n} names the workbook, which is not given")
            elif squeeze(named.group(1)) not in sheets:
                problems.append(f"item {n} names the sheet {named.group(1)}, which the workbook lacks ({sheets})")
            how = "workbook"
        elif f"{section}{n}.{title}" in rest:
            how = "printed"
        else:
            problems.append(f"item {n} ({title}) is neither printed under {section} {n}. nor a named file")
            how = "missing"
        out.append({"number": n, "text": text, "shown": how})
    if len(items) < 5:
        problems.append(f"page 1 lists {len(items)} 붙임")
    for word in ["인쇄본", "별도송부", "별도로보냅니다", "sentseparately"]:
        if any(word in p for p in pages):
            problems.append(f"the PDF says {word}")
    print(json.dumps({"items": out, "problems": problems}, ensure_ascii=False))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
