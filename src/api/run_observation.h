// ObserveRun gathers what a finished ScenarioRun saw of its fabric into a
// FabricObservation (diagnosis/fabric_observation.h), whichever the model:
// per-port totals and utilization (with the peak over one sampling
// interval when the run was sampled), the PFC pause causes (packet level),
// and every queue pair of every flow with its path.
#pragma once

#include "api/run.h"
#include "diagnosis/fabric_observation.h"

namespace aifabric {

// REQUIRES: run.Execute() has returned.
FabricObservation ObserveRun(const ScenarioRun& run);

}  // namespace aifabric
