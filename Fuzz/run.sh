#!/usr/bin/env bash
# Builds and runs one libFuzzer target.
#
#   Fuzz/run.sh TARGET [SECONDS]        build, then fuzz for SECONDS (default 600)
#   Fuzz/run.sh TARGET build            build only
#   Fuzz/run.sh TARGET repro FILE...    run the target once on each FILE (a crash to replay)
#
# TARGET is one of: csv, json_file, json_api, fields, config, mail_config (see Fuzz/README.md).
# Environment: FUZZ_EXTRA (more libFuzzer flags), FUZZ_NO_ASAN=1.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
target="${1:?usage: Fuzz/run.sh TARGET [SECONDS|build|repro FILE...]}"
mode="${2:-600}"
[[ -f "$here/Targets/$target.swift" && "$target" != FuzzChecks ]] || { echo "no target $target (have: $(cd "$here/Targets" && ls *.swift | grep -v FuzzChecks | sed 's/.swift//' | tr '\n' ' '))" >&2; exit 2; }

build="$here/.build/$target"
src="$build/src"
binary="$build/fuzz-$target"
rm -rf "$src"; mkdir -p "$src"
sanitizers="fuzzer,address"
[[ "${FUZZ_NO_ASAN:-}" == 1 ]] && sanitizers="fuzzer"
extra=()
if [[ "$target" == config || "$target" == mail_config ]]; then
  # The config's grammar check and TOMLKit (from the package checkout of `swift build`),
  # with toml++ compiled with its asserts on, as SwiftPM compiles it.
  tomlkit="$root/.build/checkouts/TOMLKit/Sources"
  [[ -d "$tomlkit" ]] || { echo "run 'swift build' first: $tomlkit is missing" >&2; exit 2; }
  cp "$root"/Sources/RaonErrors/*.swift "$src/"
  for f in "$root"/Sources/RaonWorkflow/TOMLSyntaxCheck*.swift; do
    sed '/^import RaonErrors$/d' "$f" > "$src/$(basename "$f")"
  done
  if [[ "$target" == mail_config ]]; then
    # The mail settings' parsers and header writer (RaonMail without libcurl and the
    # message body, which need RaonCore).
    for f in MailAddress Mailbox HeaderEncoding SMTPServer MailSendError; do
      sed '/^import RaonErrors$/d' "$root/Sources/RaonMail/$f.swift" > "$src/$f.swift"
    done
  fi
  find "$tomlkit/TOMLKit" -name '*.swift' -exec cp {} "$src/" \;
  objects="$build/ctoml"; mkdir -p "$objects"
  cxx_sanitizers="fuzzer-no-link${sanitizers#fuzzer}"
  for f in "$tomlkit"/CTOML/Sources/*.cpp; do
    o="$objects/$(basename "$f" .cpp | tr -c 'A-Za-z0-9\n' _).o"
    [[ -f "$o" && "$(cat "$build/cxx-stamp" 2>/dev/null)" == "$sanitizers" ]] ||
      clang++ -std=c++17 -O1 -g -fsanitize="$cxx_sanitizers" -DTOML_EXCEPTIONS=1 \
        -I "$tomlkit/CTOML/include" -c "$f" -o "$o"
  done
  echo "$sanitizers" > "$build/cxx-stamp"
  extra=(-suppress-warnings -I "$tomlkit/CTOML/include/CTOML" "$objects"/*.o -lstdc++)
else
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
  cp "$here/Targets/FuzzChecks.swift" "$src/"
fi
stamp="$(cat "$src"/*.swift "$here/Targets/$target.swift" | sha256sum | cut -c1-16)"
if [[ ! -x "$binary" || "$(cat "$build/stamp" 2>/dev/null)" != "$stamp-$sanitizers" ]]; then
  echo "building $binary ($sanitizers) …" >&2
  swiftc -sanitize="$sanitizers" -parse-as-library -O -g -module-name RaonFuzz \
    "$src"/*.swift "$here/Targets/$target.swift" "${extra[@]}" -o "$binary" \
    2> >(grep -v "Cannot export local symbol" >&2)
  echo "$stamp-$sanitizers" > "$build/stamp"
fi
[[ "$mode" == build ]] && exit 0

flags=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 -print_final_stats=1)
# TOMLKit leaks ~160 bytes on every parse (its parse-error buffer and more; not Raon's to
# fix, a config is read once per run): no leak reports, and room for the leak to grow.
if [[ "$target" == config || "$target" == mail_config ]]; then
  flags=("${flags[@]/-rss_limit_mb=2048/-rss_limit_mb=6144}" -detect_leaks=0)
  export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
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
