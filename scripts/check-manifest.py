#!/usr/bin/env python3
"""Checks that Package.swift says what the sources do.

For every target: the modules its Swift files import are exactly the targets and products
it declares (system modules aside), so that the manifest neither hides a dependency that
only works through another target nor keeps one nothing uses. For every module of Raon
under Sources/: the ErrorStatusCheck plugin runs on it (every error type has an exit
status; RaonErrors, which declares the protocol, aside).

    python3 scripts/check-manifest.py      # exit 0 when they match, 1 with the differences
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Modules of the toolchain and the system, never declared.
SYSTEM = {
    "Foundation", "FoundationNetworking", "FoundationXML", "FoundationEssentials", "Glibc",
    "Darwin", "Musl", "Dispatch", "Synchronization", "Testing", "XCTest", "PackagePlugin",
}
# Products whose module has another name.
PRODUCT_MODULES = {}
IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|protocol|func|var|typealias)\s+)?([A-Za-z_][\w]*)", re.M)
# Swift code in multi-line strings (scripts the tests write) is not imported by the target.
MULTILINE_STRING = re.compile(r'"""(?:.|\n)*?"""')


def manifest():
    with tempfile.TemporaryDirectory() as scratch:
        out = subprocess.run(
            ["swift", "package", "--scratch-path", scratch, "dump-package"],
            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def folder(target):
    if target.get("path"):
        return os.path.join(ROOT, target["path"])
    base = {"test": "Tests", "plugin": "Plugins"}.get(target["type"], "Sources")
    return os.path.join(ROOT, base, target["name"])


def imports(path, excluded):
    found = set()
    for dirpath, dirnames, filenames in os.walk(path):
        rel = os.path.relpath(dirpath, path)
        if any(rel == e or rel.startswith(e + os.sep) for e in excluded):
            continue
        for name in filenames:
            if name.endswith(".swift"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    text = MULTILINE_STRING.sub("", f.read())
                found.update(IMPORT.findall(text))
    return found


def declared(target):
    names = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name = value[0]
        names.add(PRODUCT_MODULES.get(name, name) if kind == "product" else name)
    return {n.replace("-", "_") for n in names}


def main():
    problems = []
    for target in manifest()["targets"]:
        if target["type"] in ("system", "plugin", "binary"):
            continue
        name = target["name"]
        used = imports(folder(target), target.get("exclude") or []) - SYSTEM - {name.replace("-", "_")}
        listed = declared(target)
        for module in sorted(used - listed):
            problems.append(f"{name}: imports {module} but does not declare it")
        for module in sorted(listed - used):
            problems.append(f"{name}: declares {module} but no file imports it")
        # A C target (no Swift file) has no error types for the plugin to check.
        is_raon_module = target["type"] in ("regular", "executable") and not target.get("path") \
            and name not in ("RaonErrors",) \
            and any(f.endswith(".swift") for _, _, files in os.walk(folder(target)) for f in files)
        plugins = [next(iter(p.values()))[0] for p in target.get("pluginUsages") or []]
        if is_raon_module and "ErrorStatusCheck" not in plugins:
            problems.append(f"{name}: a module of Raon without the ErrorStatusCheck plugin")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print("Package.swift matches the imports of every target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
