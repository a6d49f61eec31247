#!/usr/bin/env bash
# What a default run's telemetry costs a user, measured on whole processes
# (docs/performance.md, "Telemetry"): `aifabric run` of the permutation of
# bench/permutation_fat_tree.yaml with its default outputs, against the same
# run with --no-telemetry, alternated A B A B so both see the same machine.
# Prints, per size, each run's wall seconds and peak memory (GNU time's
# maximum resident set), their medians, and the medians of the ratios
# default / --no-telemetry of each pair.
#   make build && bench/telemetry_bench.sh [RUNS] [build/src/cli/aifabric]
# RUNS: pairs per size (default 5). The 8,192-host size takes about 30 s a run.
set -euo pipefail
runs="${1:-5}"
bin="${2:-build/src/cli/aifabric}"
here="$(cd "$(dirname "$0")" && pwd)"
scenario="$here/permutation_fat_tree.yaml"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
[ -x /usr/bin/time ] || { echo "telemetry_bench: needs GNU time (Debian package: time)" >&2; exit 2; }

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# measure NAME ARGS...: one run, appends "wall_s peak_kib" to $out/NAME.
measure() {
  local name="$1"; shift
  /usr/bin/time -f "%e %M" -o "$out/time" "$bin" run "$scenario" -q --out "$out/run" "$@"
  cat "$out/time" >>"$out/$name"
  rm -rf "$out/run"
}

size() {  # size LABEL SET-ARGS...
  local label="$1"; shift
  rm -f "$out/default" "$out/quiet"
  for _ in $(seq "$runs"); do
    measure default "$@"
    measure quiet "$@" --no-telemetry
  done
  paste "$out/default" "$out/quiet" >"$out/pairs"
  echo "== $label: $runs pairs (wall s, peak MiB), default | --no-telemetry"
  awk '{printf "  %6.2f %7.1f | %6.2f %7.1f\n", $1, $2 / 1024, $3, $4 / 1024}' "$out/pairs"
  printf "  median wall      default %.2f s, --no-telemetry %.2f s; ratio %.2f\n" \
    "$(cut -f1 -d' ' "$out/default" | median)" "$(cut -f1 -d' ' "$out/quiet" | median)" \
    "$(awk '{print $1 / $3}' "$out/pairs" | median)"
  printf "  median peak      default %.1f MiB, --no-telemetry %.1f MiB; ratio %.2f\n" \
    "$(awk '{print $2 / 1024}' "$out/default" | median)" "$(awk '{print $2 / 1024}' "$out/quiet" | median)" \
    "$(awk '{print $2 / $4}' "$out/pairs" | median)"
}

size "1,024 hosts (k=16)"
size "8,192 hosts (k=32)" --set fabric.topology.k=32 --set cluster.servers=8192 --set fabric.switch.radix=32
