#!/usr/bin/env python3
"""Executes the analysts' notebooks headlessly against a fresh Raon store.

    python3 notebooks/run_notebooks.py                 # every notebook; exit 1 if any cell fails
    python3 notebooks/run_notebooks.py 03_compare_snapshots.ipynb
    python3 notebooks/run_notebooks.py --prepare       # only build notebooks/work/{store.sqlite,report/}
    python3 notebooks/run_notebooks.py --clear         # clear the notebooks' outputs, for committing

Steps:
1. Finds the raon binary: $RAON_BIN, else the newer of .build/debug/raon and
   .build/release/raon, else builds it (`swift build --product raon`).
2. In a temporary folder: records the bundled sample (taken 2024-09-09) and a modified
   copy, "next week" (scripts/make_modified_sample.py: 5 removed, 3 added, 4 changed; taken
   2024-09-16), then `raon report --compare-to previous --format json,csv`.
3. Runs every notebooks/*.ipynb with nbclient (kernel python3, per-cell timeout), its
   parameters given through the environment variables its `parameters` cell reads:
   RAON_NOTEBOOK_STORE, RAON_NOTEBOOK_REPORT, RAON_NOTEBOOK_EXPECTED (the modified copy's
   independently computed changes) and RAON_NOTEBOOK_STRICT=1 (cross-checks against the
   report are required, not skipped).
4. Writes the executed copies to notebooks/work/executed/ and every chart as PNG to
   notebooks/work/figures/<notebook>/ (git-ignored).

Prints which notebook and cell failed, and a last line `N passed, M failed` (notebooks).
The committed notebooks must have their outputs cleared; a notebook with outputs fails.
"""
from __future__ import annotations

import argparse
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

NOTEBOOKS = Path(__file__).resolve().parent
REPO = NOTEBOOKS.parent
WORK = NOTEBOOKS / "work"
SAMPLE = REPO / "data" / "sample" / "seoul-cultural-events-2024-09-09.cp949.csv"
MODIFIER = REPO / "scripts" / "make_modified_sample.py"


def log(message: str) -> None:
    print(message, flush=True)


def find_raon(explicit: str | None) -> Path:
    """The raon binary to use; builds the debug one when there is none."""
    chosen = explicit or os.environ.get("RAON_BIN")
    if chosen:
        path = Path(chosen).expanduser().resolve()
        if not (path.is_file() and os.access(path, os.X_OK)):
            sys.exit(f"run_notebooks: RAON_BIN/--raon {path} is not an executable file")
        return path
    built = [REPO / ".build" / kind / "raon" for kind in ("debug", "release")]
    built = [p for p in built if p.is_file() and os.access(p, os.X_OK)]
    if built:
        return max(built, key=lambda p: p.stat().st_mtime)
    log("run_notebooks: no built raon found; running `swift build --product raon`")
    subprocess.run(["swift", "build", "--product", "raon"], cwd=REPO, check=True)
    path = REPO / ".build" / "debug" / "raon"
    if not path.is_file():
        sys.exit(f"run_notebooks: `swift build --product raon` did not produce {path}")
    return path


def run(args: list, **kwargs) -> None:
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(
            f"run_notebooks: `{' '.join(map(str, args))}` failed with status "
            f"{result.returncode}:\n{result.stderr.strip()}")


def build_store(raon: Path, folder: Path) -> dict:
    """Records the sample and its modified copy into folder/store.sqlite, reports on them."""
    folder.mkdir(parents=True, exist_ok=True)
    store, report = folder / "store.sqlite", folder / "report"
    for stale in (store, folder / "store.sqlite-wal", folder / "store.sqlite-shm"):
        stale.unlink(missing_ok=True)
    shutil.rmtree(report, ignore_errors=True)
    modified, expected = folder / "next-week.csv", folder / "expected-changes.json"
    run([sys.executable, MODIFIER, SAMPLE, modified, "--expected", expected])
    run([raon, "snapshot", SAMPLE, "--taken-at", "2024-09-09", "--db", store])
    run([raon, "snapshot", modified, "--taken-at", "2024-09-16", "--db", store])
    run([raon, "report", "--db", store, "--out", report, "--compare-to", "previous",
         "--format", "json,csv"])
    return {"store": store, "report": report, "expected": expected}


