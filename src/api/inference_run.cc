#include "api/inference_run.h"

#include <chrono>

#include <fmt/format.h>

#include "api/fabric_setup.h"
#include "flow/gpu_network.h"

namespace aifabric {

Result<InferenceRunResult> RunInferenceService(const Scenario& scenario, const Scenario::Inference& inference) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  Simulator sim(scenario.seed);
  FabricModel model(sim, scenario, *fabric);
  GpuNetwork gpus(sim, fabric->layout, model.network());
  Result<InferenceResult> result = RunInference(sim, gpus, fabric->layout, inference.spec);
  if (!result.ok()) return Error{inference.path + ": " + result.error().message};
  InferenceRunResult r;
  r.result = std::move(result).value();
  r.events = sim.events_processed();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

std::string InferenceRequestsCsv(const InferenceResult& result) {
  std::string out = "request_id,arrival_us,input_tokens,output_tokens,replica,decode_replica,ttft_ms,tpot_ms,e2e_ms\n";
  for (size_t i = 0; i < result.requests.size(); ++i) {
    const InferenceRequestRecord& r = result.requests[i];
    out += fmt::format("{},{:.3f},{},{},{},{},{:.6f},{},{:.6f}\n", i, r.arrival.us_f(), r.input_tokens,
                       r.output_tokens, r.replica, r.decode_replica, r.ttft_ms(),
                       r.has_tpot() ? fmt::format("{:.6f}", r.tpot_ms()) : std::string(), r.e2e_ms());
  }
  return out;
}

}  // namespace aifabric
