// summary.json's `faults` section and the terminal summary's fault lines:
// one entry per fault of the scenario (fabric/link_fault.h's FaultOutcome),
// in the order the scenario lists them; and `fault_cost`, what they cost
// each job or flow set (run/fault_cost.h; docs/faults.md). Pure functions.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fabric/link_fault.h"
#include "run/fault_cost.h"

namespace aifabric {

// [{kind, name, at_ns, detected_ns, rerouted_ns, packets_lost, bytes_resent,
//   route_changes, flows_rerouted}, ...]; a time never reached is null, as
// are packets_lost at flow level (a fluid has no packets).
nlohmann::ordered_json FaultsJson(const std::vector<FaultOutcome>& faults);

// "  fault       link_down leaf0-spine0 at 50.000 us: detected 1050.000 us, ..."
// one line per entry of `faults` (a FaultsJson array); "" when empty.
std::string FormatFaultLines(const nlohmann::ordered_json& faults);

// summary.json's `fault_cost`: [{entry, time_ns, baseline_time_ns,
// slowdown}, ...], a time that never came null (and then slowdown null).
nlohmann::ordered_json FaultCostJson(const std::vector<FaultCost>& costs);

// "  fault cost  workload.0.training: 12.345 ms against 10.000 ms without faults (1.235x)"
// one line per entry of `costs` (a FaultCostJson array); "" when empty.
std::string FormatFaultCostLines(const nlohmann::ordered_json& costs);

}  // namespace aifabric
