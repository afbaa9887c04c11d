"""The providers (제공기관명) and the column labels of national downloads, read from the files
alone: what a person may see named in a comparison of them.

  python3 national_providers.py FILE.csv...  -> {"providers": [...], "labels": [...]}
"""
import csv, io, json, sys

providers, labels = set(), set()
for path in sys.argv[1:]:
    raw = open(path, "rb").read()
    text = raw.decode("utf-8-sig") if raw.startswith(b"\xef\xbb\xbf") else raw.decode("cp949", errors="replace")
    reader = csv.DictReader(io.StringIO(text, newline=""))
    labels.update(reader.fieldnames or [])
    for row in reader:
        providers.add(row.get("제공기관명", "").strip())
print(json.dumps({"providers": sorted(providers), "labels": sorted(labels)}, ensure_ascii=False))
