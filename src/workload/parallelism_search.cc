#include "workload/parallelism_search.h"

#include <algorithm>
#include <tuple>

#include "workload/model_costs.h"
#include "workload/training_calibration.h"

namespace aifabric {
namespace {

// Seconds to move `bytes` at `rate` bytes per second.
double Seconds(double bytes, double rate) { return rate > 0 ? bytes / rate : 0; }

// What one stage does per micro-batch, seconds.
struct StageTime {
  double compute = 0;       // forward + backward (+ recompute)
  double tensor = 0;        // TP all-reduces, forward and backward
  double expert = 0;        // EP all-to-alls
  double backward = 0;      // the backward pass alone, with its collectives
  double total() const { return compute + tensor + expert; }
};

bool TpFits(const ModelSpec& m, int tp) {
  if (m.heads % tp != 0 || m.ffn_hidden % tp != 0) return false;
  if (!m.mla() && m.kv_heads_or_default() % tp != 0) return false;
  return !m.moe() || m.expert_ffn_hidden % tp == 0;
}

// The balanced split: layers / pp each, the first layers % pp one more.
std::vector<int> BalancedStages(int layers, int pp) {
  if (layers % pp == 0) return {};
  std::vector<int> counts(static_cast<size_t>(pp), layers / pp);
  for (int i = 0; i < layers % pp; ++i) ++counts[static_cast<size_t>(i)];
  return counts;
}

}  // namespace

std::string SplitName(const ParallelismSpec& p) {
  std::string s = "TP " + std::to_string(p.tp) + " x PP " + std::to_string(p.pp) + " x DP " + std::to_string(p.dp);
  if (p.ep > 1) s += " x EP " + std::to_string(p.ep);
  return s;
}

StepEstimate EstimateStepTime(const ModelSpec& m, const ParallelismSpec& p, const TrainingSpec& t,
                              const TrainingMemoryOptions& options, const SearchCluster& c) {
  const CalibrationSpec& calibration = BuiltInCalibration();
  const double efficiency = t.compute_efficiency > 0 ? t.compute_efficiency : calibration.compute_efficiency;
  const double optimizer_bytes =
      t.optimizer_bytes_per_param > 0 ? t.optimizer_bytes_per_param : calibration.optimizer_bytes_per_param;
  const double flops_per_s = t.gpu_peak_tflops * 1e12 * efficiency;
  const int seq = t.seq_len > 0 ? t.seq_len : m.seq_len;
  const double micro_batches = static_cast<double>(t.global_batch / (t.micro_batch * p.dp));
  const double tokens = static_cast<double>(t.micro_batch) * seq;
  const double act = tokens * static_cast<double>(m.hidden) * t.dtype_bytes;
  const int gps = c.gpus_per_server;
  // Megatron's rank order: a DP (and EP) group spans tp x dp consecutive
  // GPUs, a pipeline tp x dp x pp.
  const double dp_rate = gps % (p.tp * p.dp) == 0 ? c.nvlink_bytes_per_s : c.nic_bytes_per_s;
  const double ep_rate = gps % (p.tp * p.ep) == 0 ? c.nvlink_bytes_per_s : c.nic_bytes_per_s;
  const double pp_rate = gps % (p.tp * p.dp * p.pp) == 0 ? c.nvlink_bytes_per_s : c.nic_bytes_per_s;
  const bool full = options.recompute == Recompute::kFull;
  const double tp_ar = p.tp > 1 ? Seconds(2.0 * (p.tp - 1) / p.tp * act, c.nvlink_bytes_per_s) : 0;
  const double a2a = p.ep > 1 ? Seconds((p.ep - 1.0) / p.ep * act * m.top_k / p.tp, ep_rate) : 0;
  const double scores_per_token = AttentionForwardFlopsPerToken(m, seq) - 2.0 * static_cast<double>(AttentionParams(m));

  const std::vector<int> counts = StageLayerCounts(m, p);
  std::vector<StageTime> stages;
  int first_layer = 0;
  for (int s = 0; s < p.pp; ++s) {
    const int layers = counts[static_cast<size_t>(s)];
    double forward = 0, recomputed = 0;
    int moe_layers = 0;
    for (int l = first_layer; l < first_layer + layers; ++l) {
      const double layer = (AttentionForwardFlopsPerToken(m, seq) + MlpForwardFlopsPerToken(m, l)) * tokens / p.tp;
      forward += layer;
      if (full) recomputed += layer;
      if (options.recompute == Recompute::kSelective) recomputed += scores_per_token * tokens / p.tp;
      if (m.is_moe_layer(l)) ++moe_layers;
    }
    const bool last = s == p.pp - 1;
    if (last) forward += HeadForwardFlopsPerToken(m) * tokens / p.tp;
    StageTime st;
    st.compute = (3 * forward + recomputed) / flops_per_s;
    const int tp_fwd = 2 * layers + (s == 0 ? 1 : 0);
    const int tp_bwd = 2 * layers + (full ? 2 * layers : 0) + (last ? 1 : 0);
    const int a2a_bwd = 2 * moe_layers + (full ? 2 * moe_layers : 0);
    st.tensor = (tp_fwd + tp_bwd) * tp_ar;
    st.expert = (2 * moe_layers + a2a_bwd) * a2a;
    st.backward = (2 * forward + recomputed) / flops_per_s + tp_bwd * tp_ar + a2a_bwd * a2a;
    stages.push_back(st);
    first_layer += layers;
  }
  size_t slowest = 0;
  for (size_t i = 1; i < stages.size(); ++i) {
    if (stages[i].total() > stages[slowest].total()) slowest = i;
  }
  StepEstimate e;
  const StageTime& w = stages[slowest];
  e.compute_s = micro_batches * w.compute;
  e.tensor_s = micro_batches * w.tensor;
  e.expert_s = micro_batches * w.expert;
  e.bubble_s = (p.pp - 1) * w.total();
  if (p.pp > 1) {
    const bool sp = p.sequence_parallel && p.tp > 1;
    e.pipeline_s = 2.0 * (p.pp - 1) * Seconds(sp ? act / p.tp : act, pp_rate);
  }

  // Gradient reduction, ZeRO's gathers and the optimizer, per stage; the
  // worst stage counts.
  const bool sharded = options.zero_stage >= 1;
  first_layer = 0;
  double worst_tail = -1;
  for (int s = 0; s < p.pp; ++s) {
    const StageParams params = StageParameters(m, p, s, first_layer, counts[static_cast<size_t>(s)]);
    first_layer += counts[static_cast<size_t>(s)];
    double reduce = 0, gather = 0, fsdp_gather = 0;
    for (const auto& [count, n] : {std::pair<int64_t, int>{params.dense, p.dp}, {params.expert, p.dp / p.ep}}) {
      if (n <= 1 || count == 0) continue;
      const double share = (n - 1.0) / n;
      const double grads = static_cast<double>(count) * t.grad_bytes;
      const double weights = static_cast<double>(count) * t.dtype_bytes;
      reduce += Seconds((sharded ? 1.0 : 2.0) * share * grads, dp_rate);
      if (sharded) gather += Seconds(share * weights, dp_rate);
      if (options.zero_stage == 3) fsdp_gather += 2.0 * micro_batches * Seconds(share * weights, dp_rate);
    }
    const StageTime& st = stages[static_cast<size_t>(s)];
    double data = (p.overlap_grad_reduce ? std::max(0.0, reduce - st.backward) : reduce) + gather;
    data += std::max(0.0, fsdp_gather - micro_batches * st.compute);  // FSDP's gathers hide behind compute
    const double shards_dense = sharded ? p.dp : 1, shards_expert = sharded ? p.dp / p.ep : 1;
    const double updated = static_cast<double>(params.dense) / shards_dense + static_cast<double>(params.expert) / shards_expert;
    const double optimizer = Seconds(updated * optimizer_bytes, t.hbm_bytes_per_s);
    if (data + optimizer > worst_tail) {
      worst_tail = data + optimizer;
      e.data_s = data;
      e.optimizer_s = optimizer;
    }
  }
  e.step_s = e.compute_s + e.tensor_s + e.expert_s + e.bubble_s + e.pipeline_s + e.data_s + e.optimizer_s;
  return e;
}

Result<std::vector<RankedSplit>> SearchParallelism(const ModelSpec& m, const ParallelismSpec& base,
                                                   const TrainingSpec& t, const TrainingMemoryOptions& options,
                                                   const SearchCluster& c) {
  if (c.gpus_per_server < 1 || c.gpus < 1 || c.gpus % c.gpus_per_server != 0) {
    return Error{"parallelism: auto needs a positive multiple of gpus_per_server = " +
                 std::to_string(c.gpus_per_server) + " GPUs, got " + std::to_string(c.gpus)};
  }
  if (t.micro_batch < 1 || t.global_batch < 1) {
    return Error{"training.global_batch: must be >= 1 (and micro_batch >= 1)"};
  }
  std::vector<RankedSplit> fits;
  RankedSplit closest;
  double closest_ratio = -1;
  for (int tp = 1; tp <= c.gpus_per_server; ++tp) {
    if (c.gpus_per_server % tp != 0 || c.gpus % tp != 0 || !TpFits(m, tp)) continue;
    const int rest = c.gpus / tp;
    for (int pp = 1; pp <= std::min(rest, m.layers); ++pp) {
      if (rest % pp != 0) continue;
      const int dp = rest / pp;
      if (t.global_batch % (int64_t{t.micro_batch} * dp) != 0) continue;
      for (int ep = 1; ep <= (m.moe() ? dp : 1); ++ep) {
        if (dp % ep != 0 || (m.moe() && m.experts % ep != 0)) continue;
        ParallelismSpec p = base;
        p.tp = tp;
        p.pp = pp;
        p.dp = dp;
        p.ep = ep;
        p.stage_layers = BalancedStages(m.layers, pp);
        Result<TrainingMemory> memory = EstimateTrainingMemory(m, p, t, options, c.hbm_bytes);
        if (!memory.ok()) return memory.error();
        RankedSplit split{p, std::move(memory).value(), {}};
        if (!split.memory.fits()) {
          const double ratio = static_cast<double>(split.memory.worst().total_bytes()) /
                               static_cast<double>(std::max<uint64_t>(1, c.hbm_bytes));
          if (closest_ratio < 0 || ratio < closest_ratio) {
            closest_ratio = ratio;
            closest = std::move(split);
          }
          continue;
        }
        split.estimate = EstimateStepTime(m, p, t, options, c);
        fits.push_back(std::move(split));
      }
    }
  }
  if (fits.empty()) {
    std::string what = "no split of " + std::to_string(c.gpus) + " GPUs fits " + m.name + " in " + GiB(c.hbm_bytes) +
                       " GiB per GPU (zero " + std::to_string(options.zero_stage) + ", recompute " +
                       RecomputeName(options.recompute) + ", micro_batch " + std::to_string(t.micro_batch) + ")";
    if (closest_ratio < 0) {
      what += ": no TP x PP x DP split divides the GPUs, the model and global_batch " + std::to_string(t.global_batch) +
              " / micro_batch " + std::to_string(t.micro_batch);
    } else {
      what += "; the closest, " + SplitName(closest.parallelism) + ", needs " +
              DescribeStageMemory(closest.memory.worst());
    }
    return Error{"parallelism: " + what};
  }
  auto key = [](const RankedSplit& s) {
    const ParallelismSpec& p = s.parallelism;
    return std::make_tuple(s.estimate.step_s, p.tp * p.pp, p.tp, p.pp, p.ep);
  };
  std::stable_sort(fits.begin(), fits.end(), [&](const RankedSplit& a, const RankedSplit& b) { return key(a) < key(b); });
  return fits;
}

}  // namespace aifabric
