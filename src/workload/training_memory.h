// TrainingMemory is the HBM one training rank needs, stage by stage: the
// model states (weights, gradients, optimizer state, each sharded over data
// parallelism as the ZeRO stage says), the activations the 1F1B schedule
// keeps in flight, and ZeRO-3's gathered-parameter buffers; the worst
// (largest) stage decides whether the plan fits the GPU. Closed forms, no
// graph: pure functions of their inputs; thread-safe.
//
// Model states per parameter (ZeRO, Rajbhandari et al., SC'20,
// arXiv:1910.02054, section 3.1 and Figure 1): mixed-precision Adam holds
// 16-bit weights (dtype_bytes = 2), gradients (grad_bytes: 2 in the paper;
// 4 by default here, the fp32 gradients Megatron keeps for bf16 models) and
// K = 12 bytes of fp32 optimizer state (master weight, momentum, variance;
// 8 when the weights are already fp32). With Nd data-parallel ranks:
//   stage 0  W + G + O            stage 2 (P_os+g)   W + (G + O) / Nd
//   stage 1  W + G + O / Nd       stage 3 (P_os+g+p) (W + G + O) / Nd
// (the paper's 120 / 31.4 / 16.6 / 1.9 GB for 7.5B parameters on Nd = 64).
// Stage 1 is Megatron's distributed optimizer (6 + 12/d bytes per parameter
// with bf16 weights and fp32 gradients: megatron/training/
// theoretical_memory_usage.py). Expert parameters shard over the expert-DP
// group (dp / ep ranks), the others over dp.
//
// Parameters per GPU of a stage come from the model's own counting
// (model_costs.h), split as the training step splits them (training_stage.h):
// attention, MLP and expert matrices over TP, norms and the router on every
// TP rank, experts over EP, the input embedding (and learned positions) on
// the first stage, the output layer and final norm on the last (with tied
// embeddings and pp > 1 the last stage holds its own copy, as in Megatron).
//
// Activations per transformer layer and micro-batch (Korthikanti et al.,
// "Reducing Activation Recomputation in Large Transformer Models",
// arXiv:2205.05198, Table 2; 16-bit activations, 1-byte dropout masks), with
// s = seq_len, b = micro_batch, h = hidden, a = heads, t = tp:
//   no recompute, no SP      s b h (10 + 24/t + 5 a s / (h t))
//   no recompute, SP         s b h (34 + 5 a s / h) / t
//   selective, no SP         s b h (10 + 24/t)
//   selective, SP            s b h 34 / t
//   full recompute           2 s b h (the layer's input only)
// 24 s b h is the TP-split part: 8 of attention (Q, K, V and the output
// projection's input) and 16 of a GeLU MLP of width 4h. As Megatron's
// theoretical_memory_usage.py does, the MLP part scales with the width f:
// 4 f / h (GeLU: the two f-wide tensors); for a gated MLP (SwiGLU) we count
// 6 f / h (gate, up and their product), and an MoE layer holds
// (top_k + shared) experts' worth at expert_ffn_hidden plus 2 top_k s b h
// of dispatched tokens (balanced routing: a rank's experts see as many
// token-expert pairs as its own micro-batch brings). Other dtype_bytes scale
// the whole figure by dtype_bytes / 2.
// Ends of the model (Korthikanti et al. section 4.3, Megatron's estimator):
// the first stage keeps the embedding's input (8 s b) and dropout mask
// (s b h, / t with SP) per micro-batch in flight; the last stage the final
// norm's and output layer's inputs and the fp32 logits, 4 s b h (/ t with
// SP) + 4 s b V / t. With full recompute one layer's activations (no
// recompute) are live again while it is recomputed and back-propagated.
// 1F1B: stage i of p keeps min(p - i, m) micro-batches in flight, so the
// first stage holds p (Narayanan et al., arXiv:2104.04473, section 2.2.1).
//
// Temporary buffers: ZeRO-3 all-gathers each layer's parameters before use;
// we count two layers' worth (TP-sharded, dtype_bytes each): the one in
// use and the one prefetched (PyTorch FSDP's forward/backward prefetch).
// Not counted: the CUDA context, NCCL's buffers, allocator fragmentation
// and other framework overhead (typically a few GB), so a plan whose total
// is just under the HBM may still not run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "workload/model_catalog.h"
#include "workload/training_step.h"

