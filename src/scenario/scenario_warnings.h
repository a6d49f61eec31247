// Configurations known to defeat themselves: a scenario that loads and runs,
// but whose results a user would not want, each found in one place with
// what to change. The CLI prints them on stderr and the reports list them
// in summary.json (`warnings`). Pure functions; thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "fabric/topology.h"
#include "scenario/scenario.h"
#include "workload/traffic_spec.h"

namespace aifabric {

enum class ScenarioTrap {
  kReorderingWithGoBackN,        // spray / adaptive routing with go-back-N recovery
  kLossyClassOnLosslessPriority,  // a class's lossless flag disagrees with PFC on its priority
  kEcnAboveBuffer,               // ECN thresholds no queue of the switch can reach
  kUntilBeforeIdeal,             // simulation.until ends before the workload can
};

// "reordering_with_go_back_n", ... (summary.json's `trap`).
const char* ScenarioTrapName(ScenarioTrap trap);

struct ScenarioWarning {
  ScenarioTrap trap;
  std::string field;    // the scenario field to change, e.g. "fabric.transport.recovery"
  std::string message;  // what goes wrong and what to change
  // "<field>: <message>", as printed.
  std::string text() const { return field + ": " + message; }
};

// The traps `scenario` walks into, in the order of ScenarioTrap. The
// `simulation.until` check needs the built workload: `topology` and the
// flows on it (nothing is checked without them, e.g. for jobs).
std::vector<ScenarioWarning> ScenarioWarnings(const Scenario& scenario, const Topology* topology = nullptr,
                                              std::span<const FlowSpec> flows = {});

}  // namespace aifabric
