#include "workload/inference_iteration.h"

#include <algorithm>
#include <cassert>

namespace aifabric {
namespace {

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

KernelCost Times(KernelCost c, int32_t k) {
  c.flops *= k;
  c.bytes *= k;
  return c;
}

// Adds the per-rank nodes of one graph, keeping for every rank the node the
// next one waits for.
class StageEmitter {
 public:
  StageEmitter(JobGraphBuilder& b, const InferenceGpu& gpu) : b_(b), gpu_(gpu) {}

  // A compute node on every rank of `gpus`, each after the rank's `last`.
  void Compute(const std::vector<GpuId>& gpus, std::vector<JobNodeIndex>& last, const KernelCost& cost,
               uint32_t label) {
    const Time duration = RooflineTime(cost, gpu_);
    for (size_t r = 0; r < gpus.size(); ++r) {
      const JobNodeIndex n = b_.AddCompute(gpus[r], duration, cost.flops, label);
      b_.AddEdge(last[r], n);
      last[r] = n;
    }
  }

  // A collective over `gpus` after every rank's `last`; it becomes every
  // rank's `last`. Skipped for one GPU.
  void Collective(const std::vector<GpuId>& gpus, std::vector<JobNodeIndex>& last, CollectiveOp op,
                  CollectiveAlgorithm algorithm, uint64_t bytes, CommDimension dimension, int32_t layers,
                  uint32_t label) {
    if (gpus.size() < 2 || bytes == 0) return;
    const JobNodeIndex c = b_.AddCollective(op, b_.AddGroup(gpus), bytes, dimension, label, algorithm);
    if (layers > 1) b_.SetFold(c, static_cast<uint32_t>(layers));
    for (JobNodeIndex& l : last) {
      b_.AddEdge(l, c);
      l = c;
    }
  }

