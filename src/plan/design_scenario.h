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

// What a design's flow-level simulation depends on: its scenario without
// its name, and with the switch figures the flow level reads (radix, port
// rate, latency, capacity, family) in place of the switch's name. Designs
// that differ only in what prices them (QM9700 and QM9790: one ASIC, one
// managed) have one key and simulate alike. The buffer is left out: the
// flow level has no queues, and the one use it makes of the buffer, the
// lossless check (run/fabric_setup.h), each design still makes on its own
// fabric (EvaluateDesign builds every design). REQUIRES: `switch_spec` is
// the design's.
std::string SimulationKey(const PlanRequirements& requirements, const Design& design, const SwitchSpec& switch_spec,
                          const TopologyKnobs& knobs);

}  // namespace aifabric
