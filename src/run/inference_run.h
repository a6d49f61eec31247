// RunInferenceService simulates LLM serving (workload `inference`,
// workload/inference_server.h) on a scenario's cluster and fabric: replicas
// on GPUs of a GpuNetwork over the network model the scenario asks for,
// until every request is done. The report (RunHooks::report) hears of the
// finished simulation first. Not thread-safe.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "workload/inference_server.h"

namespace aifabric {

struct InferenceRunResult {
  InferenceResult result;
  uint64_t events = 0;
  double wall_seconds = 0;
};

// Errors name the workload entry.
Result<InferenceRunResult> RunInferenceService(const Scenario& scenario, const Scenario::Inference& inference,
                                               const RunHooks& hooks = {});

}  // namespace aifabric