def ensure_kernel(name: str) -> None:
    """Makes sure a kernel spec called `name` exists (installs ipykernel's for this user)."""
    from jupyter_client.kernelspec import KernelSpecManager
    if name in KernelSpecManager().find_kernel_specs():
        return
    log(f"run_notebooks: no Jupyter kernel '{name}'; installing ipykernel's for this user")
    subprocess.run([sys.executable, "-m", "ipykernel", "install", "--user", "--name", name],
                   check=True, capture_output=True)


def korean_font_installed() -> bool:
    from matplotlib import font_manager
    names = {f.name for f in font_manager.fontManager.ttflist}
    return any("Nanum" in n or "CJK KR" in n or "Noto Sans KR" in n for n in names) or any(
        Path("/usr/share/fonts/truetype/nanum").glob("*.ttf"))


def cell_tag_name(cell, index: int) -> str:
    for tag in cell.get("metadata", {}).get("tags", []):
        if tag.startswith("chart:"):
            return re.sub(r"[^A-Za-z0-9_.-]+", "_", tag[len("chart:"):])
    return f"cell{index:02d}"


def export_figures(nb, folder: Path) -> int:
    """Writes every image/png output of the executed notebook to folder; returns the count."""
    shutil.rmtree(folder, ignore_errors=True)
    count = 0
    for index, cell in enumerate(nb.cells):
        pngs = [o["data"]["image/png"] for o in cell.get("outputs", [])
                if "data" in o and "image/png" in o["data"]]
        for k, data in enumerate(pngs):
            folder.mkdir(parents=True, exist_ok=True)
            suffix = f"-{k + 1}" if len(pngs) > 1 else ""
            name = f"{index:02d}-{cell_tag_name(cell, index)}{suffix}.png"
            (folder / name).write_bytes(base64.b64decode(data))
            count += 1
    return count


def glyph_warnings(nb) -> int:
    text = "".join(o.get("text", "") for c in nb.cells for o in c.get("outputs", [])
                   if o.get("output_type") == "stream")
    return len(re.findall(r"Glyph \d+ .*missing from", text))


