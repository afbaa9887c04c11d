#!/usr/bin/env python3
"""Runs the same commands with two raon binaries and compares every file they write.

  python3 bench/compare_scenarios.py OLD_RAON NEW_RAON [--only NAME,NAME] [--keep DIR]
                                     [--allow-html] [--bench RAON_BENCH]

Scenarios (each side in a folder of its own, the same inputs and --taken-at times):
  sample      `report --input` of the bundled sample (no comparison)
  week        the sample as last week, a modified copy (scripts/make_modified_sample.py) as
              this week's input: the weekly report with its comparison
  synthetic   `report --input` of a 20,000-program synthetic catalog (`raon-bench analytics
              --count 20000 --write-csv`, what bench/bench.py times)
  weekly4x    the weekly job at 19,992 real rows (the sample and its modified copy grown 4×
              with Tests/RaonCLITests/Scripts/grow_catalog.py)
  yearapart   two real downloads a year apart, most programs replaced
              (bench/make_year_apart.py), the second reported against the first
  districts   a two-snapshot store: `report --districts all` in md,xlsx,csv,json,html, ko and en
  diff        `diff 1 2 --format md,xlsx,csv,json,html`, ko and en
  trend       `trend`, ko and en
  site        `site` and `site --lang en`
  national    the real national download as last week's, a later one built from it
              (Tests/RaonCLITests/Scripts/national_later.py) reported against it:
              `--regions all` in md,xlsx,csv,json,html, ko and en
  nationaldiff, nationaltrend, nationalsite   the same store's `diff`, `trend`, `site`
  national65  the later download reported against the real one taken 65 weeks earlier
  nationalheld  the later download reported as it is recorded (`report --input`,
              the held input's path) against the real one, ko; then the same in English
  national65held  national65's report made as the later download is recorded (`report --input`)
  nationalyear  the national download and a year later (bench/make_national_year_apart.py):
              the weekly report of the later one (md,xlsx,csv,json)

Workbooks are compared part by part after unzipping (their creation time aside); a PDF is
not compared (Chromium stamps it). With --allow-html the pages made from the report
(`report.html`, `changes.html`, and the site's week pages and home page, which embed them)
may differ: they are listed, and only another difference fails the run. Prints every file
that differs; exit status 0 when nothing but what is allowed differs.
"""
import argparse, filecmp, os, shutil, subprocess, sys, tempfile, zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "data", "sample", "seoul-cultural-events-2024-09-09.cp949.csv")
GROW = os.path.join(ROOT, "Tests", "RaonCLITests", "Scripts", "grow_catalog.py")
MODIFY = os.path.join(ROOT, "scripts", "make_modified_sample.py")
YEAR_APART = os.path.join(ROOT, "bench", "make_year_apart.py")
NATIONAL = "/work/shared/data/national-performance-events-2025-03.cp949.csv"
if not os.path.exists(NATIONAL):
    NATIONAL = os.path.join(ROOT, "data", "national", "national-performance-events-2025-03.cp949.csv")
NATIONAL_LATER = os.path.join(ROOT, "Tests", "RaonCLITests", "Scripts", "national_later.py")
N1, N2, N65 = "2025-03-31T09:00:00+09:00", "2025-04-07T09:00:00+09:00", "2024-01-01T09:00:00+09:00"
NATIONAL_YEAR = os.path.join(ROOT, "bench", "make_national_year_apart.py")
T1 = "2024-09-09T09:00:00+09:00"
T2 = "2024-09-16T09:00:00+09:00"


def sh(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stderr[-3000:])
        raise SystemExit(f"failed ({p.returncode}) in {cwd}: {' '.join(cmd)}")


def inputs(work, bench):
    """The shared input files, made once."""
    made = {"sample": SAMPLE}
    made["modified"] = os.path.join(work, "sample-modified.csv")
    if not os.path.exists(made["modified"]):
        sh([sys.executable, MODIFY, SAMPLE, made["modified"]], work)
    for name, src in [("old4x", SAMPLE), ("new4x", made["modified"])]:
        made[name] = os.path.join(work, f"{name}.csv")
        if not os.path.exists(made[name]):
            sh([sys.executable, GROW, src, made[name], "4"], work)
    made["synthetic"] = os.path.join(work, "synthetic-20000.csv")
    if not os.path.exists(made["synthetic"]) and os.path.exists(bench):
        sh([bench, "analytics", "--count", "20000", "--write-csv", made["synthetic"]], work)
    made["yearold"] = os.path.join(work, "year-old.csv")
    made["yearnew"] = os.path.join(work, "year-new.csv")
    if not os.path.exists(made["yearnew"]):
        sh([sys.executable, YEAR_APART, SAMPLE, made["yearold"], made["yearnew"]], work)
    made["national"] = NATIONAL
    made["nationallater"] = os.path.join(work, "national-later.csv")
    if not os.path.exists(made["nationallater"]):
        sh([sys.executable, NATIONAL_LATER, NATIONAL, made["nationallater"]], work)
    made["nationalold"] = os.path.join(work, "national-year-old.csv")
    made["nationalnew"] = os.path.join(work, "national-year-new.csv")
    if not os.path.exists(made["nationalnew"]):
        sh([sys.executable, NATIONAL_YEAR, NATIONAL, made["nationalold"], made["nationalnew"]], work)
    return made


