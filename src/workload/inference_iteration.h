// Builders of the JobGraphs inference serving runs: one batch iteration of
// a model replica (per stage, per layer: attention, TP all-reduce, MLP or
// MoE experts with their all-to-alls, TP all-reduce; activations between
// pipeline stages; the LM head), and one request's KV-cache hand-off from
// a prefill replica to a decode replica. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "core/data_rate.h"
#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "workload/collective_algorithms.h"
#include "workload/collective_protocol.h"
#include "workload/inference_model.h"
#include "workload/job_graph.h"

namespace aifabric {

// Where one replica lives: per pipeline stage, its tensor-parallel GPUs (in
// server order) and its layers [first_layer, first_layer + layer_count).
struct ReplicaPlacement {
  std::vector<std::vector<GpuId>> stages;
  std::vector<int32_t> first_layer;
  std::vector<int32_t> layer_count;
  int32_t tp() const { return static_cast<int32_t>(stages.front().size()); }
  int32_t pp() const { return static_cast<int32_t>(stages.size()); }
};

// Replica `index` of `tp` x `pp` GPUs starting at GPU `first_gpu` +
// index * tp * pp; stage s takes GPUs [.. + s * tp, .. + (s + 1) * tp).
// Layers are split evenly, the first layers % pp stages taking one more.
ReplicaPlacement PlaceReplica(const InferenceModel& model, int32_t tp, int32_t pp, GpuId first_gpu, int32_t index);

struct IterationGraphOptions {
  int32_t layers_per_block = 1;
  CollectiveAlgorithm tp_algorithm = CollectiveAlgorithm::kRing;
};

// One iteration of `batch` on `replica`. Per stage, per block of up to
// layers_per_block consecutive layers of one kind (k layers), on every TP
// rank: attention (k x AttentionCost), all-reduce of k * tokens * hidden *
// dtype bytes; dense: MLP (k x MlpCost), all-reduce again; MoE:
// all-to-all dispatch (send buffer k * ceil(tokens / tp) * top_k * hidden *
// dtype per rank), experts (k x MoeCost), all-to-all combine (the same),
// all-gather of k * tokens * hidden * dtype (every rank holds every token
// again). Collectives of a block of k > 1 layers are folded (JobNode::fold
// = k: k times one layer's bytes, step latency and chunk). Between stages, rank r sends ceil(tokens *
// hidden * dtype / tp) to rank r of the next stage, which all-gathers
// tokens * hidden * dtype (Megatron's scatter/gather). The last stage ends
// with the LM head. With tp = 1 there are no collectives.
// REQUIRES: batch.tokens > 0, a valid model, heads and experts divisible by tp.
JobGraph BuildIterationGraph(const InferenceModel& model, const InferenceGpu& gpu, const ReplicaPlacement& replica,
                             const BatchWork& batch, const IterationGraphOptions& options);

// The KV cache of a request with `tokens` cached tokens, from each rank of
// each stage of `from` to the same rank and stage of `to` (same tp and pp):
// tokens * KvBytesPerTokenPerRank(stage layers) bytes each, all at once.
JobGraph BuildKvTransferGraph(const InferenceModel& model, const ReplicaPlacement& from, const ReplicaPlacement& to,
                              uint64_t tokens);

// The protocol NCCL's tuner would pick for a ring all-reduce of `bytes` over
// `ranks` GPUs on links of `rate`: the lowest 2(n-1) (step latency +
// wire bytes of bytes / n / rate) among Simple, LL and LL128.
CollectiveProtocol PickAllReduceProtocol(uint64_t bytes, int32_t ranks, DataRate rate);

}  // namespace aifabric
