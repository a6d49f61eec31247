// RunInferenceService simulates LLM serving (workload `inference`,
// workload/inference_server.h) on a scenario's cluster and fabric: replicas
// on GPUs of a GpuNetwork over the network model the scenario asks for,
// until every request is done. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "api/run_telemetry.h"
#include "api/scenario.h"
#include "core/result.h"
#include "workload/inference_server.h"

namespace aifabric {

struct InferenceRunResult {
  InferenceResult result;
  uint64_t events = 0;
  double wall_seconds = 0;
  // The observability files (telemetry_outputs.h; the trace holds every
  // request, arrival to last token, on its replica), unless telemetry is off.
  std::vector<std::pair<std::string, std::string>> telemetry_files;
};

// Errors name the workload entry.
Result<InferenceRunResult> RunInferenceService(const Scenario& scenario, const Scenario::Inference& inference,
                                               const LiveHooks& hooks = {});

// requests.csv: one line per request, in arrival order.
std::string InferenceRequestsCsv(const InferenceResult& result);

}  // namespace aifabric
