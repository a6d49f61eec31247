// SearchParallelism enumerates the TP x PP x DP (x EP) splits of a training
// job on a cluster, keeps those whose worst stage fits the GPU's HBM
// (training_memory.h), and ranks them by a closed-form step-time estimate.
// The estimate only ranks: the caller simulates the chosen split for the
// real figure. Pure function of its inputs; thread-safe.
//
// Candidates: tp divides gpus_per_server (a TP group stays in a server) and
// the model's heads, KV heads, FFN and expert widths; pp divides gpus / tp
// and is at most the layer count, its stages holding layers / pp each (or,
// when pp does not divide the layers, the first layers % pp stages one more:
// the balanced split); dp = gpus / (tp pp) and must divide global_batch /
// micro_batch; for an MoE model ep divides dp and the expert count (ep = 1
// for dense models).
//
// The estimate (seconds), per stage i with its per-GPU forward FLOPs F_i of
// one micro-batch (model_costs.h, / tp; full recompute adds a forward,
// selective the attention scores' forward), F = peak x efficiency:
//   t_i      = 3 F_i / F + n_tp act_AR / B_nvlink + n_ep a2a / B_ep
//              (TP all-reduces, 2(t-1)/t x b s h dtype each, 4 per layer and
//              2 more with full recompute, plus one each for the embedding
//              and the output layer; EP all-to-alls, (ep-1)/ep x b s h
//              top_k dtype / tp each, 4 per MoE layer: both block the
//              compute stream, as the training step has them)
//   pipeline = (m + pp - 1) max_i t_i          (1F1B: the bubble is (pp-1)/m)
//   pp sends = 2 (pp - 1) x act_pp / B_pp      (the fill and the drain; in the
//              steady state a send hides behind the next micro-batch)
//   dp_i     = max(0, reduce_i - t_bwd_i) + gather_i: the gradient reduction
//              (ring all-reduce 2(n-1)/n G, or with ZeRO >= 1 reduce-scatter
//              (n-1)/n G) overlaps only the last micro-batch's backward, as the
//              training step's buckets do (none without overlap); ZeRO's
//              parameter all-gather (n-1)/n P dtype follows the optimizer;
//              ZeRO-3 adds two all-gathers of P per micro-batch (before
//              forward and backward), exposed where they outlast the compute
//   opt_i    = params sharded by ZeRO x optimizer bytes / HBM bandwidth
//   step     = pipeline + pp sends + max_i (dp_i + opt_i)
// B_nvlink is the GPU's NVLink rate per direction; a DP, EP or PP group
// inside one server (Megatron's rank order: tp x dp <= gpus_per_server for
// DP and EP, tp x dp x pp for PP) moves at it, else at the GPU's NIC rate.
// Limits: no network topology or contention (oversubscription, rails, ECMP
// collisions), no collective latency terms, no interleaved schedule; the
// data-parallel ring is charged at the NIC rate however the fabric routes
// it. Ties are broken toward less model parallelism (tp x pp), then smaller
// tp, pp, ep, so the order is deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "workload/model_catalog.h"
#include "workload/training_memory.h"
#include "workload/training_step.h"

namespace aifabric {

struct SearchCluster {
  int gpus = 0;                   // GPUs the job may use
  int gpus_per_server = 8;
  double nvlink_bytes_per_s = 0;  // per GPU and direction
  double nic_bytes_per_s = 0;     // per GPU and direction (its share of the NICs)
  uint64_t hbm_bytes = 0;         // per GPU
};

// The estimate's terms, seconds (the per-stage ones of the worst stage).
struct StepEstimate {
  double compute_s = 0;     // m x the slowest stage's compute per micro-batch
  double bubble_s = 0;      // (pp - 1) x its whole micro-batch time
  double tensor_s = 0;      // m x its TP all-reduces
  double expert_s = 0;      // m x its EP all-to-alls
  double pipeline_s = 0;    // the exposed pipeline sends
  double data_s = 0;        // the exposed gradient reduction and parameter gather
  double optimizer_s = 0;
  double step_s = 0;        // the sum
};

// One split: its parallelism (tp, pp, dp, ep, stage_layers set; the other
// fields copied from the caller's), memory and estimate.
struct RankedSplit {
  ParallelismSpec parallelism;
  TrainingMemory memory;
  StepEstimate estimate;
};

// The estimate for one split. REQUIRES: `p` is valid for the model and
// `t` (training_step.h's rules); t.compute_efficiency 0 = the calibration's.
StepEstimate EstimateStepTime(const ModelSpec& model, const ParallelismSpec& p, const TrainingSpec& t,
                              const TrainingMemoryOptions& options, const SearchCluster& cluster);

// Every split of `cluster.gpus` that fits, fastest estimate first. `base`
// gives the fields the search keeps (sequence_parallel, bucket, overlap,
// layers_per_node, order). When no split fits, the error names the closest
// miss: "no split of 16 GPUs fits gpt3-175b in 80.0 GB per GPU; the closest,
// TP 8 x PP 2 x DP 1, needs 412.3 GB on stage 0 (weights ..., gradients ...,
// optimizer ..., activations ...)"; when no split is possible at all, why.
Result<std::vector<RankedSplit>> SearchParallelism(const ModelSpec& model, const ParallelismSpec& base,
                                                   const TrainingSpec& t, const TrainingMemoryOptions& options,
                                                   const SearchCluster& cluster);

// "TP 8 x PP 4 x DP 8" (" x EP 8" when ep > 1).
std::string SplitName(const ParallelismSpec& p);

}  // namespace aifabric
