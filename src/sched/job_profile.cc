#include "sched/job_profile.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "workload/model_costs.h"
#include "workload/training_calibration.h"

namespace aifabric {
namespace {

constexpr int kActivationBytes = 2;  // bf16 activations on the wire
constexpr double kCheckpointBytesPerParam = 16;  // bf16 weights + fp32 master + two Adam moments

std::string JobField(const char* name) { return std::string("scheduling.jobs.") + name + ": "; }

int MoeLayers(const ModelSpec& m) {
  int n = 0;
  for (int l = 0; l < m.layers; ++l) n += m.is_moe_layer(l) ? 1 : 0;
  return n;
}

// Routed-expert parameters of the whole model (they split over ep); the
// rest (attention, dense MLPs, shared experts, routers, embeddings) are
// "dense" and replicate over data-parallel ranks.
double RoutedExpertParams(const ModelSpec& m) {
  return static_cast<double>(MoeLayers(m)) * m.experts * static_cast<double>(ExpertParams(m));
}

// Parameters one GPU holds under tp x pp with experts over ep.
double ParamsPerGpu(const ModelSpec& m, int tp, int pp, int ep) {
  const double experts = RoutedExpertParams(m);
  const double dense = static_cast<double>(CountParameters(m).total) - experts;
  return (dense + experts / ep) / (static_cast<double>(tp) * pp);
}

}  // namespace

Status ValidateJobModelOptions(const JobModelOptions& o) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(o.gpu_peak_tflops)) {
    return Error{JobField("gpu_peak_tflops") + "expected a positive number, got " + std::to_string(o.gpu_peak_tflops)};
  }
  if (!(o.compute_efficiency >= 0 && o.compute_efficiency <= 1)) {
    return Error{JobField("compute_efficiency") + "expected 0 (calibrated) or a fraction in (0, 1], got " +
                 std::to_string(o.compute_efficiency)};
  }
  if (!positive(o.gpu_memory_gib)) {
    return Error{JobField("gpu_memory_gib") + "expected a positive number, got " + std::to_string(o.gpu_memory_gib)};
  }
  if (o.grad_bytes != 1 && o.grad_bytes != 2 && o.grad_bytes != 4 && o.grad_bytes != 8) {
    return Error{JobField("grad_bytes") + "expected 1, 2, 4 or 8, got " + std::to_string(o.grad_bytes)};
  }
  if (!(o.overlap_fraction >= 0 && o.overlap_fraction <= 1)) {
    return Error{JobField("overlap_fraction") + "expected a fraction in [0, 1], got " +
                 std::to_string(o.overlap_fraction)};
  }
  if (!positive(o.nvlink_gbps_per_dir)) {
    return Error{JobField("nvlink_gbps_per_dir") + "expected a positive number, got " +
                 std::to_string(o.nvlink_gbps_per_dir)};
  }
  if (!(std::isfinite(o.checkpoint_interval_s) && o.checkpoint_interval_s >= 0)) {
    return Error{JobField("checkpoint_interval") + "expected 0 (none) or a positive time, got " +
                 std::to_string(o.checkpoint_interval_s) + " s"};
  }
  if (o.tokens_per_gpu > (uint64_t{1} << 40)) {
    return Error{JobField("tokens_per_gpu") + "expected at most 2^40, got " + std::to_string(o.tokens_per_gpu)};
  }
  return {};
}

double RingAllReduceBytes(const JobProfile& p) {
  const int dp = p.parallelism.dp;
  return dp > 1 ? 2.0 * (dp - 1) / dp * static_cast<double>(p.allreduce_bytes) : 0.0;
}

double IterationSeconds(double compute_s, double overlap_fraction, double overlapped_s, double exposed_s) {
  const double f = overlap_fraction;
  return (1 - f) * compute_s + std::max(f * compute_s, overlapped_s) + exposed_s;
}

double IterationSecondsAt(const JobProfile& p, const JobModelOptions& options, double bytes_per_s) {
  const double overlapped = (RingAllReduceBytes(p) + static_cast<double>(p.pipeline_bytes)) / bytes_per_s;
  return IterationSeconds(p.compute_s, options.overlap_fraction, overlapped,
                          static_cast<double>(p.alltoall_bytes) / bytes_per_s);
}

