#include "run/training_run.h"

#include <optional>

#include "run/job_run.h"
#include "workload/training_step.h"

namespace aifabric {

namespace {

// Megatron-LM's indexed datasets store a token in the smallest integer
// that holds the vocabulary (DType.optimal_dtype: uint16 below 65,500
// entries, else int32).
uint64_t BytesPerToken(const ModelSpec& model) { return model.vocab > 0 && model.vocab < 65500 ? 2 : 4; }

// The step's graph plus its storage traffic, with no dependencies, after
// the step's nodes: first the next step's input batch read during this one
// (dataset), then the previous step's checkpoint written during it. Both
// spread over the last servers of the cluster, on the rail of the GPU they
// serve: the read of data-parallel replica r (by its first stage's TP rank
// 0, where Megatron-LM loads the batch) comes from storage server r mod K_d
// of the last K_d, GPU g's checkpoint share goes to server g mod K_c of
// the last K_c. `reads` gets how many read nodes there are.
Result<JobGraph> WithStorage(const Scenario& scenario, const Scenario::Training& training, const ParallelismSpec& p,
                             const TrainingStep& step, size_t& reads) {
  const int per_server = scenario.server.gpus_per_server;
  const int reserved = training.storage_reserved();
  const int first_reserved = scenario.topology.servers - reserved;
  if (first_reserved * per_server < step.gpus) {
    const char* field = training.storage_servers >= training.dataset_servers ? ".checkpoint.storage_servers: "
                                                                             : ".dataset.storage_servers: ";
    return Error{training.path + field + std::to_string(reserved) + " storage servers leave " +
                 std::to_string(std::max(0, first_reserved)) + " servers, fewer than the " + std::to_string(step.gpus) +
                 " training GPUs need"};
  }
  JobGraphBuilder b(step.graph);
  const int pp = p.pp, dp = p.dp;
  reads = 0;
  if (const int k = training.dataset_servers; k > 0) {
    const uint32_t label = b.AddLabel("dataset read");
    const int first_storage = scenario.topology.servers - k;
    const TrainingRankLayout ranks(p.tp, pp, dp, p.order);
    // Its replica's sequences of the global batch, tokens x bytes per token.
    const uint64_t bytes = training.dataset_bytes != 0
                               ? training.dataset_bytes
                               : step.tokens_per_step / static_cast<uint64_t>(dp) * BytesPerToken(training.model);
    for (int r = 0; r < dp; ++r) {
      const GpuId reader = ranks.gpu(0, r, 0);
      const GpuId source = (first_storage + r % k) * per_server + reader % per_server;
      const JobNodeIndex n = b.AddTransfer(source, reader, bytes, CommDimension::kStorage, label);
      b.SetPriority(n, training.dataset_priority);
      ++reads;
    }
  }
  if (const int k = training.storage_servers; k > 0) {
    const uint32_t label = b.AddLabel("checkpoint");
    const int first_storage = scenario.topology.servers - k;
    for (GpuId g = 0; g < step.gpus; ++g) {
      uint64_t bytes = training.checkpoint_bytes;
      if (bytes == 0) {
        // Weights (bf16), fp32 master weights and Adam's two moments: 16
        // bytes per parameter, sharded over the data-parallel ranks.
        const int stage = static_cast<int>(g / (step.gpus / pp));
        const int64_t params = step.stage_params_per_gpu[static_cast<size_t>(std::min(stage, pp - 1))];
        bytes = static_cast<uint64_t>(params) * 16 / static_cast<uint64_t>(dp);
      }
      const int storage = first_storage + g % k;
      const GpuId target = storage * per_server + g % per_server;
      const JobNodeIndex n = b.AddTransfer(g, target, bytes, CommDimension::kStorage, label);
      b.SetPriority(n, training.checkpoint_priority);
    }
  }
  Result<JobGraph> graph = std::move(b).Build();
  if (!graph.ok()) return Error{training.path + ": storage: " + graph.error().message};
  return graph;
}

}  // namespace

Result<PreparedTraining> PrepareTraining(const Scenario& scenario, const Scenario::Training& training) {
  if (training.memory.zero_stage == 3) {
    return Error{training.path + ".zero: 3 (ZeRO-3 / FSDP) is not simulated: the step model has no per-layer "
                 "parameter all-gathers; use 0, 1 or 2 (memory estimates accept 3: aifabric validate)"};
  }
  std::optional<TrainingFit> fit;
  if (training.auto_parallelism) {
    Result<TrainingFit> found = FitTraining(scenario, training);
    if (!found.ok()) return found.error();
    fit = std::move(found).value();
  }
  const ParallelismSpec p = fit ? fit->parallelism : training.parallelism;
  ClusterShape shape;
  shape.gpus = p.tp * p.pp * p.dp;
  shape.gpus_per_server = scenario.server.gpus_per_server;
  const int cluster_gpus = scenario.topology.servers * scenario.server.gpus_per_server;
  if (shape.gpus > cluster_gpus) {
    return Error{training.path + ": tp x pp x dp = " + std::to_string(shape.gpus) + " GPUs, the cluster has " +
                 std::to_string(cluster_gpus)};
  }
  Result<TrainingStep> step = BuildTrainingStep(training.model, p, training.training, shape);
  if (!step.ok()) return Error{training.path + ": " + step.error().message};
  if (!fit) {
    Result<TrainingFit> found = FitTraining(scenario, training);
    if (!found.ok()) return found.error();
    fit = std::move(found).value();
  }
  PreparedTraining prepared;
  prepared.parallelism = p;
  prepared.gpus = shape.gpus;
  prepared.graph = step->graph;
  if (training.storage_reserved() > 0) {
    Result<JobGraph> with = WithStorage(scenario, training, p, *step, prepared.read_nodes);
    if (!with.ok()) return with.error();
    prepared.graph = std::move(with).value();
  }
  prepared.step = std::move(step).value();
  prepared.fit = std::move(fit).value();
  return prepared;
}

TrainingRunResult TrainingResultOf(const PreparedTraining& prepared, const JobRunResult& run) {
  const TrainingStep& step = prepared.step;
  TrainingRunResult r;
  r.network_model = run.network_model;
  r.gpus = prepared.gpus;
  r.step_time = run.makespan;
  r.metrics = run.metrics;
  r.tokens_per_step = step.tokens_per_step;
  r.model_flops_per_step = step.model_flops_per_step;
  r.tokens_per_s = r.step_time > Time::Zero() ? step.TokensPerSecond(r.step_time) : 0;
  r.mfu = r.step_time > Time::Zero() ? step.Mfu(r.step_time) : 0;
  for (size_t d = 0; d < kCommDimensionCount; ++d) r.comm_bytes[d] = step.comm_bytes[d];
  r.nodes = step.graph.size();
  for (JobNodeIndex i = 0; i < step.graph.size(); ++i) {
    const JobNode& n = step.graph.node(i);
    if (n.kind == JobNodeKind::kCollective) ++r.collectives[static_cast<size_t>(n.dimension)];
  }
  r.parallelism = prepared.parallelism;
  r.memory = prepared.fit.memory;
  r.fitting_splits = prepared.fit.ranked.size();
  if (!prepared.fit.ranked.empty()) r.estimate = prepared.fit.ranked.front().estimate;
  r.faults = run.faults;
  r.events = run.events;
  r.wall_seconds = run.wall_seconds;
  return r;
}

Result<TrainingRunResult> RunTrainingStep(const Scenario& scenario, const Scenario::Training& training,
                                          const RunHooks& hooks) {
  Result<PreparedTraining> prepared = PrepareTraining(scenario, training);
  if (!prepared.ok()) return prepared.error();
  // The step is its own nodes and its dataset reads (it needs its batch);
  // a checkpoint after them runs in the background.
  Result<JobRunResult> run = RunJob(scenario, prepared->graph, training.path, prepared->gpus,
                                    prepared->step.graph.size() + prepared->read_nodes, hooks);
  if (!run.ok()) return run.error();
  return TrainingResultOf(*prepared, *run);
}

}  // namespace aifabric
