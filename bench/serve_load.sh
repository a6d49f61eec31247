#!/usr/bin/env bash
# A bounded load test of `aifabric serve` on loopback (docs/performance.md,
# "Serving"): starts a server over a fresh store, starts one long run
# (a packet-level permutation that goes on for longer than the load), then
# sends RATE GET requests per second for SECONDS seconds from THREADS
# keep-alive clients (bench/serve_load_client.cc), alternating
# GET /api/runs/{id} and GET /api/runs. Prints the client's figures (errors,
# latency percentiles), whether the run was still going at the end, and the
# server's resident memory (VmRSS) sampled every second through the load:
# every fifth sample, and how much it grew over each half of the load (flat
# memory: the second half grows by little or nothing).
#   make build && bench/serve_load.sh [RATE] [SECONDS] [THREADS] [BUILD_DIR]
# Defaults: 1000 requests/s for 30 s from 8 threads, build/.
set -euo pipefail
rate="${1:-1000}"
seconds="${2:-30}"
threads="${3:-8}"
build="${4:-build}"
bin="$build/src/cli/aifabric"
client="$build/bench/serve_load_client"
[ -x "$bin" ] && [ -x "$client" ] || { echo "serve_load: build $bin and $client first" >&2; exit 2; }
work="$(mktemp -d)"
port=$((20000 + RANDOM % 20000))
cleanup() {
  [ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null || true
  [ -n "${server:-}" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# 32 hosts, 12 GiB each at 100 Gb/s on a leaf-spine: minutes of wall time at
# packet level, so it is still running when the load ends (it is cancelled).
cat >"$work/long.yaml" <<'YAML'
name: serve_load
seed: 1
cluster: {servers: 32, gpus_per_server: 1, nic: {rate: 100Gbps}}
fabric:
  topology: {type: leaf_spine, hosts_per_leaf: 8, spines: 4}
  switch: 32x100G
  link: {latency: 1us}
workload:
  - permutation: {size: 12GiB}
simulation: {until: 1s}
YAML

"$bin" serve --port "$port" --store "$work/store" --workers 1 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/metrics" >/dev/null 2>&1 && break
  sleep 0.05
done
id="$(curl -sf -X POST -H "Content-Type: application/yaml" --data-binary @"$work/long.yaml" "http://127.0.0.1:$port/api/runs?kind=run" |
      sed -n 's/.*"id":"\([^"]*\)".*/\1/p')"
[ -n "$id" ] || { echo "serve_load: the run was not accepted" >&2; cat "$work/serve.log" >&2; exit 1; }
sleep 1
rss() { awk '/^VmRSS/ {print $2 " " $3}' "/proc/$server/status"; }
echo "server pid $server, port $port, run $id"
echo "rss at start: $(rss)"
# One VmRSS sample (kB) a second while the load runs.
(while :; do awk '/^VmRSS/ {print $2}' "/proc/$server/status"; sleep 1; done) >"$work/rss.txt" &
sampler=$!
status=0
"$client" "$port" "$rate" "$seconds" "$threads" "/api/runs/$id" "/api/runs?limit=10" || status=$?
kill "$sampler" 2>/dev/null || true
wait "$sampler" 2>/dev/null || true
sampler=
echo "rss at end:   $(rss)"
awk '{ kb[NR - 1] = $1 } END {
  n = NR; if (n < 3) exit
  line = "rss kB every 5 s:"
  for (i = 0; i < n; i += 5) line = line " " kb[i]
  print line
  half = int((n - 1) / 2)
  printf "rss growth: first half %+d kB (samples 0-%d), second half %+d kB (samples %d-%d)\n",
         kb[half] - kb[0], half, kb[n - 1] - kb[half], half, n - 1
}' "$work/rss.txt"
echo "run at end:   $(curl -sf "http://127.0.0.1:$port/api/runs/$id" | sed -n 's/.*"status":"\([a-z]*\)".*/\1/p')"
curl -sf -X DELETE "http://127.0.0.1:$port/api/runs/$id" >/dev/null || true
curl -sf "http://127.0.0.1:$port/metrics" | grep '^aifabric_server_requests_total' || true
exit "$status"
