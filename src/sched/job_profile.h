// JobProfile is what a scheduling replay knows of one trace job: how its
// GPUs split the model (tensor, pipeline, data parallel), how long one
// training iteration computes on every GPU, and what it must move per
// iteration: the data-parallel gradient all-reduce (over the fabric when
// the job spans servers, over NVLink inside one), the expert-parallel
// all-to-alls of a mixture-of-experts model, and its checkpoint. The
// formulas are docs/scheduling.md's "The job model"; they follow
// docs/training.md (model FLOPs of model_costs.h, Megatron's rank order)
// without building the step's graph, so a 5,000-job trace profiles in
// microseconds. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "workload/model_catalog.h"

namespace aifabric {

// The knobs of the job model (the cluster scenario's `scheduling.jobs`).
struct JobModelOptions {
  // Tokens each GPU trains on per iteration (global batch x sequence
  // length / GPUs); 0 = one sequence of the model's seq_len.
  uint64_t tokens_per_gpu = 0;
  double gpu_peak_tflops = 989.4;   // dense BF16 (H100 SXM)
  double compute_efficiency = 0;    // achieved fraction of peak; 0 = data/calibration.yaml's
  double gpu_memory_gib = 74.5;     // sets tp and pp (PlanJobParallelism); an 80 GB H100
  int grad_bytes = 4;               // bytes per gradient element reduced (fp32)
  // Fraction of an iteration's compute the gradient all-reduce may hide
  // behind (DDP overlaps buckets with backward, which is 2/3 of compute;
  // the last buckets cannot hide, so the default is below 2/3).
  double overlap_fraction = 0.5;
  double nvlink_gbps_per_dir = 450;  // GB/s (1e9 B/s) per GPU and direction
  // A checkpoint every this many seconds of training (0 = none): each GPU
  // writes its share of 16 bytes per parameter (weights + Adam state) to
  // storage, beside its next iterations.
  double checkpoint_interval_s = 0;
};

// Bytes of training state per parameter the memory rule counts: bf16
// weights and gradients, fp32 master weights and two Adam moments (16),
// plus activations taken as a quarter more.
inline constexpr double kTrainingBytesPerParam = 20;

struct JobParallelism {
  int tp = 1;  // tensor parallel, inside one server
  int pp = 1;  // pipeline stages
  int dp = 1;  // data-parallel replicas
  int ep = 1;  // expert parallel (inside DP) for a mixture-of-experts model
};

// The split of `gpus` GPUs, as little model parallelism as memory allows
// (data parallelism is the cheapest to communicate): tp = the smallest
// divisor of gpus_per_server dividing gpus whose shards hold the model's
// training state (kTrainingBytesPerParam per parameter) in gpu_memory_gib,
// else the largest such divisor and pp = the fewest stages, a power of two
// dividing gpus / tp, that hold it (or the deepest such); dp = the rest;
// ep = dp for a mixture-of-experts model (experts spread over the
// replicas), else 1.
JobParallelism PlanJobParallelism(const ModelSpec& model, int gpus, int gpus_per_server,
                                  const JobModelOptions& options);

struct JobProfile {
  JobParallelism parallelism;
  double compute_s = 0;  // one iteration's compute on every GPU (forward + backward)
  double flops_per_gpu = 0;  // model FLOPs one GPU does per iteration (Crux's GPU intensity)
  uint64_t params_per_gpu = 0;  // parameters one GPU holds (its share of the dense ones and of its experts)
  // The gradient all-reduce: S bytes per rank, among the dp ranks of each
  // (stage, tensor rank); 0 when dp = 1.
  uint64_t allreduce_bytes = 0;
  // Expert all-to-all bytes each rank sends per iteration (forward and
  // backward of every MoE layer it holds, dispatch and combine); 0 for a
  // dense model or ep = 1. Not hidden behind compute.
  uint64_t alltoall_bytes = 0;
  // Pipeline sends per iteration across each stage boundary, per tensor
  // rank and replica: activations forward (and their gradients back in
  // training); 0 when pp = 1. Hidden behind compute like the all-reduce.
  uint64_t pipeline_bytes = 0;
  // 16 bytes per parameter the GPU holds, divided among the dp replicas
  // that hold the same state (a sharded checkpoint: each writes its part).
  uint64_t checkpoint_bytes_per_gpu = 0;
};

// The profile of a job of `model` on `gpus` GPUs. A training iteration is
// forward + backward + optimizer over tokens_per_gpu tokens per GPU; an
// inference iteration (a serving batch) is the forward pass alone over as
// many tokens, with no gradients, checkpoint or backward sends.
// REQUIRES: ValidateJobModelOptions(options).ok(), gpus >= 1,
// gpus_per_server >= 1.
JobProfile ProfileJob(const ModelSpec& model, bool training, int gpus, int gpus_per_server,
                      const JobModelOptions& options);

// Bytes each rank sends in the gradient ring: 2(dp-1)/dp x allreduce_bytes
// (0 when dp = 1).
double RingAllReduceBytes(const JobProfile& profile);

// An iteration's length (docs/scheduling.md): compute for (1 - f) of
// `compute_s`, then the rest beside communication that takes
// `overlapped_s`, then communication that takes `exposed_s`:
// (1 - f) C + max(f C, overlapped) + exposed, f = overlap_fraction.
double IterationSeconds(double compute_s, double overlap_fraction, double overlapped_s, double exposed_s);

// One iteration when every byte the job sends moves at `bytes_per_s` with
// nothing in its way: (1 - f) C + max(f C, (ring + pipeline bytes) /
// bytes_per_s) + all-to-all bytes / bytes_per_s, f = overlap_fraction, C =
// compute_s. With NVLink's rate it is a one-server job's iteration; with a
// NIC's, the estimate made before a job is placed. REQUIRES: bytes_per_s > 0.
double IterationSecondsAt(const JobProfile& profile, const JobModelOptions& options, double bytes_per_s);

// Checks the options; errors read "scheduling.jobs.<field>: ...".
Status ValidateJobModelOptions(const JobModelOptions& options);

}  // namespace aifabric
