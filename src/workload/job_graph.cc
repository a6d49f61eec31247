#include "workload/job_graph.h"

#include <algorithm>
#include <cassert>
#include <set>

#include "workload/dependency_csr.h"

namespace aifabric {
namespace {

std::string GraphNodeError(const std::vector<JobNode>& nodes, const std::vector<std::string>& labels, JobNodeIndex i,
                      const std::string& what) {
  std::string message = "job graph node ";
  message += std::to_string(i);
  if (i < nodes.size() && nodes[i].label < labels.size() && !labels[nodes[i].label].empty()) {
    message += " (";
    message += labels[nodes[i].label];
    message += ")";
  }
  message += ": ";
  message += what;
  return message;
}

}  // namespace

std::string_view CommDimensionName(CommDimension dimension) {
  switch (dimension) {
    case CommDimension::kNone: return "none";
    case CommDimension::kTensor: return "tensor";
    case CommDimension::kPipeline: return "pipeline";
    case CommDimension::kData: return "data";
    case CommDimension::kExpert: return "expert";
    case CommDimension::kContext: return "context";
    case CommDimension::kStorage: return "storage";
    case CommDimension::kOther: return "other";
  }
  return "other";
}

JobGraphBuilder::JobGraphBuilder(const JobGraph& base)
    : nodes_(base.nodes_), groups_(base.groups_), labels_(base.labels_) {
  for (JobNodeIndex i = 0; i < base.size(); ++i) {
    for (JobNodeIndex s : base.successors(i)) edges_.emplace_back(i, s);
  }
}

uint32_t JobGraphBuilder::AddGroup(std::vector<GpuId> gpus) {
  const auto it = std::find(groups_.begin(), groups_.end(), gpus);
  if (it != groups_.end()) return static_cast<uint32_t>(it - groups_.begin());
  groups_.push_back(std::move(gpus));
  return static_cast<uint32_t>(groups_.size() - 1);
}

uint32_t JobGraphBuilder::AddLabel(const std::string& name) {
  const auto it = std::find(labels_.begin(), labels_.end(), name);
  if (it != labels_.end()) return static_cast<uint32_t>(it - labels_.begin());
  labels_.push_back(name);
  return static_cast<uint32_t>(labels_.size() - 1);
}

JobNodeIndex JobGraphBuilder::AddCompute(GpuId gpu, Time duration, double flops, uint32_t label) {
  JobNode n;
  n.kind = JobNodeKind::kCompute;
  n.gpu = gpu;
  n.duration = duration;
  n.flops = flops;
  n.label = label;
  nodes_.push_back(n);
  return static_cast<JobNodeIndex>(nodes_.size() - 1);
}

JobNodeIndex JobGraphBuilder::AddCollective(CollectiveOp op, uint32_t group, uint64_t bytes, CommDimension dimension,
                                            uint32_t label, CollectiveAlgorithm algorithm) {
  JobNode n;
  n.kind = JobNodeKind::kCollective;
  n.op = op;
  n.algorithm = algorithm;
  n.group = group;
  n.bytes = bytes;
  n.dimension = dimension;
  n.label = label;
  nodes_.push_back(n);
  return static_cast<JobNodeIndex>(nodes_.size() - 1);
}

JobNodeIndex JobGraphBuilder::AddTransfer(GpuId src, GpuId dst, uint64_t bytes, CommDimension dimension,
                                          uint32_t label) {
  JobNode n;
  n.kind = JobNodeKind::kTransfer;
  n.gpu = src;
  n.peer = dst;
  n.bytes = bytes;
  n.dimension = dimension;
  n.label = label;
  nodes_.push_back(n);
  return static_cast<JobNodeIndex>(nodes_.size() - 1);
}

void JobGraphBuilder::SetFold(JobNodeIndex collective, uint32_t fold) {
  assert(collective < nodes_.size() && nodes_[collective].kind == JobNodeKind::kCollective && fold >= 1);
  nodes_[collective].fold = fold;
}

void JobGraphBuilder::AddEdge(JobNodeIndex before, JobNodeIndex after) {
  if (before == kNoJobNode || after == kNoJobNode) return;
  edges_.emplace_back(before, after);
}

Result<JobGraph> JobGraphBuilder::Build() && {
  const size_t count = nodes_.size();
  int32_t gpus = 0;
  for (const std::vector<GpuId>& g : groups_) {
    if (g.empty()) return Error{"job graph: an empty GPU group"};
    if (std::set<GpuId>(g.begin(), g.end()).size() != g.size()) return Error{"job graph: a GPU twice in a group"};
    for (GpuId id : g) {
      if (id < 0) return Error{"job graph: a group has a negative GPU id"};
      gpus = std::max(gpus, id + 1);
    }
  }
  for (JobNodeIndex i = 0; i < count; ++i) {
    const JobNode& n = nodes_[i];
    switch (n.kind) {
      case JobNodeKind::kCompute:
        if (n.gpu < 0) return Error{GraphNodeError(nodes_, labels_, i, "no GPU")};
        if (n.duration < Time::Zero()) return Error{GraphNodeError(nodes_, labels_, i, "negative duration")};
        gpus = std::max(gpus, n.gpu + 1);
        break;
      case JobNodeKind::kCollective:
        if (n.group >= groups_.size()) return Error{GraphNodeError(nodes_, labels_, i, "unknown group")};
        break;
      case JobNodeKind::kTransfer:
        if (n.gpu < 0 || n.peer < 0) return Error{GraphNodeError(nodes_, labels_, i, "no GPU")};
        if (n.gpu == n.peer) return Error{GraphNodeError(nodes_, labels_, i, "transfer to itself")};
        gpus = std::max({gpus, n.gpu + 1, n.peer + 1});
        break;
    }
    if (n.label >= labels_.size() && !(n.label == 0 && labels_.empty())) {
      return Error{GraphNodeError(nodes_, labels_, i, "unknown label")};
    }
  }
  for (auto [from, to] : edges_) {
    if (from >= count || to >= count) return Error{GraphNodeError(nodes_, labels_, std::max(from, to), "edge to a missing node")};
    if (from == to) return Error{GraphNodeError(nodes_, labels_, from, "depends on itself")};
  }
  DependencyCsr csr;
  csr.Assign(count, edges_);
  if (csr.TopologicalOrder().size() != count) return Error{"job graph: a dependency cycle"};
  JobGraph g;
  g.nodes_ = std::move(nodes_);
  g.offsets_ = std::move(csr.offsets);
  g.successors_ = std::move(csr.successors);
  g.in_degree_ = std::move(csr.in_degree);
  g.groups_ = std::move(groups_);
  g.labels_ = std::move(labels_);
  if (g.labels_.empty()) g.labels_.emplace_back();
  g.gpu_count_ = gpus;
  return g;
}

}  // namespace aifabric
