#!/usr/bin/env python3
"""Reads the print set-up of every sheet of an .xlsx straight from its XML (zipfile, no
Raon code) and prints JSON for Raon's Swift tests (XLSXPrintSetUpTests.swift).

For each sheet, by name: state (visible/hidden), orientation, paperSize, fitToPage,
fitToWidth, fitToHeight (Excel's defaults filled in: 1 and 1), margins, oddHeader,
oddFooter, Print_Titles and Print_Area (the defined names' text), and the cross-table
colour scale's cfvo types and values.

usage: check_print.py FILE
"""
import json
import re
import sys
import zipfile
import xml.etree.ElementTree as ET

NS = {
    "m": "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "r": "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "rel": "http://schemas.openxmlformats.org/package/2006/relationships",
}


def main():
    path = sys.argv[1]
    out = {}
    with zipfile.ZipFile(path) as z:
        wb = ET.fromstring(z.read("xl/workbook.xml"))
        rels = ET.fromstring(z.read("xl/_rels/workbook.xml.rels"))
        targets = {r.get("Id"): r.get("Target") for r in rels.findall("rel:Relationship", NS)}
        sheets = wb.findall("m:sheets/m:sheet", NS)
        names = {}
        for d in wb.findall("m:definedNames/m:definedName", NS):
            local = d.get("localSheetId")
            if local is not None:
                names.setdefault(int(local), {})[d.get("name")] = d.text
        for index, sheet in enumerate(sheets):
            name = sheet.get("name")
            target = targets[sheet.get("{%s}id" % NS["r"])]
            part = "xl/" + target.lstrip("/").removeprefix("xl/")
            root = ET.fromstring(z.read(part))
            setup = root.find("m:pageSetup", NS)
            pr = root.find("m:sheetPr/m:pageSetUpPr", NS)
            margins = root.find("m:pageMargins", NS)
            hf = root.find("m:headerFooter", NS)
            a = setup.attrib if setup is not None else {}
            scales = []
            for cf in root.findall("m:conditionalFormatting", NS):
                for rule in cf.findall("m:cfRule", NS):
                    scale = rule.find("m:colorScale", NS)
                    if scale is not None:
                        scales.append({
                            "sqref": cf.get("sqref"),
                            "cfvo": [{"type": c.get("type"), "val": c.get("val")}
                                     for c in scale.findall("m:cfvo", NS)],
                            "colors": [c.get("rgb") for c in scale.findall("m:color", NS)],
                        })
            defined = names.get(index, {})
            out[name] = {
                "state": sheet.get("state", "visible"),
                "orientation": a.get("orientation", "portrait"),
                "paperSize": int(a.get("paperSize", "1")),
                "fitToPage": pr is not None and pr.get("fitToPage") in ("1", "true"),
                "fitToWidth": int(a.get("fitToWidth", "1")),
                "fitToHeight": int(a.get("fitToHeight", "1")),
                "margins": {k: float(v) for k, v in (margins.attrib if margins is not None else {}).items()},
                "oddHeader": hf.findtext("m:oddHeader", default="", namespaces=NS) if hf is not None else "",
                "oddFooter": hf.findtext("m:oddFooter", default="", namespaces=NS) if hf is not None else "",
                "printTitles": defined.get("_xlnm.Print_Titles"),
                "printArea": defined.get("_xlnm.Print_Area"),
                "colorScales": scales,
            }
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
