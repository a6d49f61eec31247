#include "run/job_run.h"

#include <chrono>

#include "flow/gpu_network.h"
#include "run/fabric_setup.h"
#include "run/run_watch.h"
#include "run/straggler_plan.h"
#include "workload/job_executor.h"
#include "workload/rank_waits.h"

namespace aifabric {

JobExecutorOptions JobExecutorOptionsFor(const Scenario& scenario, const BuiltFabric& fabric) {
  JobExecutorOptions options;
  options.reduce_rate = scenario.reduce_rate();
  options.gpu_network_rate = scenario.gpu_network_rate();
  options.coflow_collectives = scenario.coflow_collectives();
  options.slowdowns = fabric.stragglers;
  options.protocol_spec = GetProtocolSpec(options.protocol, scenario.calibration_spec());
  return options;
}

Result<JobRunResult> RunJob(const Scenario& scenario, const JobGraph& graph, const std::string& what,
                            int32_t metric_gpus, size_t timed_nodes, const RunHooks& hooks) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  if (graph.gpu_count() > fabric->layout.gpus()) {
    return Error{what + ": uses " + std::to_string(graph.gpu_count()) + " GPUs, the cluster has " +
                 std::to_string(fabric->layout.gpus())};
  }
  FabricSimulation simulation(scenario, fabric->topology, fabric->routes);
  Simulator& sim = simulation.sim();
  GpuNetwork gpus(sim, fabric->layout, simulation.network());
  JobExecutor executor(sim, gpus, fabric->layout, graph, JobExecutorOptionsFor(scenario, *fabric));
  gpus.SetObserver(&executor);
  if (Status s = executor.Start(); !s.ok()) return Error{what + ": " + s.error().message};
  const FabricNetwork& network = simulation.network();
  simulation.PrepareTelemetry({}, hooks, [&network] { return network.TransfersCompleted(); });
  simulation.StartTelemetry();
  {
    ProgressOptions p;
    p.fraction = [&executor, &graph] { return static_cast<double>(executor.finished()) / static_cast<double>(graph.size()); };
    RunWatch watch(sim, hooks, std::move(p));
    sim.Run();
    watch.Finish();
  }
  simulation.FinishTelemetry();
  if (executor.error()) return Error{what + ": " + executor.error()->message};
  if (!executor.done()) return Error{what + ": the job did not complete (the fabric stalled)"};
  JobRunResult r;
  r.network_model = scenario.model;
  r.metrics = ComputeJobMetrics(graph, executor.node_start(), executor.node_finish(), metric_gpus, timed_nodes);
  r.makespan = r.metrics.makespan;
  for (const RankWait& w : ComputeRankWaits(graph, executor.node_start(), executor.node_finish(), metric_gpus)) {
    r.ranks.push_back({w.gpu, fabric->layout.nic_of(w.gpu), w.compute, w.peer_compute, w.held, w.waited_on, w.last_at,
                       r.makespan, what});
  }
  r.faults = FaultOutcomesOf(scenario, simulation.network().FaultOutcomes());
  r.events = sim.events_processed();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (hooks.report != nullptr) {
    const FinishedJob finished{what, simulation, graph, executor.node_start(), executor.node_finish(), r};
    if (Status s = hooks.report->OnJobFinished(finished); !s.ok()) return Error{what + ": " + s.error().message};
  }
  return r;
}

}  // namespace aifabric
