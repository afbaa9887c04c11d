"""Reads what a person opens of a national report or comparison, as their tools would:
each CSV's name, header and first column's counts (Python's csv), each workbook's sheets,
their rows and print headers (openpyxl), and the Markdown/HTML text. Prints one JSON object.

  python3 national_outputs_read.py FOLDER
"""
import csv, glob, json, os, re, sys, warnings, zipfile
import openpyxl

def print_areas(path):
    """Each sheet's print area as workbook.xml defines it (openpyxl drops whole-column ones)."""
    xml = zipfile.ZipFile(path).read("xl/workbook.xml").decode("utf-8")
    return {int(m.group(1)): m.group(2)
            for m in re.finditer(r'<definedName name="_xlnm.Print_Area" localSheetId="(\d+)">([^<]*)</definedName>', xml)}

root = sys.argv[1]
out = {"csv": {}, "xlsx": {}, "text": {}}
for path in sorted(glob.glob(os.path.join(root, "**", "*.csv"), recursive=True)):
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = list(csv.reader(f))
    out["csv"][os.path.relpath(path, root)] = {"header": rows[0] if rows else [], "rows": rows[1:]}
for path in sorted(glob.glob(os.path.join(root, "**", "*.xlsx"), recursive=True)):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(path)
    sheets = {}
    for ws in wb.worksheets:
        rows = [[("" if v is None else str(v)) for v in row] for row in ws.iter_rows(values_only=True)]
        sheets[ws.title] = {
            "rows": rows,
            "headerLeft": ws.oddHeader.left.text or "", "headerCenter": ws.oddHeader.center.text or "",
            "landscape": ws.page_setup.orientation == "landscape",
            "fitToWidth": ws.page_setup.fitToWidth, "printTitles": str(ws.print_title_rows or ""),
            "printArea": print_areas(path).get(wb.sheetnames.index(ws.title), ""),
        }
    out["xlsx"][os.path.relpath(path, root)] = {"sheets": sheets, "order": wb.sheetnames}
for path in sorted(glob.glob(os.path.join(root, "**", "*.md"), recursive=True)
                   + glob.glob(os.path.join(root, "**", "*.html"), recursive=True)
                   + glob.glob(os.path.join(root, "**", "*.json"), recursive=True)):
    out["text"][os.path.relpath(path, root)] = open(path, encoding="utf-8").read()
print(json.dumps(out, ensure_ascii=False))
