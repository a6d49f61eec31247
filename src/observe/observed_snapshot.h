// ObservedSnapshotJson renders one pass over a real fabric's counters
// (observe/observe_prometheus.h's FabricReading) as the `snapshot` event a
// simulated run's live feed sends (report/live_snapshot.h's shape, which
// the dashboard reads), so an attached fabric is drawn as a run is. Its
// figures are over the pass's window rather than since the start: util is
// the port's utilization over the window, queue_bytes its queue peak in
// the window, drops, ecn_marks and pfc_pause_ns what the window added. A
// pure function of its arguments; thread-safe.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "fabric/topology.h"
#include "observe/observe_prometheus.h"

namespace aifabric {

// {"sim_time_ns": `elapsed` (wall time since the attachment started),
//  "transfers_completed": 0 (counters know no transfers), "max_util",
//  "ports_total", "pass", "window_s",
//  "ports": [{"node", "port" (the peer), "util", "queue_bytes",
//             "queue_delay_ns", "drops", "ecn_marks", "pfc_pause_ns"}, ...]}
// over the ports some series named: util = the observation's utilization
// (bytes x 8 / (line rate x the exporter clock's span)), queue_delay_ns =
// queue_bytes x 8 / line rate; at most `max_ports`, the busiest first
// (util, then queue_bytes, then port id); ports_total counts them all.
nlohmann::ordered_json ObservedSnapshotJson(const Topology& topology, const FabricReading& reading, int pass,
                                            Time window, Time elapsed, size_t max_ports = 1024);

}  // namespace aifabric