JobParallelism PlanJobParallelism(const ModelSpec& model, int gpus, int gpus_per_server,
                                  const JobModelOptions& options) {
  const double memory_bytes = options.gpu_memory_gib * 1024.0 * 1024.0 * 1024.0;
  auto fits = [&](int tp, int pp) {
    const int dp = gpus / (tp * pp);
    return ParamsPerGpu(model, tp, pp, model.moe() ? dp : 1) * kTrainingBytesPerParam <= memory_bytes;
  };
  JobParallelism p;
  // The least tensor parallelism that holds the training state, inside a
  // server; failing that, a server's worth plus pipeline stages.
  p.tp = 0;
  for (int d = 1; d <= gpus_per_server; ++d) {
    if (gpus_per_server % d != 0 || gpus % d != 0) continue;
    p.tp = d;  // the largest usable so far
    if (fits(d, 1)) break;
  }
  p.tp = std::max(p.tp, 1);
  const int rest = gpus / p.tp;
  p.pp = 1;
  if (!fits(p.tp, 1)) {
    for (int pp = 2; pp <= rest && pp <= model.layers && rest % pp == 0; pp *= 2) {
      p.pp = pp;  // the deepest power of two so far, if none holds the state
      if (fits(p.tp, pp)) break;
    }
  }
  p.dp = rest / p.pp;
  p.ep = model.moe() ? p.dp : 1;
  return p;
}

JobProfile ProfileJob(const ModelSpec& model, bool training, int gpus, int gpus_per_server,
                      const JobModelOptions& options) {
  JobProfile out;
  out.parallelism = PlanJobParallelism(model, gpus, gpus_per_server, options);
  const JobParallelism& p = out.parallelism;
  const double tokens = options.tokens_per_gpu > 0 ? static_cast<double>(options.tokens_per_gpu) : model.seq_len;
  const double training_flops = TrainingFlopsPerToken(model, model.seq_len);
  const double flops_per_token = training ? training_flops : training_flops / 3.0;  // forward is a third
  const double efficiency =
      options.compute_efficiency > 0 ? options.compute_efficiency : BuiltInCalibration().compute_efficiency;
  out.flops_per_gpu = flops_per_token * tokens;
  out.compute_s = out.flops_per_gpu / (options.gpu_peak_tflops * 1e12 * efficiency);

  const double params = ParamsPerGpu(model, p.tp, p.pp, p.ep);
  out.params_per_gpu = static_cast<uint64_t>(std::llround(params));
  const double direction_passes = training ? 2.0 : 1.0;  // forward, and backward in training
  if (training && p.dp > 1) {
    // Only the dense part replicates over dp; routed experts are spread
    // over ep = dp ranks, so no other replica holds them.
    const double dense = static_cast<double>(CountParameters(model).total) - RoutedExpertParams(model);
    out.allreduce_bytes = static_cast<uint64_t>(std::llround(dense / (static_cast<double>(p.tp) * p.pp) *
                                                             options.grad_bytes));
  }
  if (model.moe() && p.ep > 1) {
    // Per MoE layer of the GPU's stage: each of the replica's tokens goes
    // to top_k experts, (ep-1)/ep of them elsewhere, and comes back
    // (dispatch + combine), each TP rank carrying 1/tp of them; a stage
    // has moe_layers/pp layers and sees tokens x tp x pp of the replica's tokens.
    const double per_layer = tokens * p.pp * static_cast<double>(model.hidden) * kActivationBytes * model.top_k *
                             (p.ep - 1) / p.ep * 2.0;
    out.alltoall_bytes =
        static_cast<uint64_t>(std::llround(per_layer * MoeLayers(model) / p.pp * direction_passes));
  }
  if (p.pp > 1) {
    // A stage boundary carries the replica's activations (tokens x tp x pp
    // of them, hidden wide), split over the tp ranks.
    out.pipeline_bytes = static_cast<uint64_t>(
        std::llround(tokens * p.pp * static_cast<double>(model.hidden) * kActivationBytes * direction_passes));
  }
  if (training) {
    out.checkpoint_bytes_per_gpu = static_cast<uint64_t>(std::llround(params * kCheckpointBytesPerParam / p.dp));
  }
  return out;
}

}  // namespace aifabric
