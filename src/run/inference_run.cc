#include "run/inference_run.h"

#include <chrono>

#include "flow/gpu_network.h"
#include "run/fabric_setup.h"
#include "run/finished_simulation.h"
#include "run/run_watch.h"

namespace aifabric {

Result<InferenceRunResult> RunInferenceService(const Scenario& scenario, const Scenario::Inference& inference,
                                               const RunHooks& hooks) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  FabricSimulation simulation(scenario, fabric->topology, fabric->routes);
  Simulator& sim = simulation.sim();
  GpuNetwork gpus(sim, fabric->layout, simulation.network());
  const FabricNetwork& network = simulation.network();
  simulation.PrepareTelemetry({}, hooks, [&network] { return network.TransfersCompleted(); });
  simulation.StartTelemetry();
  RunWatch watch(sim, hooks, ProgressOptions{});
  InferenceSpec spec = inference.spec;
  spec.slowdowns = fabric->stragglers;  // a straggler stretches the iterations' kernels on its GPU
  Result<InferenceResult> result = RunInference(sim, gpus, fabric->layout, spec);
  watch.Finish();
  if (!result.ok()) return Error{inference.path + ": " + result.error().message};
  simulation.FinishTelemetry();
  InferenceRunResult r;
  r.result = std::move(result).value();
  r.events = sim.events_processed();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (hooks.report != nullptr) {
    const FinishedService finished{inference.path, simulation, r.result, r.events};
    if (Status s = hooks.report->OnServiceFinished(finished); !s.ok()) {
      return Error{inference.path + ": " + s.error().message};
    }
  }
  return r;
}

}  // namespace aifabric
