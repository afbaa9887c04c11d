#!/usr/bin/env python3
"""Where the wall time of one `raon` run goes, 25 ms at a time, from a perf recording.

  perf record -F 4000 --call-graph dwarf,16384 -o perf.data raon report --input NEW.csv ...
  python3 bench/perf_phases.py perf.data

Each sample is put in the first phase whose pattern matches a frame of its stack
(workbook saving, workbook rows, recording, CSV reading, normalising, reading the store,
analytics, text formats, dynamic loading); a bucket with ~100 samples at 4 kHz is one
busy core, ~200 two. Used for bench/PROFILING.md.
"""
import sys, re, subprocess, collections
data = sys.argv[1]
phases = [("xlsxclose","workbook_close"),("xlsxchanges","fillChangesTable"),("xlsxrows","XLSXReportBuilder"),("record","SnapshotSinkC6finish|SnapshotSinkC6insert|SnapshotSinkC6append"),("csvparse","CSVCatalogReader|CatalogTextDecoder|CatalogFileReader"),("normalize","ProgramNormalizer"),("read","programs6inSnapshot|DatabasePoolC4read"),("assemble","ReportAssembler"),("textw","CSVReportWriter|MarkdownReportWriter|JSONReportWriter"),("dl","_dl_start|dl_main"),("compare","ComparisonAhead|SnapshotComparison"),("trend","TrendJob"),("record?","SnapshotBaseV6record|SnapshotB0V6record")]
out = subprocess.run(["perf","script","-i",data,"-F","tid,time,ip,sym"], capture_output=True, text=True).stdout
samples=[]; cur=None
for l in out.split("\n"):
    if not l.strip(): continue
    if not l.startswith("\t") and not l.startswith("  "*6): 
        cur=[l]; samples.append(cur)
    else: cur.append(l.strip())
rows = []
t0 = None
for lines in samples:
    if not lines: continue
    head = lines[0].split()
    tid = head[0]; t = float(head[1].rstrip(":"))
    t0 = t if t0 is None else min(t0, t)
    stack = " ".join(lines[1:])
    ph = "other"
    for name, rx in phases:
        if re.search(rx, stack): ph = name; break
    rows.append((t, tid, ph))
B = 0.025
buckets = collections.defaultdict(collections.Counter)
for t, tid, ph in rows: buckets[int((t - t0)/B)][ph] += 1
for b in sorted(buckets):
    c = buckets[b]; n = sum(c.values())
    print(f"{b*B*1000:5.0f}ms n={n:3d} " + " ".join(f"{k}:{v}" for k, v in c.most_common(4)))
