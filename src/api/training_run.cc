#include "api/training_run.h"

#include "api/job_run.h"
#include "workload/training_step.h"

namespace aifabric {

Result<TrainingRunResult> RunTrainingStep(const Scenario& scenario, const Scenario::Training& training) {
  const ParallelismSpec& p = training.parallelism;
  ClusterShape shape;
  shape.gpus = p.tp * p.pp * p.dp;
  shape.gpus_per_server = scenario.gpus_per_server;
  const int cluster_gpus = scenario.topology.servers * scenario.gpus_per_server;
  if (shape.gpus > cluster_gpus) {
    return Error{training.path + ": tp x pp x dp = " + std::to_string(shape.gpus) + " GPUs, the cluster has " +
                 std::to_string(cluster_gpus)};
  }
  Result<TrainingStep> step = BuildTrainingStep(training.model, p, training.training, shape);
  if (!step.ok()) return Error{training.path + ": " + step.error().message};
  Result<JobRunResult> run = RunJob(scenario, step->graph, training.path);
  if (!run.ok()) return run.error();

  TrainingRunResult r;
  r.network_model = run->network_model;
  r.gpus = shape.gpus;
  r.step_time = run->makespan;
  r.metrics = run->metrics;
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
  r.events = run->events;
  r.wall_seconds = run->wall_seconds;
  return r;
}

}  // namespace aifabric
