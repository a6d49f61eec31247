// LiveSnapshotJson renders a running simulation's latest telemetry
// (RunHooks::publish's LiveSample) as the JSON of one `snapshot` event of
// the server's live feed (docs/serve.md): per port, the utilization over
// the last sampling interval, the queue depth and the queueing delay it
// means at line rate, and the drops, ECN marks and PFC pause time so far.
// A pure function of the sample; thread-safe.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "run/run_hooks.h"

namespace aifabric {

// {"sim_time_ns", "transfers_completed", "max_util", "ports_total",
//  "flow_latency": {"count", "p50_ns", "p99_ns", "max_ns"},
//  "ports": [{"node", "port", "util", "queue_bytes", "queue_delay_ns",
//             "drops", "ecn_marks", "pfc_pause_ns"}, ...]}
// `port` names the node at the far end (as diagnosis.json's port_peer).
// Per port: util = (tx bytes at the last point - at the one before) * 8 /
// (line rate * the time between them), 0 with one point (a frame's bytes
// count when it starts on the wire, so one interval may read up to a frame
// over line rate); queue_bytes = the
// sum over its priorities of the queue occupancy kept at the last point;
// queue_delay_ns = queue_bytes * 8 / line rate; drops = its egress
// discards (or, without that series, the sum of its queues' drops);
// ecn_marks and pfc_pause_ns summed over its queues. At most `max_ports`
// ports, the busiest first (util, then queue_bytes, then port id);
// ports_total counts every port sampled. flow_latency summarizes the
// sample's completion_ns (the flows completed since the snapshot before):
// their count and the nearest-rank 50th and 99th percentiles and maximum
// (the value at rank ceil(p * count) of the sorted latencies), all 0 when
// none completed.
nlohmann::ordered_json LiveSnapshotJson(const LiveSample& sample, size_t max_ports = 1024);

}  // namespace aifabric
