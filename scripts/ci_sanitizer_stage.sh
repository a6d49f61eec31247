#!/usr/bin/env bash
# scripts/ci_sanitizer_stage.sh [DIR]: the sanitizer stage, ready for
# .ci/run (docs/reliability.md, "Sanitizers"). Builds DIR (default
# build-asan) with scripts/sanitizer_build.sh, only what the stage runs: the
# unit-test binaries (target unit_tests, fuzz_regressions_tests among them)
# and the fuzz targets; then runs the unit tests (ctest label `unit`) under
# AddressSanitizer and UBSan, and every fuzz target for $FUZZ_SECONDS
# seconds (default 5) through scripts/fuzz.sh. A sanitizer report aborts the
# process that made it, so it fails a test or a target like any failure;
# the script exits non-zero on the first failing step. $JOBS as in .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-build-asan}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

step() {  # step NAME COMMAND...: runs COMMAND, then prints NAME's time
  local start=$SECONDS
  "${@:2}"
  echo "sanitizer stage: $1 took $((SECONDS - start)) s"
}

step "build" scripts/sanitizer_build.sh "$dir" unit_tests fuzz_targets
step "unit tests" ctest --test-dir "$dir" -L unit -j"${JOBS:-2}" --output-on-failure
step "fuzz smoke" scripts/fuzz.sh --no-build --build "$dir" --time "${FUZZ_SECONDS:-5}"