def scenarios(f):
    """name -> list of commands (the binary's path is put first)."""
    two = [["snapshot", f["sample"], "--taken-at", T1, "--db", "s.sqlite"],
           ["snapshot", f["modified"], "--taken-at", T2, "--db", "s.sqlite"]]
    national = [["snapshot", "--catalog", "national", f["national"], "--taken-at", N1, "--db", "n.sqlite"],
                ["snapshot", "--catalog", "national", f["nationallater"], "--taken-at", N2, "--db", "n.sqlite"]]
    return {
        "sample": [["report", "--input", f["sample"], "--taken-at", T1, "--db", "s.sqlite", "--out", "out"]],
        "week": [two[0], ["report", "--input", f["modified"], "--taken-at", T2, "--db", "s.sqlite", "--out", "out"]],
        "synthetic": [["report", "--input", f["synthetic"], "--taken-at", T1, "--db", "s.sqlite", "--out", "out"]],
        "weekly4x": [["snapshot", f["old4x"], "--taken-at", T1, "--db", "s.sqlite"],
                     ["report", "--input", f["new4x"], "--taken-at", T2, "--db", "s.sqlite", "--out", "out"]],
        "yearapart": [["snapshot", f["yearold"], "--taken-at", "2023-09-11T09:00:00+09:00", "--db", "s.sqlite"],
                      ["report", "--input", f["yearnew"], "--taken-at", T1, "--db", "s.sqlite", "--out", "out"]],
        "districts": two + [
            ["report", "--districts", "all", "--format", "md,xlsx,csv,json,html", "--db", "s.sqlite", "--out", "ko"],
            ["report", "--districts", "all", "--format", "md,xlsx,csv,json,html", "--lang", "en", "--csv-headers", "ko",
             "--db", "s.sqlite", "--out", "en"]],
        "diff": two + [
            ["diff", "1", "2", "--format", "md,xlsx,csv,json,html", "--db", "s.sqlite", "--out", "ko"],
            ["diff", "1", "2", "--format", "md,xlsx,csv,json,html", "--lang", "en", "--db", "s.sqlite", "--out", "en"]],
        "trend": two + [["trend", "--db", "s.sqlite", "--out", "ko"],
                        ["trend", "--lang", "en", "--db", "s.sqlite", "--out", "en"]],
        "site": two + [["site", "--db", "s.sqlite", "--out", "ko"],
                       ["site", "--lang", "en", "--db", "s.sqlite", "--out", "en"]],
        "national": national + [
            ["report", "--catalog", "national", "--regions", "all", "--format", "md,xlsx,csv,json,html",
             "--db", "n.sqlite", "--out", "ko"],
            ["report", "--catalog", "national", "--regions", "all", "--format", "md,xlsx,csv,json,html",
             "--lang", "en", "--db", "n.sqlite", "--out", "en"]],
        "nationaldiff": national + [
            ["diff", "1", "2", "--catalog", "national", "--format", "md,xlsx,csv,json,html", "--db", "n.sqlite",
             "--out", "ko"],
            ["diff", "1", "2", "--catalog", "national", "--format", "md,xlsx,csv,json,html", "--lang", "en",
             "--db", "n.sqlite", "--out", "en"]],
        "nationaltrend": national + [["trend", "--catalog", "national", "--db", "n.sqlite", "--out", "ko"],
                                     ["trend", "--catalog", "national", "--lang", "en", "--db", "n.sqlite", "--out", "en"]],
        "nationalsite": national + [["site", "--catalog", "national", "--db", "n.sqlite", "--out", "ko"],
                                    ["site", "--catalog", "national", "--lang", "en", "--db", "n.sqlite", "--out", "en"]],
        "national65": [
            ["snapshot", "--catalog", "national", f["national"], "--taken-at", N65, "--db", "n.sqlite"],
            ["snapshot", "--catalog", "national", f["nationallater"], "--taken-at", N2, "--db", "n.sqlite"],
            ["report", "--catalog", "national", "--regions", "all", "--format", "md,xlsx,csv,json,html",
             "--db", "n.sqlite", "--out", "ko"],
            ["report", "--catalog", "national", "--format", "md,xlsx,csv,json,html", "--lang", "en",
             "--db", "n.sqlite", "--out", "en"]],
        "nationalheld": [
            ["snapshot", "--catalog", "national", f["national"], "--taken-at", N1, "--db", "n.sqlite"],
            ["report", "--catalog", "national", "--input", f["nationallater"], "--taken-at", N2, "--regions", "all",
             "--format", "md,xlsx,csv,json,html", "--db", "n.sqlite", "--out", "ko"],
            ["report", "--catalog", "national", "--regions", "all", "--region", "경상북도 안동시",
             "--format", "md,xlsx,csv,json,html", "--lang", "en", "--db", "n.sqlite", "--out", "en"]],
        "national65held": [
            ["snapshot", "--catalog", "national", f["national"], "--taken-at", N65, "--db", "n.sqlite"],
            ["report", "--catalog", "national", "--input", f["nationallater"], "--taken-at", N2, "--regions", "all",
             "--format", "md,xlsx,csv,json,html", "--db", "n.sqlite", "--out", "ko"]],
        "nationalyear": [
            ["snapshot", "--catalog", "national", f["nationalold"], "--taken-at", N1, "--db", "s.sqlite"],
            ["report", "--catalog", "national", "--input", f["nationalnew"], "--taken-at", "2026-03-31T09:00:00+09:00",
             "--format", "md,xlsx,csv,json", "--db", "s.sqlite", "--out", "out"]],
    }


