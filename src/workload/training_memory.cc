#include "workload/training_memory.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "workload/field_error.h"
#include "workload/model_costs.h"

namespace aifabric {
namespace {

uint64_t Bytes(double x) { return x <= 0 ? 0 : static_cast<uint64_t>(std::llround(x)); }

// The MLP's TP-split activations of one layer in units of s b h: GeLU 4 f / h,
// gated 6 f / h; an MoE layer's (top_k + shared) experts plus 2 top_k of
// dispatched tokens.
double MlpActivationUnits(const ModelSpec& m, int layer) {
  const double per_width = m.gated_mlp ? 6.0 : 4.0;
  const double h = static_cast<double>(m.hidden);
  if (!m.is_moe_layer(layer)) return per_width * static_cast<double>(m.ffn_hidden) / h;
  const double experts = m.top_k + m.shared_experts;
  return experts * per_width * static_cast<double>(m.expert_ffn_hidden) / h + 2.0 * m.top_k;
}

}  // namespace

const char* RecomputeName(Recompute r) {
  switch (r) {
    case Recompute::kNone:
      return "none";
    case Recompute::kSelective:
      return "selective";
    case Recompute::kFull:
      return "full";
  }
  return "none";
}

TrainingMemoryOptions MemoryOptionsOf(const ParallelismSpec& p, const TrainingSpec& t) {
  TrainingMemoryOptions o;
  o.zero_stage = p.distributed_optimizer ? 1 : 0;
  o.recompute = t.recompute ? Recompute::kFull : Recompute::kNone;
  return o;
}

ModelStateBytes ModelStateMemory(double params, double shards, int zero_stage, int dtype_bytes, int grad_bytes,
                                 int optimizer_bytes) {
  ModelStateBytes b;
  b.weights = params * dtype_bytes / (zero_stage >= 3 ? shards : 1.0);
  b.gradients = params * grad_bytes / (zero_stage >= 2 ? shards : 1.0);
  b.optimizer = params * optimizer_bytes / (zero_stage >= 1 ? shards : 1.0);
  return b;
}

double LayerActivationBytes(const ModelSpec& m, int layer, int seq, int micro_batch, int tp, bool sequence_parallel,
                            Recompute recompute, int dtype_bytes) {
  const double sbh = static_cast<double>(seq) * micro_batch * static_cast<double>(m.hidden);
  const double scale = dtype_bytes / 2.0;
  if (recompute == Recompute::kFull) return 2.0 * sbh * scale;
  const double t = tp;
  const bool sp = sequence_parallel && tp > 1;
  const double replicated = 10.0;                              // norms' and blocks' inputs, dropout masks
  const double split = 8.0 + MlpActivationUnits(m, layer);     // attention 8 + MLP (GeLU 4h: 16)
  const double scores = recompute == Recompute::kSelective ? 0.0
                                                           : 5.0 * m.heads * static_cast<double>(seq) /
                                                                 static_cast<double>(m.hidden);
  const double units = sp ? (replicated + split + scores) / t : replicated + (split + scores) / t;
  return sbh * units * scale;
}

namespace {

// One transformer layer's parameters on one GPU.
StageParams LayerParams(const ModelSpec& m, const ParallelismSpec& p, int layer) {
  StageParams s;
  s.dense = AttentionParams(m) / p.tp + NormParams(m);
  if (m.is_moe_layer(layer)) {
    s.dense += m.shared_experts * ExpertParams(m) / p.tp + RouterParams(m);
    s.expert = (m.experts / p.ep) * ExpertParams(m) / p.tp;
  } else {
    s.dense += DenseMlpParams(m) / p.tp;
  }
  return s;
}

}  // namespace

StageParams StageParameters(const ModelSpec& m, const ParallelismSpec& p, int stage, int first_layer, int layers) {
  StageParams s;
  for (int l = first_layer; l < first_layer + layers; ++l) {
    const StageParams lp = LayerParams(m, p, l);
    s.dense += lp.dense;
    s.expert += lp.expert;
  }
  if (stage == 0) {
    s.dense += m.vocab * m.hidden / p.tp + (m.learned_positions ? int64_t{m.seq_len} * m.hidden : 0);
  }
  if (stage == p.pp - 1) {
    const int64_t output = m.tied_embeddings ? (p.pp > 1 ? m.vocab * m.hidden : 0) : OutputParams(m);
    s.dense += output / p.tp + m.hidden;  // + the final norm
  }
  return s;
}

std::vector<int> StageLayerCounts(const ModelSpec& model, const ParallelismSpec& p) {
  if (!p.stage_layers.empty()) return p.stage_layers;
  return std::vector<int>(static_cast<size_t>(p.pp), model.layers / p.pp);
}

Result<TrainingMemory> EstimateTrainingMemory(const ModelSpec& m, const ParallelismSpec& p, const TrainingSpec& t,
                                              const TrainingMemoryOptions& options, uint64_t hbm_bytes) {
  if (options.zero_stage < 0 || options.zero_stage > 3) {
    return FieldError("zero", std::to_string(options.zero_stage) + " must be 0, 1, 2 or 3");
  }
  if (p.tp < 1 || p.pp < 1 || p.dp < 1 || p.ep < 1 || p.dp % p.ep != 0) {
    return FieldError("parallelism", "tp, pp, dp, ep must be >= 1 and ep must divide dp");
  }
  if (m.moe() && m.experts % p.ep != 0) {
    return FieldError("parallelism.ep", std::to_string(p.ep) + " does not divide model.experts = " +
                                            std::to_string(m.experts));
  }
  if (p.stage_layers.empty() ? m.layers % p.pp != 0 : static_cast<int>(p.stage_layers.size()) != p.pp) {
    return FieldError("parallelism.pp", std::to_string(p.pp) + " stages do not split model.layers = " +
                                            std::to_string(m.layers));
  }
  if (t.micro_batch < 1 || t.global_batch < 1 || t.global_batch % (int64_t{t.micro_batch} * p.dp) != 0) {
    return FieldError("training.global_batch", std::to_string(t.global_batch) +
                                                   " is not a positive multiple of training.micro_batch x dp = " +
                                                   std::to_string(t.micro_batch) + " x " + std::to_string(p.dp));
  }
  const int seq = t.seq_len > 0 ? t.seq_len : m.seq_len;
  const int b = t.micro_batch;
  const int micro_batches = t.global_batch / (t.micro_batch * p.dp);
  const int optimizer_bytes = AdamStateBytes(t.dtype_bytes);
  const bool sp = p.sequence_parallel && p.tp > 1;
  const double sb = static_cast<double>(seq) * b;
  const double sbh = sb * static_cast<double>(m.hidden);
  const double scale = t.dtype_bytes / 2.0;

  TrainingMemory r;
  r.hbm_bytes = hbm_bytes;
  const std::vector<int> counts = StageLayerCounts(m, p);
  int first_layer = 0;
  for (int stage = 0; stage < p.pp; ++stage) {
    StageMemory sm;
    sm.stage = stage;
    sm.first_layer = first_layer;
    sm.layers = counts[static_cast<size_t>(stage)];
    sm.in_flight = std::min(p.pp - stage, micro_batches);
    sm.params = StageParameters(m, p, stage, first_layer, sm.layers);
    const ModelStateBytes dense = ModelStateMemory(static_cast<double>(sm.params.dense), p.dp, options.zero_stage,
                                                   t.dtype_bytes, t.grad_bytes, optimizer_bytes);
    const ModelStateBytes expert = ModelStateMemory(static_cast<double>(sm.params.expert), p.dp / p.ep,
                                                    options.zero_stage, t.dtype_bytes, t.grad_bytes, optimizer_bytes);
    sm.weights_bytes = Bytes(dense.weights + expert.weights);
    sm.gradients_bytes = Bytes(dense.gradients + expert.gradients);
    sm.optimizer_bytes = Bytes(dense.optimizer + expert.optimizer);

    // Per micro-batch in flight: the stage's layers, and on the first stage
    // the embedding's input and dropout mask.
    double per_micro_batch = 0, largest_layer = 0;
    int64_t largest_layer_params = 0;
    for (int l = first_layer; l < first_layer + sm.layers; ++l) {
      per_micro_batch += LayerActivationBytes(m, l, seq, b, p.tp, p.sequence_parallel, options.recompute, t.dtype_bytes);
      largest_layer = std::max(largest_layer, LayerActivationBytes(m, l, seq, b, p.tp, p.sequence_parallel,
                                                                   Recompute::kNone, t.dtype_bytes));
      const StageParams lp = LayerParams(m, p, l);
      largest_layer_params = std::max(largest_layer_params, lp.dense + lp.expert);
    }
    if (stage == 0) per_micro_batch += 8.0 * sb + sbh / (sp ? p.tp : 1);  // int64 token ids, 1-byte mask
    double activations = per_micro_batch * sm.in_flight;
    if (stage == p.pp - 1) {
      // Two 16-bit inputs (final norm, output layer) and the fp32 logits.
      activations += 4.0 * sbh / (sp ? p.tp : 1) * scale + 4.0 * sb * static_cast<double>(m.vocab) / p.tp;
    }
    if (options.recompute == Recompute::kFull) activations += largest_layer;
    sm.activations_bytes = Bytes(activations);
    if (options.zero_stage == 3) {
      sm.buffer_bytes = static_cast<uint64_t>(2 * largest_layer_params) * static_cast<uint64_t>(t.dtype_bytes);
    }
    r.stages.push_back(sm);
    first_layer += sm.layers;
  }
  for (size_t i = 1; i < r.stages.size(); ++i) {
    if (r.stages[i].total_bytes() > r.worst().total_bytes()) r.worst_stage = static_cast<int>(i);
  }
  return r;
}

std::string GiB(uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
  return text;
}

std::string StageMemoryBreakdown(const StageMemory& s) {
  std::string out = "weights ";
  out += GiB(s.weights_bytes);
  out += ", gradients ";
  out += GiB(s.gradients_bytes);
  out += ", optimizer ";
  out += GiB(s.optimizer_bytes);
  out += ", activations ";
  out += GiB(s.activations_bytes);
  if (s.buffer_bytes > 0) {
    out += ", gathered parameters ";
    out += GiB(s.buffer_bytes);
  }
  out += " GiB";
  return out;
}

std::string DescribeStageMemory(const StageMemory& s) {
  std::string out = GiB(s.total_bytes());
  out += " GiB on stage ";
  out += std::to_string(s.stage);
  out += " (";
  out += StageMemoryBreakdown(s);
  out += ")";
  return out;
}

}  // namespace aifabric
