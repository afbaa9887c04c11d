#!/usr/bin/env bash
# Builds and runs one libFuzzer target.
#
#   Fuzz/run.sh TARGET [SECONDS]        build, then fuzz for SECONDS (default 600)
#   Fuzz/run.sh TARGET build            build only
#   Fuzz/run.sh TARGET repro FILE...    run the target once on each FILE (a crash to replay)
#
# TARGET is one of: csv, json_file, json_api, fields (see Fuzz/README.md).
# Environment: FUZZ_EXTRA (more libFuzzer flags), FUZZ_NO_ASAN=1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
target="${1:?usage: Fuzz/run.sh TARGET [SECONDS|build|repro FILE...]}"
mode="${2:-600}"
[[ -f "$here/Targets/$target.swift" ]] || { echo "no target $target (have: $(cd "$here/Targets" && ls *.swift | grep -v FuzzChecks | sed 's/.swift//' | tr '\n' ' '))" >&2; exit 2; }

build="$here/.build/$target"
src="$build/src"
binary="$build/fuzz-$target"
rm -rf "$src"; mkdir -p "$src"

# One module from the sources under test: RaonCore, and RaonIngest's readers (the
# network client is left out), with RaonErrors. `import RaonCore` and `import RaonErrors`
# are dropped since they are the same module.
cp "$root"/Sources/RaonCore/*.swift "$root"/Sources/RaonErrors/*.swift "$src/"
for f in "$root"/Sources/RaonIngest/*.swift; do
  case "$(basename "$f")" in
    HTTPTransport.swift|OpenAPIClient.swift|OpenAPIConfiguration.swift|OpenAPIError.swift|ProgressEvent.swift) ;;
    *) sed '/^import RaonCore$/d; /^import RaonErrors$/d' "$f" > "$src/$(basename "$f")" ;;
  esac
done
sanitizers="fuzzer,address"
[[ "${FUZZ_NO_ASAN:-}" == 1 ]] && sanitizers="fuzzer"
stamp="$(cat "$src"/*.swift "$here/Targets/$target.swift" "$here/Targets/FuzzChecks.swift" | sha256sum | cut -c1-16)"
if [[ ! -x "$binary" || "$(cat "$build/stamp" 2>/dev/null)" != "$stamp-$sanitizers" ]]; then
  echo "building $binary ($sanitizers) …" >&2
  swiftc -sanitize="$sanitizers" -parse-as-library -O -g -module-name RaonFuzz \
    "$src"/*.swift "$here/Targets/FuzzChecks.swift" "$here/Targets/$target.swift" -o "$binary" \
    2> >(grep -v "Cannot export local symbol" >&2)
  echo "$stamp-$sanitizers" > "$build/stamp"
fi
[[ "$mode" == build ]] && exit 0

flags=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 -print_final_stats=1)
if [[ "$mode" == repro ]]; then
  shift 2
  exec "$binary" "${flags[@]}" "$@"
fi

seconds="$mode"
corpus="$here/.work/$target"          # the growing corpus (not committed)
seeds="$here/corpus/$target"          # the committed seed corpus
artifacts="$here/artifacts"           # crashes, timeouts, OOMs: turn each into a test
mkdir -p "$corpus" "$artifacts"
dict=()
[[ -f "$here/dict/$target.dict" ]] && dict=(-dict="$here/dict/$target.dict")
cd "$build"
# shellcheck disable=SC2086
"$binary" "${flags[@]}" "${dict[@]}" -max_total_time="$seconds" \
  -artifact_prefix="$artifacts/$target-" ${FUZZ_EXTRA:-} "$corpus" "$seeds"
