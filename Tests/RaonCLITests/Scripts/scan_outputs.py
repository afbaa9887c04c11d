"""Finds text in every file of output folders: each file read as UTF-8 (a workbook part by
part after unzipping, a PDF skipped), each pattern a regular expression.

  python3 scan_outputs.py PATTERNS.json FOLDER [FOLDER …]

Prints JSON: {"files": N, "found": {pattern: ["folder/file: …context…", …]}} (at most 20
places per pattern).
"""
import json, os, re, sys, zipfile

patterns = [re.compile(p) for p in json.load(open(sys.argv[1], encoding="utf-8"))]
found = {p.pattern: [] for p in patterns}
count = 0


def scan(name, text):
    for p in patterns:
        for m in p.finditer(text):
            if len(found[p.pattern]) < 20:
                found[p.pattern].append(f"{name}: {text[max(0, m.start() - 40):m.end() + 40]}")


for folder in sys.argv[2:]:
    for base, _, names in os.walk(folder):
        for n in names:
            path = os.path.join(base, n)
            rel = os.path.relpath(path, os.path.dirname(folder.rstrip("/")))
            if n.endswith(".pdf") or ".sqlite" in n:
                continue
            count += 1
            if n.endswith(".xlsx"):
                with zipfile.ZipFile(path) as z:
                    for part in z.namelist():
                        scan(f"{rel}!{part}", z.read(part).decode("utf-8", errors="replace"))
            else:
                data = open(path, "rb").read()
                scan(rel, data.decode("utf-8-sig", errors="replace"))
print(json.dumps({"files": count, "found": found}, ensure_ascii=False))
