#!/usr/bin/env bash
# Set-up command 1: installs what is missing, builds Raon (release) and runs the main job,
# `raon report`, which on an empty store records the bundled sample first (offline, no key).
# Extra arguments go to `raon report`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product raon
exec .build/release/raon report "$@"
