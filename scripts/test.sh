#!/usr/bin/env bash
# Set-up command 2: installs what is missing (Debian and Python packages) and runs every
# test: the Swift test suite (unit, store, loopback API, XLSX read back with openpyxl,
# end-to-end runs of the built binary) and the analysts' notebooks, executed headlessly.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
# Package.swift says what the sources import, and every module runs the error-status check.
python3 scripts/check-manifest.py
swift build --build-tests
# Serially: several suites run real servers on 127.0.0.1 inside the test process while
# others wait on child processes; in parallel on a 2-core machine the waits can starve the
# servers' threads, and serial is no slower here (the suite is CPU-bound).
swift test --skip-build --no-parallel
# The thread sanitizer over the suites whose code runs on several threads (every
# RaonConcurrency type, the report job in-process and the real binary's report), in a
# build of its own (.build-tsan); any race fails the run.
bash scripts/test-tsan.sh
# The hostile families' quick subsets (scripts/hostile: the mail server, signals mid-delivery,
# mutated mail configs, children's environments) on the binary just built; `make hostile`
# runs the whole set on the release binary.
python3 scripts/hostile/run_hostile.py --raon .build/debug/raon --quick
if [ -f notebooks/run_notebooks.py ]; then
  python3 notebooks/run_notebooks.py
fi
