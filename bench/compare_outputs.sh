#!/usr/bin/env bash
# Checks that two raon binaries write the same report: same store contents and the same
# files (XLSX compared sheet by sheet after unzipping, its creation time aside).
#
#   bash bench/compare_outputs.sh OLD_RAON NEW_RAON INPUT.csv [OLDER.csv]
#
# With OLDER.csv, OLDER is recorded first (taken 2024-09-09) and the report compares
# INPUT (taken 2024-09-16) with it. Exit status 0 when everything matches.
set -euo pipefail
# Absolute paths: each side runs in a folder of its own.
absolute() { realpath -e "$1" 2>/dev/null || { echo "compare_outputs: no file '$1'" >&2; exit 2; }; }
old=$(absolute "$1")
new=$(absolute "$2")
input=$(absolute "$3")
older=""
if [ -n "${4:-}" ]; then older=$(absolute "$4"); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for side in old new; do
  bin=${!side}
  mkdir -p "$work/$side"
  (
    cd "$work/$side"
    if [ -n "$older" ]; then
      "$bin" snapshot "$older" --taken-at 2024-09-09T09:00:00+09:00 --db store.sqlite >/dev/null
    fi
    "$bin" report --input "$input" --taken-at 2024-09-16T09:00:00+09:00 --db store.sqlite --out out >/dev/null
    mkdir xlsx && (cd xlsx && unzip -q ../out/report.xlsx && rm -f docProps/core.xml)
    rm out/report.xlsx
    sqlite3 store.sqlite "SELECT * FROM program_version ORDER BY id" | sha256sum > program_version.sha
    sqlite3 store.sqlite "SELECT hex(raw_hash) FROM program_version ORDER BY id" | sha256sum > raw_hash.sha
    sqlite3 store.sqlite "SELECT * FROM presence ORDER BY version_id, first_snapshot_id" | sha256sum > presence.sha
    sqlite3 store.sqlite "SELECT * FROM snapshot ORDER BY id" | sha256sum > snapshot.sha
    rm -f store.sqlite*
  )
done
if diff -r "$work/old" "$work/new"; then
  echo "same outputs: $(find "$work/new" -type f | wc -l) files compared"
else
  echo "OUTPUTS DIFFER" >&2
  exit 1
fi
