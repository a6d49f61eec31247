#!/bin/sh
# Scenario benchmarks of the flow level at scale (docs/performance.md,
# "Scale"): one GPT-3 175B training step on 16,384 and on 131,072 GPUs,
# a 1 GiB AllReduce over 16,384 GPUs, and the 1,024-host permutation at
# packet and flow level. Prints each run's wall time, events and peak
# memory as aifabric reports them. One process at a time, so each has a
# core to itself on a 2-core machine.
#   make build && bench/scale_bench.sh [build/src/cli/aifabric]
set -e
BIN=${1:-build/src/cli/aifabric}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for example in gpt3_175b_16384gpu gpt3_175b_131072gpu; do
  echo "== aifabric run examples/scale/$example.yaml"
  "$BIN" run "examples/scale/$example.yaml" --out "$OUT/$example" | grep -E "training|step|simulated"
done
echo "== aifabric collective examples/scale/cluster_16384gpu.yaml -b 1G -e 1G"
"$BIN" collective examples/scale/cluster_16384gpu.yaml -b 1G -e 1G | grep -E "^ +[0-9]|# aifabric:"
echo "== permutation_bench 16 (1,024 hosts; run = start, simulate, ideal FCTs)"
MODE=plain,flow "$(dirname "$BIN")/../../bench/permutation_bench" 16
