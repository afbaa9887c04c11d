#!/usr/bin/env python3
"""Reads a Raon report folder with independent readers (csv, json, openpyxl, plain text)
and prints what it found as JSON, for the end-to-end tests to compare across formats."""
import csv, json, os, re, sys, zipfile

d = sys.argv[1]
out = {}

if os.path.exists(os.path.join(d, "report.json")):
    out["json"] = json.load(open(os.path.join(d, "report.json"), encoding="utf-8"))

csvs = {}
for name in sorted(os.listdir(os.path.join(d, "csv"))) if os.path.isdir(os.path.join(d, "csv")) else []:
    raw = open(os.path.join(d, "csv", name), "rb").read()
    csvs[name] = {"bom": raw.startswith(b"\xef\xbb\xbf"),
                  "rows": list(csv.reader(raw.decode("utf-8-sig").splitlines(True)))}
out["csv"] = csvs

x = os.path.join(d, "report.xlsx")
if os.path.exists(x):
    import openpyxl
    wb = openpyxl.load_workbook(x)
    sheets = {}
    for ws in wb.worksheets:
        rows = [[c for c in r] for r in ws.iter_rows(values_only=True)]
        sheets[ws.title] = [[(v if isinstance(v, (int, float, str)) or v is None else str(v)) for v in r]
                            for r in rows]
    out["xlsx"] = {"sheets": sheets, "order": wb.sheetnames,
                   "charts": sorted(n for n in zipfile.ZipFile(x).namelist() if n.startswith("xl/charts/chart"))}

m = os.path.join(d, "report.md")
if os.path.exists(m):
    text = open(m, encoding="utf-8").read()
    out["md"] = {"text": text,
                 "images": re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)}
    out["md"]["missingImages"] = [p for p in out["md"]["images"] if not os.path.exists(os.path.join(d, p))]
print(json.dumps(out, ensure_ascii=False))
