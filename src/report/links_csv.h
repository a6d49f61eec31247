// links.csv, the per-link counters of a run: one row per topology port
// (node -> peer) with its rate, the wire bytes it sent, its utilization over
// the simulated time, drops, ECN marks, PFC pause time and queue high-water
// mark. Written for a single workload's run (report/run_outputs.h) and for
// the shared simulation of a multi-tenant run (report/tenant_outputs.h).
#pragma once

#include <functional>
#include <string>

#include "core/text_sink.h"
#include "core/time.h"
#include "fabric/port_counters.h"
#include "fabric/topology.h"

namespace aifabric {

// Exact nanoseconds from picoseconds: "7043.76", "12", "0.005".
std::string ExactNs(Time t);

// bytes x 8 / (line rate x sim_time); 0 when sim_time is not positive.
double LinkUtilization(uint64_t tx_bytes, const Port& port, Time sim_time);

// The header and one row per port of `topology`, in port order, with the
// counters `counters` gives for that port.
void WriteLinksCsv(TextSink& out, const Topology& topology, const std::function<PortCounters(PortId)>& counters,
                   Time sim_time);

}  // namespace aifabric
