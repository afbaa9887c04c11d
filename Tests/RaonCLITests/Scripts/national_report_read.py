"""Reads a national report folder as a user's tools would: every report.json (the
country's and each pack's), each workbook opened with openpyxl, each CSV's header row and
each Markdown/HTML file's title line. Prints one JSON object, keyed by the folder relative
to the report ("" for the country)."""
import csv, glob, json, os, sys, warnings
import openpyxl

root = sys.argv[1]
out = {}
for report in sorted(glob.glob(os.path.join(root, "**", "report.json"), recursive=True)):
    folder = os.path.relpath(os.path.dirname(report), root)
    folder = "" if folder == "." else folder
    data = json.load(open(report, encoding="utf-8"))
    entry = {"json": data}
    xlsx = os.path.join(os.path.dirname(report), "report.xlsx")
    if os.path.exists(xlsx):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            wb = openpyxl.load_workbook(xlsx, read_only=True)
        entry["sheets"] = wb.sheetnames
        entry["sheetHeaders"] = {}
        for ws in wb.worksheets:
            for row in ws.iter_rows(values_only=True):
                if any(v is not None for v in row):
                    entry["sheetHeaders"][ws.title] = [str(v) for v in row if v is not None]
                    break
        wb.close()
    entry["csv"] = {}
    for path in sorted(glob.glob(os.path.join(os.path.dirname(report), "csv", "*.csv"))):
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = list(csv.reader(f))
        entry["csv"][os.path.basename(path)] = {"header": rows[0] if rows else [], "rows": len(rows) - 1}
    md = os.path.join(os.path.dirname(report), "report.md")
    if os.path.exists(md):
        entry["md"] = open(md, encoding="utf-8").read()
    html = os.path.join(os.path.dirname(report), "report.html")
    if os.path.exists(html):
        entry["html"] = open(html, encoding="utf-8").read()
    out[folder] = entry
print(json.dumps(out, ensure_ascii=False))
