// BuildTrainingStep turns one training step of a transformer (ModelSpec)
// under a parallelism plan into a JobGraph: per micro-batch and layer,
// forward and backward compute on every GPU, the tensor-parallel
// collectives between them, pipeline sends in 1F1B order, expert
// all-to-alls, and the data-parallel gradient buckets and optimizer step.
// docs/training.md gives the formulas, the schedule and the rank mapping.
// Pure function of its inputs; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "workload/job_graph.h"
#include "workload/model_catalog.h"

namespace aifabric {

// How ranks map to GPU ids; TP is always innermost (consecutive GPUs of one server).
enum class RankOrder : uint8_t {
  kTpDpPp,  // gpu = tp + TP * (dp + DP * stage): Megatron-LM's default ("tp-cp-ep-dp-pp")
  kTpPpDp,  // gpu = tp + TP * (stage + PP * dp): pipeline neighbours close together
};

struct ParallelismSpec {
  int tp = 1;  // tensor parallel; must divide gpus_per_server (a TP group stays in a server)
  int pp = 1;  // pipeline stages
  int dp = 1;  // data parallel replicas
  int ep = 1;  // expert parallel, inside DP: ep consecutive DP ranks share a layer's experts
  int cp = 1;  // context parallel: not modelled; must be 1
  bool sequence_parallel = false;      // Megatron SP: each TP all-reduce becomes reduce-scatter + all-gather
  bool distributed_optimizer = false;  // ZeRO-1: reduce-scatter gradients, all-gather parameters
  uint64_t bucket_bytes = 25ull << 20;  // gradient bucket (PyTorch DDP bucket_cap_mb = 25)
  bool overlap_grad_reduce = true;      // a bucket starts when backward has produced it, not at the end
  // Layers per stage, first to last; empty = model.layers / pp each (must divide).
  std::vector<int> stage_layers;
  // Coarsening: k consecutive layers of a stage become one compute node per
  // micro-batch and phase, followed by one collective per (dimension, op)
  // carrying their bytes. 1 = exact per-layer structure.
  int layers_per_node = 1;
  RankOrder order = RankOrder::kTpDpPp;
};

struct TrainingSpec {
  int global_batch = 0;  // sequences per step, over all DP replicas
  int micro_batch = 1;   // sequences per micro-batch
  int seq_len = 0;       // 0 = the model's seq_len
  int dtype_bytes = 2;   // activations and parameters (bf16)
  int grad_bytes = 4;    // gradient reduction (Megatron reduces bf16 models' gradients in fp32)
  double gpu_peak_tflops = 989.4;  // dense BF16 peak (H100 SXM, REFERENCES.md 7)
  double compute_efficiency = 0;   // achieved fraction of peak; 0 = data/calibration.yaml's
  double hbm_bytes_per_s = 3.35e12;      // for the optimizer step (H100 SXM HBM3)
  double optimizer_bytes_per_param = 0;  // HBM bytes per parameter update; 0 = data/calibration.yaml's
  bool recompute = false;  // full activation recompute: backward re-runs each layer's forward first
};

struct ClusterShape {
  int gpus = 0;
  int gpus_per_server = 8;
};

// GPU ids of ranks: server-major GPU ids (fabric/cluster_layout.h), TP innermost.
class TrainingRankLayout {
 public:
  TrainingRankLayout(int tp, int pp, int dp, RankOrder order) : tp_(tp), pp_(pp), dp_(dp), order_(order) {}
  // REQUIRES: 0 <= stage < pp, 0 <= dp_rank < dp, 0 <= tp_rank < tp.
  GpuId gpu(int stage, int dp_rank, int tp_rank) const {
    const int outer = order_ == RankOrder::kTpDpPp ? dp_rank + dp_ * stage : stage + pp_ * dp_rank;
    return tp_rank + tp_ * outer;
  }

 private:
  int tp_, pp_, dp_;
  RankOrder order_;
};


struct TrainingStep {
  JobGraph graph;
  double model_flops_per_step = 0;  // useful model FLOPs over all GPUs (the sum of the nodes' flops)
  uint64_t tokens_per_step = 0;     // global_batch x seq_len
  int micro_batches = 0;            // m = global_batch / (micro_batch x dp)
  int seq_len = 0;
  int gpus = 0;
  double peak_flops_per_gpu = 0;  // FLOP/s (not x efficiency): the MFU denominator
  double compute_efficiency = 0;  // the one used for the durations
  // S summed over the step's collectives and transfers, per dimension
  // (index by CommDimension); S as nccl-tests counts it.
  std::array<uint64_t, kCommDimensionCount> comm_bytes{};
  size_t compute_nodes = 0;
  size_t collective_nodes = 0;
  size_t transfer_nodes = 0;
  Time max_gpu_compute;     // the busiest GPU's compute time (recompute, optimizer included)
  Time max_gpu_useful_compute;  // the most a GPU spends on nodes with useful FLOPs
  // Parameters one GPU of each stage holds (and whose gradients it reduces), first stage first.
  std::vector<int64_t> stage_params_per_gpu;

  uint64_t bytes(CommDimension d) const { return comm_bytes[static_cast<size_t>(d)]; }
  // Model FLOPs utilization of a step that took `step` (REQUIRES: step > 0).
  double Mfu(Time step) const { return model_flops_per_step / (step.seconds() * gpus * peak_flops_per_gpu); }
  double TokensPerSecond(Time step) const { return static_cast<double>(tokens_per_step) / step.seconds(); }
};

// The largest graph BuildTrainingStep makes; above it the error suggests
// parallelism.layers_per_node.
constexpr size_t kMaxTrainingGraphNodes = 16'000'000;

// Checks the inputs (errors name the field: "parallelism.tp: ...",
// "training.global_batch: ...", "cluster.gpus: ...", "model.heads: ...")
// and builds the step.
Result<TrainingStep> BuildTrainingStep(const ModelSpec& model, const ParallelismSpec& parallelism,
                                       const TrainingSpec& training, const ClusterShape& cluster);

}  // namespace aifabric