namespace aifabric {

enum class Recompute : uint8_t {
  kNone,       // keep every activation
  kSelective,  // recompute the attention core (the 5 a s^2 b term)
  kFull,       // keep each layer's input; recompute the layer in backward
};
const char* RecomputeName(Recompute r);  // "none", "selective", "full"

// The memory-side choices of a training plan. The step model
// (training_step.h) simulates ZeRO 1 and 2 as its distributed optimizer and
// full recompute as TrainingSpec::recompute; callers keep the two
// consistent (the scenario loader does).
struct TrainingMemoryOptions {
  int zero_stage = 0;  // 0..3; 1 = the distributed optimizer, 3 = FSDP
  Recompute recompute = Recompute::kNone;
};

// The options a step plan implies: ZeRO-1 with the distributed optimizer,
// full recompute when TrainingSpec::recompute is set.
TrainingMemoryOptions MemoryOptionsOf(const ParallelismSpec& p, const TrainingSpec& t);

// Mixed-precision Adam's optimizer state per parameter: fp32 momentum and
// variance (8), plus an fp32 master copy when the weights are narrower.
inline int AdamStateBytes(int dtype_bytes) { return dtype_bytes < 4 ? 12 : 8; }

// One rank's model states for `params` parameters sharded `shards` ways
// under `zero_stage` (the table above), in bytes. REQUIRES: shards >= 1.
struct ModelStateBytes {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double total() const { return weights + gradients + optimizer; }
};
ModelStateBytes ModelStateMemory(double params, double shards, int zero_stage, int dtype_bytes, int grad_bytes,
                                 int optimizer_bytes);

// Activation bytes one transformer layer keeps for one micro-batch (the
// Table 2 forms above), for layer `layer` of `model` (it may be an MoE
// layer). REQUIRES: tp >= 1, seq >= 1, micro_batch >= 1.
double LayerActivationBytes(const ModelSpec& model, int layer, int seq, int micro_batch, int tp,
                            bool sequence_parallel, Recompute recompute, int dtype_bytes);

// Parameters one GPU of a stage holds, as the training step counts them.
struct StageParams {
  int64_t dense = 0;   // sharded over dp by ZeRO
  int64_t expert = 0;  // sharded over dp / ep
};
// REQUIRES: 0 <= stage < p.pp, [first_layer, first_layer + layers) within the model.
StageParams StageParameters(const ModelSpec& model, const ParallelismSpec& p, int stage, int first_layer, int layers);

struct StageMemory {
  int stage = 0;
  int first_layer = 0;
  int layers = 0;
  int in_flight = 0;  // micro-batches whose activations the stage keeps (1F1B)
  StageParams params;
  uint64_t weights_bytes = 0;
  uint64_t gradients_bytes = 0;
  uint64_t optimizer_bytes = 0;
  uint64_t activations_bytes = 0;
  uint64_t buffer_bytes = 0;  // ZeRO-3's gathered parameters
  uint64_t total_bytes() const {
    return weights_bytes + gradients_bytes + optimizer_bytes + activations_bytes + buffer_bytes;
  }
};

struct TrainingMemory {
  std::vector<StageMemory> stages;  // first stage first
  int worst_stage = 0;              // the largest total (the first of equals)
  uint64_t hbm_bytes = 0;           // the GPU's capacity
  const StageMemory& worst() const { return stages[static_cast<size_t>(worst_stage)]; }
  bool fits() const { return worst().total_bytes() <= hbm_bytes; }
};

// The layers of each stage: p.stage_layers, or model.layers / pp each.
// REQUIRES: the split is valid (training_step.h's rules).
std::vector<int> StageLayerCounts(const ModelSpec& model, const ParallelismSpec& p);

// Memory per stage of one rank of `model` under `p` and `t` (micro_batch,
// seq_len, dtype_bytes, grad_bytes, global_batch for the micro-batch count)
// with `options`, against `hbm_bytes`. Errors name the field
// ("zero: ...", "parallelism.pp: ...", "training.global_batch: ...").
Result<TrainingMemory> EstimateTrainingMemory(const ModelSpec& model, const ParallelismSpec& p,
                                              const TrainingSpec& t, const TrainingMemoryOptions& options,
                                              uint64_t hbm_bytes);

// "weights 43.7, gradients 87.4, optimizer 262.2, activations 19.0 GiB";
// ZeRO-3's gathered parameters appear when there are any.
std::string StageMemoryBreakdown(const StageMemory& stage);
// "412.3 GiB on stage 0 (weights 43.7, ..., activations 19.0 GiB)".
std::string DescribeStageMemory(const StageMemory& stage);
// Bytes in GiB with one decimal: "74.5".
std::string GiB(uint64_t bytes);

}  // namespace aifabric
