#!/usr/bin/env bash
# Regenerates reports/sample/ — the report of the bundled sample — from a fresh store.
# The end-to-end tests check that the committed copy is what the current code writes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build --product raon
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
.build/debug/raon report --db "$tmp/store.sqlite" --out "$PWD/reports/sample"
