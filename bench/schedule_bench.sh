#!/bin/sh
# Scenario benchmark of the scheduling replay (docs/performance.md,
# "Scheduling"; issue 7's target: >= 5,000 jobs on >= 2,048 GPUs in under
# 2 minutes). Replays the 5,000-job example trace on the 2,048-GPU example
# cluster and the 6,776-GPU Lingjun cluster under every policy, one
# process at a time, and prints each run's wall time and peak memory as
# aifabric reports them.
#   make build && bench/schedule_bench.sh [build/src/cli/aifabric]
set -e
BIN=${1:-build/src/cli/aifabric}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
for policy in first_fit random topology network_aware network_aware+crux network_aware+cassini; do
  echo "== aifabric schedule examples/scheduling/cluster.yaml trace.csv --policy $policy"
  "$BIN" schedule --cluster examples/scheduling/cluster.yaml --trace examples/scheduling/trace.csv \
    --policy "$policy" --out "$OUT/example-$policy" | grep -E "replayed"
done
for policy in first_fit topology network_aware; do
  echo "== aifabric schedule examples/scheduling/lingjun_cluster.yaml trace_lingjun.csv --policy $policy"
  "$BIN" schedule --cluster examples/scheduling/lingjun_cluster.yaml --trace examples/scheduling/trace_lingjun.csv \
    --policy "$policy" --out "$OUT/lingjun-$policy" 2>/dev/null | grep -E "replayed"
done
