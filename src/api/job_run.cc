#include "api/job_run.h"

#include <chrono>

#include "api/fabric_setup.h"
#include "api/job_trace.h"
#include "api/run_observation.h"
#include "api/run_telemetry.h"
#include "api/telemetry_outputs.h"
#include "flow/gpu_network.h"
#include "telemetry/progress_reporter.h"
#include "workload/job_executor.h"

namespace aifabric {

Result<std::vector<std::pair<std::string, std::string>>> FabricTelemetryFiles(
    const Scenario& scenario, const Topology& topology, const FabricModel& model, const RunTelemetry* telemetry,
    Time sim_time, const nlohmann::ordered_json& summary, std::function<void(ChromeTrace&)> add_to_trace) {
  NetworkView view;
  view.topology = &topology;
  view.packet = model.packet();
  view.flow = model.flow();
  view.analytic = model.analytic();
  view.series = telemetry ? &telemetry->store() : nullptr;
  view.mtu_bytes = scenario.packet.mtu_bytes;
  view.wire_overhead_bytes = scenario.packet.wire_overhead_bytes;
  view.end = sim_time;
  const FabricObservation observation = ObserveNetwork(view);
  TelemetryInputs in;
  in.topology = &topology;
  in.observation = &observation;
  in.store = view.series;
  in.sim_time = sim_time;
  for (const TransferObservation& t : observation.transfers) in.transfers_completed += !t.finish.IsInfinite();
  in.summary = &summary;
  in.add_to_trace = std::move(add_to_trace);
  return RenderTelemetryFiles(in);
}

Result<JobRunResult> RunJob(const Scenario& scenario, const JobGraph& graph, const std::string& what,
                            int32_t metric_gpus, size_t timed_nodes, const LiveHooks& hooks) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  if (graph.gpu_count() > fabric->layout.gpus()) {
    return Error{what + ": uses " + std::to_string(graph.gpu_count()) + " GPUs, the cluster has " +
                 std::to_string(fabric->layout.gpus())};
  }
  Simulator sim(scenario.seed);
  FabricModel model(sim, scenario, *fabric);
  GpuNetwork gpus(sim, fabric->layout, model.network());
  JobExecutorOptions options;
  options.reduce_rate = scenario.reduce_rate();
  options.gpu_network_rate = DataRate::BitsPerSecond(
      static_cast<uint64_t>(static_cast<double>(scenario.topology.nic_rate.bps()) * scenario.nics_per_gpu));
  options.coflow_collectives = scenario.coflow_collectives();
  JobExecutor executor(sim, gpus, fabric->layout, graph, options);
  gpus.SetObserver(&executor);
  if (Status s = executor.Start(); !s.ok()) return Error{what + ": " + s.error().message};
  const std::unique_ptr<RunTelemetry> telemetry =
      MakeRunTelemetry(sim, scenario, fabric->topology, model.packet(), model.flow());
  ServeLive(telemetry.get(), hooks, fabric->topology, [&model] { return TransfersCompleted(model); });
  if (telemetry) telemetry->Start();
  {
    std::unique_ptr<ProgressReporter> progress;
    if (hooks.progress) {
      ProgressOptions p;
      p.fraction = [&executor, &graph] { return static_cast<double>(executor.finished()) / static_cast<double>(graph.size()); };
      progress = std::make_unique<ProgressReporter>(sim, std::move(p));
    }
    sim.Run();
    if (progress) progress->Finish();
  }
  if (telemetry) telemetry->Finish();
  if (executor.error()) return Error{what + ": " + executor.error()->message};
  if (!executor.done()) return Error{what + ": the job did not complete (the fabric stalled)"};
  JobRunResult r;
  r.network_model = scenario.model;
  r.metrics = ComputeJobMetrics(graph, executor.node_start(), executor.node_finish(), metric_gpus, timed_nodes);
  r.makespan = r.metrics.makespan;
  r.events = sim.events_processed();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (scenario.telemetry.enabled) {
    const nlohmann::ordered_json summary = {{"scenario", scenario.name},
                                            {"job", what},
                                            {"model", scenario.model},
                                            {"makespan_ns", static_cast<double>(r.makespan.ps()) / 1000.0},
                                            {"gpus", r.metrics.gpus},
                                            {"effective_gpu_utilization", r.metrics.effective_utilization},
                                            {"events", r.events}};
    Result<std::vector<std::pair<std::string, std::string>>> files =
        FabricTelemetryFiles(scenario, fabric->topology, model, telemetry.get(), sim.Now(), summary,
                             [&](ChromeTrace& trace) {
                               AddJobTrace(graph, executor.node_start(), executor.node_finish(), trace);
                             });
    if (!files.ok()) return Error{what + ": " + files.error().message};
    r.telemetry_files = std::move(files).value();
  }
  return r;
}

}  // namespace aifabric
