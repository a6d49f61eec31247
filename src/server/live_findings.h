// LiveFindings diagnoses a running simulation on the telemetry it has
// sampled so far, for the live feed's `finding` events while it goes
// (docs/serve.md): the store's counters from its first point to its last
// become one window per port (observe/counter_observation.h
// ObservationFromWindows), the same Diagnose reads it, and each finding
// is handed out the first time it appears, named by kind + node + port
// (later passes that find it again say nothing). Counters give no
// transfers, so the rules that need them (incast, uplinks, ECMP) wait for
// the final diagnosis. Not thread-safe: one per run, on its simulation's
// thread.
#pragma once

#include <chrono>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/fabric_observation.h"
#include "run/run_hooks.h"

namespace aifabric {

// The sample's counters from its store's first point to its last, per
// port of its topology: tx bytes and the time between those points, the
// highest rate between two consecutive points, drops (egress discards, or
// the queues' drops), ECN marks, pause time and PFC frames sent at the
// last point, and the highest summed queue occupancy of any point.
FabricObservation ObservationSoFar(const LiveSample& sample);

class LiveFindings {
 public:
  // A pass runs at most every `every` of wall time (the first at once).
  explicit LiveFindings(std::chrono::milliseconds every) : every_(every) {}

  // The findings (FindingsJson's entries) of a pass over `sample` not seen
  // in an earlier pass, most severe first; empty when too soon for a pass.
  std::vector<nlohmann::ordered_json> Update(const LiveSample& sample);

 private:
  const std::chrono::milliseconds every_;
  bool ran_ = false;
  std::chrono::steady_clock::time_point last_{};
  std::set<std::string> seen_;  // kind|node|port_peer
};

}  // namespace aifabric
