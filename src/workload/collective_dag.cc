#include "workload/collective_dag.h"

#include "workload/dependency_csr.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace aifabric {
namespace {

uint64_t ConnectionKey(const DagNode& n) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(n.src)) << 40) ^
         (static_cast<uint64_t>(static_cast<uint32_t>(n.dst)) << 16) ^ n.channel;
}

std::string DagNodeError(DagNodeIndex i, const std::string& what) {
  std::string message = "collective DAG node ";
  message += std::to_string(i);
  message += ": ";
  message += what;
  return message;
}

}  // namespace

template <typename Pick>
std::vector<uint64_t> CollectiveDag::SumPerRank(Pick pick) const {
  std::vector<uint64_t> sum(static_cast<size_t>(num_ranks()), 0);
  for (const DagNode& n : nodes_) {
    if (n.is_transfer()) {
      const auto [rank, bytes] = pick(n);
      sum[static_cast<size_t>(rank)] += bytes;
    }
  }
  return sum;
}

std::vector<uint64_t> CollectiveDag::BytesSentPerRank() const {
  return SumPerRank([](const DagNode& n) { return std::pair(n.src, n.bytes); });
}

std::vector<uint64_t> CollectiveDag::WireBytesSentPerRank() const {
  return SumPerRank([](const DagNode& n) { return std::pair(n.src, n.wire_bytes); });
}

std::vector<uint64_t> CollectiveDag::BytesReceivedPerRank() const {
  return SumPerRank([](const DagNode& n) { return std::pair(n.dst, n.bytes); });
}

size_t CollectiveDag::CountTransfers() const {
  return static_cast<size_t>(
      std::count_if(nodes_.begin(), nodes_.end(), [](const DagNode& n) { return n.is_transfer(); }));
}

uint32_t CollectiveDag::LongestTransferChain() const {
  // Nodes are stored in a topological order (Build checks every edge points
  // forward after sorting), so one forward pass suffices.
  std::vector<uint32_t> depth(nodes_.size(), 0);
  uint32_t longest = 0;
  for (DagNodeIndex i = 0; i < nodes_.size(); ++i) {
    const uint32_t here = depth[i] + (nodes_[i].is_transfer() ? 1 : 0);
    longest = std::max(longest, here);
    for (DagNodeIndex s : successors(i)) depth[s] = std::max(depth[s], here);
  }
  return longest;
}

CollectiveDagBuilder::CollectiveDagBuilder(int32_t num_gpu_ranks, int32_t num_switch_ranks,
                                           uint32_t connection_window)
    : num_gpu_ranks_(num_gpu_ranks), num_switch_ranks_(num_switch_ranks), connection_window_(connection_window) {
  assert(num_gpu_ranks >= 1 && num_switch_ranks >= 0 && connection_window >= 1);
}

DagNodeIndex CollectiveDagBuilder::AddTransfer(DagNode node) {
  node.kind = DagNodeKind::kTransfer;
  const DagNodeIndex index = static_cast<DagNodeIndex>(nodes_.size());
  nodes_.push_back(node);
  std::vector<DagNodeIndex>& issued = on_connection_[ConnectionKey(node)];
  if (issued.size() >= connection_window_) AddEdge(issued[issued.size() - connection_window_], index);
  issued.push_back(index);
  return index;
}

DagNodeIndex CollectiveDagBuilder::AddCompute(DagNodeKind kind, DagPhase phase, CollectiveRank rank,
                                              uint64_t bytes, uint32_t step, uint32_t chunk) {
  assert(kind != DagNodeKind::kTransfer);
  DagNode node;
  node.kind = kind;
  node.phase = phase;
  node.src = rank;
  node.bytes = bytes;
  node.wire_bytes = bytes;
  node.step = step;
  node.chunk = chunk;
  nodes_.push_back(node);
  return static_cast<DagNodeIndex>(nodes_.size() - 1);
}

void CollectiveDagBuilder::AddEdge(DagNodeIndex before, DagNodeIndex after) {
  if (before == kNoDagNode || after == kNoDagNode) return;
  edges_.emplace_back(before, after);
}

void CollectiveDag::SetEdges(const std::vector<std::pair<DagNodeIndex, DagNodeIndex>>& edges) {
  DependencyCsr csr;
  csr.Assign(nodes_.size(), edges);
  offsets_ = std::move(csr.offsets);
  successors_ = std::move(csr.successors);
  in_degree_ = std::move(csr.in_degree);
}

Result<CollectiveDag> CollectiveDagBuilder::Build() && {
  const int32_t num_ranks = num_gpu_ranks_ + num_switch_ranks_;
  const size_t count = nodes_.size();
  for (DagNodeIndex i = 0; i < count; ++i) {
    const DagNode& n = nodes_[i];
    if (n.src < 0 || n.src >= num_ranks) return Error{DagNodeError(i, "rank out of range")};
    if (n.is_transfer()) {
      if (n.dst < 0 || n.dst >= num_ranks) return Error{DagNodeError(i, "destination rank out of range")};
      if (n.dst == n.src) return Error{DagNodeError(i, "transfer to itself")};
    }
  }
  bool all_forward = true;
  for (auto [from, to] : edges_) {
    if (from >= count || to >= count) return Error{DagNodeError(std::max(from, to), "edge to a missing node")};
    if (from == to) return Error{DagNodeError(from, "depends on itself")};
    all_forward = all_forward && from < to;
  }
  CollectiveDag dag;
  dag.num_gpu_ranks_ = num_gpu_ranks_;
  dag.num_switch_ranks_ = num_switch_ranks_;
  dag.base_latency_ = base_latency_;
  dag.nodes_ = std::move(nodes_);
  dag.SetEdges(edges_);
  if (all_forward) return dag;  // acyclic by construction, already in topological order

  // Kahn's algorithm: acyclic iff every node can be ordered. The order found
  // becomes the storage order, so readers can make one forward pass.
  DependencyCsr csr;
  csr.Assign(count, edges_);
  const std::vector<DagNodeIndex> order = csr.TopologicalOrder();
  std::vector<uint32_t> remaining(count, 1);
  for (DagNodeIndex i : order) remaining[i] = 0;
  if (order.size() != count) {
    const auto it = std::find_if(remaining.begin(), remaining.end(), [](uint32_t r) { return r > 0; });
    return Error{DagNodeError(static_cast<DagNodeIndex>(it - remaining.begin()), "is on a dependency cycle")};
  }
  std::vector<DagNodeIndex> new_index(count);
  for (DagNodeIndex i = 0; i < count; ++i) new_index[order[i]] = i;
  std::vector<DagNode> nodes(count);
  for (DagNodeIndex i = 0; i < count; ++i) nodes[new_index[i]] = dag.nodes_[i];
  dag.nodes_ = std::move(nodes);
  for (auto& [from, to] : edges_) {
    from = new_index[from];
    to = new_index[to];
  }
  dag.SetEdges(edges_);
  return dag;
}

}  // namespace aifabric
