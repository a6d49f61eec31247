// What a finished run saw of its fabric, as a FabricObservation
// (diagnosis/fabric_observation.h), whichever the model: per-port totals
// and utilization (with the peak over one sampling interval when the run
// was sampled), the PFC pause causes (packet level), and every queue pair
// of every transfer with its path. ObserveRun does it for a ScenarioRun
// (flows workloads); ObserveNetwork for any fabric model (job runs).
#pragma once

#include "api/run.h"
#include "fabric/fabric_observation.h"
#include "flow/flow_network.h"

namespace aifabric {

// The counters of `port` whichever the model (exactly one non-null): the
// flow and analytic levels know only bytes (payload plus the overhead of
// the whole packets it took).
PortCounters PortCountersOf(PortId port, const PacketNetwork* packet, const FlowNetwork* flow,
                            const AnalyticNetwork* analytic, uint32_t mtu_bytes, uint32_t wire_overhead_bytes);

struct NetworkView {
  const Topology* topology = nullptr;
  const PacketNetwork* packet = nullptr;    // exactly one of the three
  const FlowNetwork* flow = nullptr;
  const AnalyticNetwork* analytic = nullptr;
  const TimeSeriesStore* series = nullptr;  // null: not sampled
  uint32_t mtu_bytes = 4096;
  uint32_t wire_overhead_bytes = 82;
  Time end;  // the run's end: where an unfinished transfer stops counting
};

// Ports and the transfers the model tracked (queue pairs; at flow level
// coflows are not transfers and are left out), with ideal times from the
// model.
FabricObservation ObserveNetwork(const NetworkView& view);

// REQUIRES: run.Execute() has returned.
FabricObservation ObserveRun(const ScenarioRun& run);

}  // namespace aifabric