def check_committed_form(nb, name: str) -> list[str]:
    """Problems with the notebook as committed: outputs left in, parameters cell missing."""
    problems = []
    with_outputs = [i for i, c in enumerate(nb.cells)
                    if c.cell_type == "code" and (c.get("outputs") or c.get("execution_count"))]
    if with_outputs:
        problems.append(f"{name}: cells {with_outputs} have outputs; commit it cleared "
                        "(jupyter nbconvert --clear-output --inplace)")
    tagged = [i for i, c in enumerate(nb.cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
    if len(tagged) != 1:
        problems.append(f"{name}: needs exactly one cell tagged 'parameters', has {len(tagged)}")
    return problems


def execute(path: Path, kernel: str, timeout: int, env: dict, sockets: Path) -> tuple[bool, str]:
    import nbformat
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    nb = nbformat.read(path, as_version=4)
    problems = check_committed_form(nb, path.name)
    os.environ.update(env)  # the kernel inherits this process's environment
    # Local IPC sockets in the run's temporary folder rather than unencrypted TCP ports.
    manager = KernelManager(kernel_name=kernel, transport="ipc", ip=str(sockets / path.stem))
    client = NotebookClient(nb, km=manager, timeout=timeout, kernel_name=kernel,
                            allow_errors=False, resources={"metadata": {"path": str(NOTEBOOKS)}})
    failure = None
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as error:
        failed = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"
                       and any(o.get("output_type") == "error" for o in c.get("outputs", []))),
                      None)
        if failed is None:  # a timeout or dead kernel leaves no error output
            executed = [i for i, c in enumerate(nb.cells)
                        if c.cell_type == "code" and c.get("execution_count")]
            failed = (executed[-1] + 1) if executed else 0
        cell = nb.cells[failed] if failed < len(nb.cells) else None
        first_line = (cell.source.strip().splitlines() or [""])[0][:80] if cell else ""
        errors = [o for o in (cell.get("outputs", []) if cell else []) if o.get("output_type") == "error"]
        if errors:
            summary = f"{errors[0]['ename']}: {errors[0]['evalue']}"
        else:
            summary = f"{type(error).__name__}: {error}"
        lines = re.sub(r"\x1b\[[0-9;]*m", "", summary).strip().splitlines()  # no ANSI colours
        if len(lines) > 12:
            lines = lines[:12] + [f"... ({len(lines) - 12} more lines in the executed copy)"]
        failure = f"cell {failed} (`{first_line}`):\n    " + "\n    ".join(lines)
    finally:
        if manager.has_kernel:  # nbclient shuts down only the kernels it made itself
            manager.shutdown_kernel(now=True)
        out = WORK / "executed" / path.name
        out.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, out)
        figures = export_figures(nb, WORK / "figures" / path.stem)
    if failure is None and problems:
        failure = "; ".join(problems)
    glyphs = glyph_warnings(nb)
    note = f"{figures} chart(s)" + (f", {glyphs} missing-glyph warning(s)" if glyphs else "")
    return failure is None, failure or note


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", help="notebook file names (default: all)")
    parser.add_argument("--raon", help="the raon binary (default: $RAON_BIN or .build/*/raon)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per cell (default 300)")
    parser.add_argument("--kernel", default="python3", help="Jupyter kernel name (default python3)")
    parser.add_argument("--prepare", action="store_true",
                        help="only build the notebooks' default inputs in notebooks/work/ and exit")
    parser.add_argument("--clear", action="store_true",
                        help="clear the outputs of the notebooks in place (before committing) and exit")
    options = parser.parse_args()

    if options.clear:
        import nbformat
        for path in sorted(NOTEBOOKS.glob("[0-9]*.ipynb")):
            nb = nbformat.read(path, as_version=4)
            for cell in nb.cells:
                if cell.cell_type == "code":
                    cell.outputs, cell.execution_count = [], None
                cell.get("metadata", {}).pop("execution", None)
            nbformat.write(nb, path)
            log(f"cleared {path.name}")
        return 0

    started = time.monotonic()
    raon = find_raon(options.raon)
    if options.prepare:
        inputs = build_store(raon, WORK)
        log(f"store: {inputs['store']}\nreport: {inputs['report']}")
        return 0

    paths = sorted(NOTEBOOKS.glob("[0-9]*.ipynb"))
    if options.notebooks:
        wanted = {Path(n).name for n in options.notebooks}
        paths = [p for p in paths if p.name in wanted]
        missing = wanted - {p.name for p in paths}
        if missing:
            sys.exit(f"run_notebooks: no such notebook: {', '.join(sorted(missing))}")
    if not paths:
        sys.exit("run_notebooks: no notebooks found")

    ensure_kernel(options.kernel)
    if not korean_font_installed():
        log("run_notebooks: warning: no Korean font (Debian: apt-get install fonts-nanum); "
            "Hangul in the charts will show as boxes")

    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="raon-notebooks-") as temp:
        t0 = time.monotonic()
        inputs = build_store(raon, Path(temp))
        log(f"run_notebooks: raon {raon}; fresh store and report in {temp} "
            f"({time.monotonic() - t0:.1f}s)")
        env = {
            "RAON_NOTEBOOK_STORE": str(inputs["store"]),
            "RAON_NOTEBOOK_REPORT": str(inputs["report"]),
            "RAON_NOTEBOOK_EXPECTED": str(inputs["expected"]),
            "RAON_NOTEBOOK_STRICT": "1",
        }
        for path in paths:
            t0 = time.monotonic()
            ok, message = execute(path, options.kernel, options.timeout, env, Path(temp))
            seconds = time.monotonic() - t0
            if ok:
                passed += 1
                log(f"PASS {path.name} ({seconds:.1f}s, {message})")
            else:
                failed += 1
                log(f"FAIL {path.name} ({seconds:.1f}s): {message}")
    log(f"executed copies: {WORK / 'executed'}; charts: {WORK / 'figures'} "
        f"(total {time.monotonic() - started:.1f}s)")
    log(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