def unpacked(path, into):
    with zipfile.ZipFile(path) as z:
        z.extractall(into)
    core = os.path.join(into, "docProps", "core.xml")
    if os.path.exists(core):
        os.remove(core)


def files(root):
    out = set()
    for base, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(base, n), root))
    return out


def is_page(path):
    """A page made from the report's document (or embedding one): allowed to differ."""
    name = os.path.basename(path)
    if name in ("report.html", "changes.html"):
        return True
    # The site's home page leads with the latest week's page 1; its trend page is the
    # trend's document (the range a paragraph, no longer a list Ink numbered from 2024).
    return name in ("index.html", "trend.html") and path.count(os.sep) <= 1


def compare(old, new, scratch):
    """Paths (relative) that differ or exist on one side only."""
    differ = []
    a, b = files(old), files(new)
    for only in sorted(a ^ b):
        differ.append(only + (" (only old)" if only in a else " (only new)"))
    for rel in sorted(a & b):
        pa, pb = os.path.join(old, rel), os.path.join(new, rel)
        if rel.endswith(".pdf") or rel.endswith(".sqlite") or ".sqlite-" in rel:
            continue
        if rel.endswith(".xlsx"):
            ua, ub = os.path.join(scratch, "a"), os.path.join(scratch, "b")
            shutil.rmtree(ua, ignore_errors=True)
            shutil.rmtree(ub, ignore_errors=True)
            unpacked(pa, ua)
            unpacked(pb, ub)
            parts = [p for p in compare(ua, ub, os.path.join(scratch, "x")) if p]
            if parts:
                differ.append(rel + " [" + ", ".join(parts) + "]")
        elif not filecmp.cmp(pa, pb, shallow=False):
            differ.append(rel)
    return differ


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--only", help="comma-separated scenario names")
    ap.add_argument("--keep", help="keep the outputs in this folder")
    ap.add_argument("--allow-html", action="store_true", help="the report's pages may differ")
    ap.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "raon-bench"))
    a = ap.parse_args()
    old, new = os.path.realpath(a.old), os.path.realpath(a.new)
    a.bench = os.path.realpath(a.bench)
    work = a.keep or tempfile.mkdtemp(prefix="raon-compare-")
    os.makedirs(work, exist_ok=True)
    f = inputs(work, a.bench)
    chosen = scenarios(f)
    if a.only:
        chosen = {k: v for k, v in chosen.items() if k in a.only.split(",")}
    failed = False
    for name, commands in chosen.items():
        sides = {}
        for side, binary in [("old", old), ("new", new)]:
            d = os.path.join(work, name, side)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            for cmd in commands:
                sh([binary] + cmd, d)
            sides[side] = d
        scratch = tempfile.mkdtemp(dir=work)
        differ = [p for p in compare(sides["old"], sides["new"], scratch)
                  if not p.startswith("s.sqlite") and not p.startswith("n.sqlite")]
        shutil.rmtree(scratch)
        pages = [p for p in differ if a.allow_html and is_page(p.split(" ")[0])]
        others = [p for p in differ if p not in pages]
        count = len(files(sides["new"]))
        print(f"{name}: {count} files; {len(others)} differ" + (f", {len(pages)} pages differ (allowed)" if pages else ""))
        for p in others:
            print(f"  DIFFERS {p}")
        for p in pages[:20]:
            print(f"  page    {p}")
        if len(pages) > 20:
            print(f"  page    … and {len(pages) - 20} more")
        failed = failed or bool(others)
    if not a.keep:
        shutil.rmtree(work)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
