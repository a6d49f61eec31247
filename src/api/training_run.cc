#include "api/training_run.h"

#include <chrono>

#include "api/fabric_setup.h"
#include "flow/gpu_network.h"
#include "workload/job_executor.h"
#include "workload/training_step.h"

namespace aifabric {

Result<TrainingRunResult> RunTrainingStep(const Scenario& scenario, const Scenario::Training& training) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  const ParallelismSpec& p = training.parallelism;
  ClusterShape shape;
  shape.gpus = p.tp * p.pp * p.dp;
  shape.gpus_per_server = fabric->layout.gpus_per_server();
  if (shape.gpus > fabric->layout.gpus()) {
    return Error{training.path + ": tp x pp x dp = " + std::to_string(shape.gpus) + " GPUs, the cluster has " +
                 std::to_string(fabric->layout.gpus())};
  }
  Result<TrainingStep> step = BuildTrainingStep(training.model, p, training.training, shape);
  if (!step.ok()) return Error{training.path + ": " + step.error().message};

  Simulator sim(scenario.seed);
  FabricModel model(sim, scenario, *fabric);
  GpuNetwork gpus(sim, fabric->layout, model.network());
  JobExecutorOptions options;
  // A reduction reads two operands and writes one: HBM bandwidth / 3.
  options.reduce_rate = DataRate::BitsPerSecond(static_cast<uint64_t>(scenario.gpu.hbm_tbps * 1e12 * 8 / 3));
  JobExecutor executor(sim, gpus, fabric->layout, step->graph, options);
  gpus.SetObserver(&executor);
  if (Status s = executor.Start(); !s.ok()) return Error{training.path + ": " + s.error().message};
  sim.Run();
  if (!executor.done()) return Error{training.path + ": the step did not complete (the fabric stalled)"};

  TrainingRunResult r;
  r.network_model = scenario.model;
  r.gpus = shape.gpus;
  r.step_time = executor.finish_time() - executor.start_time();
  r.metrics = ComputeJobMetrics(step->graph, executor.node_start(), executor.node_finish());
  r.tokens_per_step = step->tokens_per_step;
  r.model_flops_per_step = step->model_flops_per_step;
  r.tokens_per_s = r.step_time > Time::Zero() ? step->TokensPerSecond(r.step_time) : 0;
  r.mfu = r.step_time > Time::Zero() ? step->Mfu(r.step_time) : 0;
  for (size_t d = 0; d < kCommDimensionCount; ++d) r.comm_bytes[d] = step->comm_bytes[d];
  r.nodes = step->graph.size();
  for (JobNodeIndex i = 0; i < step->graph.size(); ++i) {
    const JobNode& n = step->graph.node(i);
    if (n.kind == JobNodeKind::kCollective) ++r.collectives[static_cast<size_t>(n.dimension)];
  }
  r.events = sim.events_processed();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return r;
}

}  // namespace aifabric
