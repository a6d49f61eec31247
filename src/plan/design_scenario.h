// The scenario of one design: the requirements' cluster and workloads on
// the design's fabric, as scenario YAML (docs/scenario.md) that `aifabric
// run` takes as it is. The planner loads it with the scenario loader, so a
// design is checked and simulated exactly as a hand-written scenario would
// be, and writes it beside the plan so any design can be re-run alone.
// Pure function; thread-safe.
#pragma once

#include <string>

#include "plan/design_sizing.h"
#include "plan/design_space.h"
#include "plan/plan_requirements.h"

namespace aifabric {

// At flow level, telemetry off (the planner reads the results, not the
// files); `knobs` (design_sizing.h) go into fabric.topology. Deterministic:
// same inputs, same text.
std::string DesignScenarioYaml(const PlanRequirements& requirements, const Design& design,
                               const TopologyKnobs& knobs);

}  // namespace aifabric
