"""The one XLSX checker of Raon's tests and hostile runner: reads a workbook with readers
independent of Raon (the zip's XML, openpyxl).

- `xml_problems(path)`: every XML part parses (standard library only).
- `describe(path, max_rows)`: what openpyxl and the XML say about cells, panes, filters,
  widths, links, conditional formats, properties and charts, as a dict for JSON
  (`Tests/RaonExportTests/Scripts/check_xlsx.py` prints it for the Swift tests).
"""
import datetime
import os
import re
import xml.etree.ElementTree as ET
import zipfile

MAX_COLS = 40


def cell_json(cell):
    v = cell.value
    if isinstance(v, (datetime.datetime, datetime.date)):
        py, v = "datetime", v.isoformat()
    elif isinstance(v, bool):
        py = "bool"
    elif isinstance(v, (int, float)):
        py = "number"
    elif v is None:
        py = "none"
    else:
        py, v = "str", str(v)
    return {"v": v, "t": cell.data_type, "py": py, "fmt": cell.number_format}


def xml_problems(path):
    """Every XML part of the workbook parses; returns a list of problems."""
    probs = []
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "[Content_Types].xml" not in names:
                probs.append(f"{os.path.basename(path)}: no [Content_Types].xml")
            for n in names:
                if n.endswith(".xml") or n.endswith(".rels"):
                    data = z.read(n)
                    try:
                        ET.fromstring(data)
                    except ET.ParseError as e:
                        probs.append(f"{os.path.basename(path)}:{n} is not well-formed XML ({e})")
    except (zipfile.BadZipFile, OSError) as e:
        probs.append(f"{os.path.basename(path)} is not a zip: {e}")
    return probs


def describe(path, max_rows=60):
    """What an independent reader finds in the workbook at `path` (the first `max_rows`
    rows of each sheet), as a dict ready for `json.dump`."""
    import openpyxl  # only here: the hostile runner needs the standard library alone

    wb = openpyxl.load_workbook(path)  # not read-only: freeze panes, links, widths
    out = {"sheets": wb.sheetnames, "cells": {}, "freeze": {}, "autofilter": {},
           "widths": {}, "hyperlinks": {}, "maxRow": {}, "conditional": {}}
    for ws in wb.worksheets:
        name = ws.title
        rows = []
        for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows),
                                max_col=min(ws.max_column, MAX_COLS)):
            rows.append([cell_json(c) for c in row])
        out["cells"][name] = rows
        out["freeze"][name] = ws.freeze_panes
        out["autofilter"][name] = ws.auto_filter.ref
        out["widths"][name] = {
            k: d.width for k, d in ws.column_dimensions.items() if d.customWidth}
        links = {}
        # openpyxl binds hyperlinks to their cells on load.
        for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, max_rows)):
            for c in row:
                if c.hyperlink is not None and c.hyperlink.target:
                    links[c.coordinate] = c.hyperlink.target
                elif c.data_type == "f" and isinstance(c.value, str):
                    # A link written as =HYPERLINK("address"): its target, quotes undoubled.
                    m = re.fullmatch(r'=HYPERLINK\("((?:[^"]|"")*)"\)', c.value)
                    if m:
                        links[c.coordinate] = m.group(1).replace('""', '"')
        out["hyperlinks"][name] = links
        out["maxRow"][name] = ws.max_row
        out["conditional"][name] = [
            {"range": str(rng.sqref), "types": [r.type for r in rules]}
            for rng, rules in ws.conditional_formatting._cf_rules.items()]
    p = wb.properties
    out["properties"] = {
        "title": p.title, "subject": p.subject, "creator": p.creator,
        "keywords": p.keywords,
        "created": p.created.isoformat() if p.created else None,
    }
    charts = []
    with zipfile.ZipFile(path) as z:
        # Which sheet each chart is drawn on: sheet → its drawing → the drawing's charts.
        def rels(part):
            folder, name = part.rsplit("/", 1)
            rel = folder + "/_rels/" + name + ".rels"
            if rel not in z.namelist():
                return []
            targets = re.findall(r'Target="([^"]+)"', z.read(rel).decode("utf-8"))
            return [norm(folder, t) for t in targets]

        def norm(folder, target):
            parts = (target.lstrip("/") if target.startswith("/") else folder + "/" + target).split("/")
            out = []
            for p in parts:
                if p == "..":
                    out.pop()
                elif p not in ("", "."):
                    out.append(p)
            return "/".join(out)

        wbxml = z.read("xl/workbook.xml").decode("utf-8")
        sheet_rids = re.findall(r'<sheet [^>]*name="([^"]+)"[^>]*r:id="([^"]+)"', wbxml)
        wbrels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8")
        rid_target = dict((a, b) for a, b in re.findall(r'Id="([^"]+)"[^>]*Target="([^"]+)"', wbrels))
        rid_target.update((a, b) for b, a in re.findall(r'Target="([^"]+)"[^>]*Id="([^"]+)"', wbrels))
        chart_sheet = {}
        for name, rid in sheet_rids:
            part = norm("xl", rid_target[rid])
            for drawing in rels(part):
                for chart in rels(drawing):
                    chart_sheet[chart] = name.replace("&amp;", "&")
        for n in sorted(z.namelist()):
            if re.match(r"xl/charts/chart\d+\.xml$", n):
                xml = z.read(n).decode("utf-8")
                charts.append({
                    "path": n,
                    "sheet": chart_sheet.get(n),
                    "formulas": re.findall(r"<c:f>(.*?)</c:f>", xml),
                    "numCachePoints": len(re.findall(
                        r"<c:pt idx=\"\d+\">", "".join(re.findall(r"<c:numCache>.*?</c:numCache>", xml)))),
                    "strCachePoints": len(re.findall(
                        r"<c:pt idx=\"\d+\">", "".join(re.findall(r"<c:strCache>.*?</c:strCache>", xml)))),
                    "title": "".join(re.findall(r"<c:title>.*?<a:t>(.*?)</a:t>", xml)[:1]),
                })
        inline = {}
        for n in z.namelist():
            if re.match(r"xl/worksheets/sheet\d+\.xml$", n):
                inline[n] = 't="inlineStr"' in z.read(n).decode("utf-8")
        out["inlineStringSheets"] = inline
    out["charts"] = charts
    return out
