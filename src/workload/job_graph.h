// JobGraph is one job's work as a DAG over GPUs: compute kernels on one
// GPU, collectives over a group of GPUs, and point-to-point transfers
// between two GPUs; edges are dependencies. Generators build it (a training
// step, inference serving, a Chakra execution trace); JobExecutor runs it
// on any NetworkModel whose endpoints are GPU ids (flow/gpu_network.h), so
// every fidelity runs the same graph. Immutable once built; safe to share
// between threads.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "fabric/cluster_layout.h"
#include "workload/collective_algorithms.h"
#include "workload/collective_op.h"

namespace aifabric {

using JobNodeIndex = uint32_t;
constexpr JobNodeIndex kNoJobNode = 0xffffffffu;

enum class JobNodeKind : uint8_t {
  kCompute,     // a kernel on one GPU: `duration` (GPUs run one kernel at a time)
  kCollective,  // an NCCL-style collective over `group`
  kTransfer,    // `bytes` from `gpu` to `peer` (pipeline activations, KV cache, ...)
};

// What a communication node is for: the breakdown of a step's exposed
// communication is per dimension.
enum class CommDimension : uint8_t { kNone, kTensor, kPipeline, kData, kExpert, kContext, kStorage, kOther };
std::string_view CommDimensionName(CommDimension dimension);  // "none", "tensor", "pipeline", ...
constexpr size_t kCommDimensionCount = static_cast<size_t>(CommDimension::kOther) + 1;

struct JobNode {
  JobNodeKind kind = JobNodeKind::kCompute;
  CommDimension dimension = CommDimension::kNone;
  CollectiveOp op = CollectiveOp::kAllReduce;                     // collective
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kDefault;  // collective
  GpuId gpu = -1;          // compute: the GPU; transfer: the source
  GpuId peer = -1;         // transfer: the destination
  uint32_t group = 0;      // collective: index into JobGraph::group()
  uint32_t label = 0;      // index into JobGraph::label() (a name for traces)
  uint64_t bytes = 0;      // collective: S as nccl-tests counts it; transfer: payload
  int16_t priority = -1;   // traffic class 0..7 of its transfers; -1: the executor's default
  Time duration;           // compute
  double flops = 0;        // compute: useful model FLOPs (for MFU); 0 if not counted
  // collective: the node stands for `fold` back-to-back collectives of
  // bytes / fold each (k layers simulated as one): it runs as one
  // collective of `bytes` whose step latency and pipeline chunk are `fold`
  // times one's, so it has one's steps and chunks, each `fold` times
  // longer.
  uint32_t fold = 1;
};

class JobGraph {
 public:
  JobGraph() = default;
  size_t size() const { return nodes_.size(); }
  const JobNode& node(JobNodeIndex i) const { return nodes_[i]; }
  std::span<const JobNodeIndex> successors(JobNodeIndex i) const {
    return {successors_.data() + offsets_[i], successors_.data() + offsets_[i + 1]};
  }
  uint32_t in_degree(JobNodeIndex i) const { return in_degree_[i]; }
  // A collective's GPUs, in rank order (server-major, as the collective
  // algorithms expect).
  const std::vector<GpuId>& group(uint32_t g) const { return groups_[g]; }
  size_t group_count() const { return groups_.size(); }
  const std::string& label(uint32_t l) const { return labels_[l]; }
  // The GPUs any node touches (1 + the highest GPU id).
  int32_t gpu_count() const { return gpu_count_; }

 private:
  friend class JobGraphBuilder;
  std::vector<JobNode> nodes_;
  std::vector<uint32_t> offsets_{0};
  std::vector<JobNodeIndex> successors_;
  std::vector<uint32_t> in_degree_;
  std::vector<std::vector<GpuId>> groups_;
  std::vector<std::string> labels_;
  int32_t gpu_count_ = 0;
};

// Collects nodes, groups and edges; Build checks and freezes them. Equal
// groups and labels are stored once. Not thread-safe.
class JobGraphBuilder {
 public:
  JobGraphBuilder() = default;
  // Starts from an existing graph (its nodes keep their indices), to add
  // work beside it (e.g. a checkpoint during a training step).
  explicit JobGraphBuilder(const JobGraph& base);
  // REQUIRES: gpus non-empty, no GPU twice.
  uint32_t AddGroup(std::vector<GpuId> gpus);
  uint32_t AddLabel(const std::string& name);

  JobNodeIndex AddCompute(GpuId gpu, Time duration, double flops, uint32_t label);
  JobNodeIndex AddCollective(CollectiveOp op, uint32_t group, uint64_t bytes, CommDimension dimension,
                             uint32_t label, CollectiveAlgorithm algorithm = CollectiveAlgorithm::kDefault);
  JobNodeIndex AddTransfer(GpuId src, GpuId dst, uint64_t bytes, CommDimension dimension, uint32_t label);
  // REQUIRES: `collective` is a collective node of this builder; fold >= 1.
  void SetFold(JobNodeIndex collective, uint32_t fold);
  // Sets the traffic class (0..7) of a communication node's transfers.
  void SetPriority(JobNodeIndex node, uint8_t priority) { nodes_[node].priority = priority; }
  // `before` finishes before `after` starts; kNoJobNode for either is ignored.
  void AddEdge(JobNodeIndex before, JobNodeIndex after);

  size_t size() const { return nodes_.size(); }

  // Checks GPU ids (>= 0), groups, transfers (src != dst), and that the
  // graph is acyclic; errors name the node and its label.
  Result<JobGraph> Build() &&;

 private:
  std::vector<JobNode> nodes_;
  std::vector<std::pair<JobNodeIndex, JobNodeIndex>> edges_;
  std::vector<std::vector<GpuId>> groups_;
  std::vector<std::string> labels_;
};

}  // namespace aifabric