 private:
  JobGraphBuilder& b_;
  const InferenceGpu& gpu_;
};

}  // namespace

ReplicaPlacement PlaceReplica(const InferenceModel& model, int32_t tp, int32_t pp, GpuId first_gpu, int32_t index) {
  ReplicaPlacement p;
  const GpuId base = first_gpu + index * tp * pp;
  int32_t layer = 0;
  for (int32_t s = 0; s < pp; ++s) {
    std::vector<GpuId> gpus(static_cast<size_t>(tp));
    for (int32_t r = 0; r < tp; ++r) gpus[static_cast<size_t>(r)] = base + s * tp + r;
    p.stages.push_back(std::move(gpus));
    const int32_t count = model.layers / pp + (s < model.layers % pp ? 1 : 0);
    p.first_layer.push_back(layer);
    p.layer_count.push_back(count);
    layer += count;
  }
  return p;
}

JobGraph BuildIterationGraph(const InferenceModel& model, const InferenceGpu& gpu, const ReplicaPlacement& replica,
                             const BatchWork& batch, const IterationGraphOptions& options) {
  assert(batch.tokens > 0 && options.layers_per_block >= 1);
  JobGraphBuilder b;
  StageEmitter e(b, gpu);
  const int32_t tp = replica.tp();
  const uint64_t activation = batch.tokens * static_cast<uint64_t>(model.hidden) * static_cast<uint64_t>(model.dtype_bytes);
  const uint64_t a2a = CeilDiv(batch.tokens, static_cast<uint64_t>(tp)) * static_cast<uint64_t>(model.top_k) *
                       static_cast<uint64_t>(model.hidden) * static_cast<uint64_t>(model.dtype_bytes);
  const KernelCost attention = AttentionCost(model, batch, tp);
  const KernelCost mlp = MlpCost(model, batch, tp);
  const KernelCost moe = model.experts > 0 ? MoeCost(model, batch, tp) : KernelCost{};
  const uint32_t l_attn = b.AddLabel("attention"), l_mlp = b.AddLabel("mlp"), l_moe = b.AddLabel("experts");
  const uint32_t l_ar = b.AddLabel("tp all-reduce"), l_dispatch = b.AddLabel("moe dispatch"),
                 l_combine = b.AddLabel("moe combine"), l_gather = b.AddLabel("tp all-gather"),
                 l_pp = b.AddLabel("pp activations"), l_head = b.AddLabel("lm head");

  std::vector<JobNodeIndex> last(static_cast<size_t>(tp), kNoJobNode);
  for (int32_t s = 0; s < replica.pp(); ++s) {
    const std::vector<GpuId>& gpus = replica.stages[static_cast<size_t>(s)];
    if (s > 0) {
      // Activations from the previous stage, rank to rank, then gathered.
      const std::vector<GpuId>& from = replica.stages[static_cast<size_t>(s - 1)];
      const uint64_t share = CeilDiv(activation, static_cast<uint64_t>(tp));
      for (size_t r = 0; r < gpus.size(); ++r) {
        const JobNodeIndex x = b.AddTransfer(from[r], gpus[r], share, CommDimension::kPipeline, l_pp);
        b.AddEdge(last[r], x);
        last[r] = x;
      }
      e.Collective(gpus, last, CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, activation,
                   CommDimension::kTensor, 1, l_gather);
    }
    const int32_t end = replica.first_layer[static_cast<size_t>(s)] + replica.layer_count[static_cast<size_t>(s)];
    for (int32_t layer = replica.first_layer[static_cast<size_t>(s)]; layer < end;) {
      const bool moe_layer = model.is_moe_layer(layer);
      int32_t k = 1;
      while (k < options.layers_per_block && layer + k < end && model.is_moe_layer(layer + k) == moe_layer) ++k;
      const uint64_t kk = static_cast<uint64_t>(k);
      e.Compute(gpus, last, Times(attention, k), l_attn);
      e.Collective(gpus, last, CollectiveOp::kAllReduce, options.tp_algorithm, kk * activation, CommDimension::kTensor,
                   k, l_ar);
      if (!moe_layer) {
        e.Compute(gpus, last, Times(mlp, k), l_mlp);
        e.Collective(gpus, last, CollectiveOp::kAllReduce, options.tp_algorithm, kk * activation,
                     CommDimension::kTensor, k, l_ar);
      } else {
        e.Collective(gpus, last, CollectiveOp::kAllToAll, CollectiveAlgorithm::kPairwise, kk * a2a,
                     CommDimension::kExpert, k, l_dispatch);
        e.Compute(gpus, last, Times(moe, k), l_moe);
        e.Collective(gpus, last, CollectiveOp::kAllToAll, CollectiveAlgorithm::kPairwise, kk * a2a,
                     CommDimension::kExpert, k, l_combine);
        e.Collective(gpus, last, CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, kk * activation,
                     CommDimension::kTensor, k, l_gather);
      }
      layer += k;
    }
    if (s + 1 == replica.pp() && batch.logits > 0) {
      e.Compute(gpus, last, LmHeadCost(model, batch, tp), l_head);
    }
  }
  Result<JobGraph> graph = std::move(b).Build();
  assert(graph.ok());
  return std::move(graph).value();
}

JobGraph BuildKvTransferGraph(const InferenceModel& model, const ReplicaPlacement& from, const ReplicaPlacement& to,
                              uint64_t tokens) {
  assert(from.tp() == to.tp() && from.pp() == to.pp());
  JobGraphBuilder b;
  const uint32_t label = b.AddLabel("kv cache");
  for (size_t s = 0; s < from.stages.size(); ++s) {
    const uint64_t bytes = tokens * KvBytesPerTokenPerRank(model, from.layer_count[s], from.tp());
    for (size_t r = 0; r < from.stages[s].size(); ++r) {
      b.AddTransfer(from.stages[s][r], to.stages[s][r], bytes, CommDimension::kOther, label);
    }
  }
  Result<JobGraph> graph = std::move(b).Build();
  assert(graph.ok());
  return std::move(graph).value();
}

CollectiveProtocol PickAllReduceProtocol(uint64_t bytes, int32_t ranks, DataRate rate) {
  CollectiveProtocol best = CollectiveProtocol::kSimple;
  Time best_time = Time::Infinite();
  for (CollectiveProtocol p : {CollectiveProtocol::kLl, CollectiveProtocol::kLl128, CollectiveProtocol::kSimple}) {
    const uint64_t slice = CeilDiv(bytes, static_cast<uint64_t>(std::max(ranks, 1)));
    const Time t = (GetProtocolSpec(p).step_latency + rate.TransmitTime(WireBytes(p, slice))) *
                   (2 * static_cast<int64_t>(std::max(ranks - 1, 1)));
    if (t < best_time) {
      best = p;
      best_time = t;
    }
  }
  return best;
}

}  // namespace aifabric
