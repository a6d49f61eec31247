#!/usr/bin/env bash
# scripts/fuzz.sh [--time S] [--runs N] [--build DIR] [--no-build] [TARGET...]
# Runs the libFuzzer targets of fuzz/ (docs/reliability.md), every target
# when none is named, each for S seconds or N executions, whichever comes
# first when both are given (default 60 s),
# under AddressSanitizer and UBSan, with a 2 GiB memory bound and a 10 s
# bound per input: any crash, sanitizer report, broken contract, hang or
# memory blow-up is a finding.
#   --build DIR  the sanitizer build folder (default build-asan, the one
#                scripts/ci_sanitizer_stage.sh uses); configured and built here
#                unless --no-build
# Corpora live in DIR/fuzz-corpus/<target>/, seeded from examples/, data/,
# fuzz/seeds/ and fuzz/regressions/ (each text seed cut to its first 4 KiB,
# whole lines, so no megabyte file steers the fuzzer), and keep what the
# fuzzer adds from run to run. A finding is copied to
# fuzz/regressions/<target>/ (which fuzz_regressions_tests replays in the
# normal build) and makes the script exit 1. Prints one line per target:
#   <target>: <executions> execs in <s> s, <inputs> inputs (<values> values, <errors> clean errors), <findings>
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

usage() { echo "usage: scripts/fuzz.sh [--time S] [--runs N] [--build DIR] [--no-build] [TARGET...]" >&2; exit 2; }
limit=()
build=build-asan
do_build=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) [ $# -ge 2 ] || usage; limit+=(-max_total_time="$2"); shift 2 ;;
    --runs) [ $# -ge 2 ] || usage; limit+=(-runs="$2"); shift 2 ;;
    --build) [ $# -ge 2 ] || usage; build="$2"; shift 2 ;;
    --no-build) do_build=0; shift ;;
    -*) usage ;;
    *) targets+=("$1"); shift ;;
  esac
done

all_targets=(scenario hpcc_topology hpcc_flows lingjun ibnetdiscover opensm_lfts ibroute chakra
             job_trace flow_size_cdf nccl_tests_log plan_requirements prices prometheus_answer run_request)
[ ${#limit[@]} -gt 0 ] || limit=(-max_total_time=60)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz: no target '$t' (targets: ${all_targets[*]})" >&2; exit 2; }
done

if [ "$do_build" = 1 ]; then
  scripts/sanitizer_build.sh "$build" $(printf 'fuzz_%s ' "${targets[@]}") > "$build.fuzz-build.log" 2>&1 ||
    { tail -50 "$build.fuzz-build.log"; exit 1; }
fi

# seeds TARGET: the source files that seed TARGET's corpus.
seeds() {
  case "$1" in
    scenario) ls examples/*.yaml examples/*/*.yaml tests/data/*/scenario.yaml ;;
    hpcc_topology) ls examples/hpcc/topology.txt tests/data/*/topology.txt ;;
    hpcc_flows) ls examples/hpcc/flow.txt ;;
    lingjun) ls data/clusters/*.csv ;;
    chakra) ls examples/chakra/*.et ;;
    job_trace) ls examples/scheduling/*.csv ;;
    flow_size_cdf) ls data/traffic/*.txt ;;
    nccl_tests_log) ls data/nccl_tests_logs/*.log ;;
    plan_requirements) ls examples/plan/*.yaml ;;
    prices) ls examples/plan/prices_example.yaml data/catalog.yaml ;;
  esac
  [ -d "fuzz/seeds/$1" ] && find "fuzz/seeds/$1" -type f
  [ -d "fuzz/regressions/$1" ] && find "fuzz/regressions/$1" -type f ! -name README.md
  return 0
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
found=0
for t in "${targets[@]}"; do
  corpus="$build/fuzz-corpus/$t" artifacts="$build/fuzz-artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  while IFS= read -r f; do
    name="seed-$(basename "$f")"
    if [[ "$f" == *.et || "$f" == */regressions/* ]] || [ "$(wc -c < "$f")" -le 4096 ]; then
      cp "$f" "$corpus/$name"
    else
      head -c 4096 "$f" | sed '$d' > "$corpus/$name"  # the first 4 KiB, up to its last whole line
    fi
  done < <(seeds "$t")
  log="$build/fuzz-$t.log"
  before=$(find "$artifacts" -type f | wc -l)
  set +e
  "$build/fuzz/fuzz_$t" "${limit[@]}" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  secs=$(sed -n 's/.*Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  counts=$(grep -o "[0-9]* inputs, [0-9]* values, [0-9]* clean errors" "$log" | tail -1 || true)
  after=$(find "$artifacts" -type f | wc -l)
  finding="no finding"
  if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
    found=1
    mkdir -p "fuzz/regressions/$t"
    for a in $(find "$artifacts" -type f | sort); do cp -n "$a" "fuzz/regressions/$t/"; done
    finding="FINDING (exit $rc; see $log, inputs kept in fuzz/regressions/$t/)"
  fi
  echo "$t: ${execs:-?} execs in ${secs:-?} s, ${counts:-no counts}, $finding"
done
exit "$found"
