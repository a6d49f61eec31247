// CollectiveDag is a collective compiled to a graph of transfers and compute
// steps over abstract ranks, independent of any network model: the packet
// model runs it today through CollectiveExecutor, a flow-level model will run
// the same graphs later. Ranks 0..num_gpu_ranks()-1 are GPUs; ranks
// num_gpu_ranks().. are in-network reduction units (one NVSwitch per server
// for NVLS); the caller maps every rank to a fabric node. An immutable value
// built by CollectiveDagBuilder; thread-compatible.
//
// Storage is compact: one 48-byte record per node in a vector, and the
// dependency edges in compressed-sparse-row form (successors of node i are
// successors_[offsets_[i] .. offsets_[i+1])), plus each node's in-degree.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/time.h"

namespace aifabric {

using CollectiveRank = int32_t;
using DagNodeIndex = uint32_t;
constexpr DagNodeIndex kNoDagNode = 0xffffffffu;

enum class DagNodeKind : uint8_t {
  kTransfer,  // move bytes from rank src to rank dst
  kReduce,    // combine `bytes` of received data into a local buffer at rank src
  kCopy,      // copy `bytes` locally at rank src
};

// Which part of an algorithm a node belongs to (for traces and tests).
enum class DagPhase : uint8_t {
  kReduceScatter,   // ring reduce-scatter (also intra-server phase 1 of hierarchical)
  kAllGather,       // ring all-gather (also intra-server phase 3 of hierarchical)
  kInterServer,     // hierarchical / NVLS phase 2: allreduce across servers
  kTreeReduce,      // tree: reduce up toward the root
  kTreeBroadcast,   // tree: broadcast down from the root
  kHalving,         // recursive halving (reduce-scatter part)
  kDoubling,        // recursive doubling (all-gather part)
  kNvlsReduce,      // NVLS: GPU -> switch, in-switch reduction, switch -> GPU slice
  kNvlsMulticast,   // NVLS: GPU -> switch, switch multicasts to every GPU
  kAllToAll,
  kChainBroadcast,  // broadcast down a chain from the root
  kChainReduce,     // reduce along a chain toward the root
  kSendRecv,
};

struct DagNode {
  DagNodeKind kind = DagNodeKind::kTransfer;
  DagPhase phase = DagPhase::kReduceScatter;
  uint16_t channel = 0;     // transfers: the channel (connection set) it uses
  uint32_t step = 0;        // algorithm step within the phase
  uint32_t chunk = 0;       // pipeline chunk index within the channel
  CollectiveRank src = 0;   // transfer: sender; compute: the rank computing
  CollectiveRank dst = -1;  // transfer: receiver; compute: -1
  uint64_t bytes = 0;       // payload (user data) bytes moved or reduced
  uint64_t wire_bytes = 0;  // transfer: bytes the protocol puts on the wire; compute: = bytes
  Time latency;             // fixed delay before the node starts (protocol per-step overhead)

  bool is_transfer() const { return kind == DagNodeKind::kTransfer; }
};

class CollectiveDag {
 public:
  CollectiveDag() = default;

  int32_t num_gpu_ranks() const { return num_gpu_ranks_; }
  int32_t num_switch_ranks() const { return num_switch_ranks_; }
  int32_t num_ranks() const { return num_gpu_ranks_ + num_switch_ranks_; }
  bool IsSwitchRank(CollectiveRank r) const { return r >= num_gpu_ranks_; }
  // Fixed cost once per collective, before its first step (NCCL's base
  // latency: launch and setup).
  Time base_latency() const { return base_latency_; }

  size_t size() const { return nodes_.size(); }
  const DagNode& node(DagNodeIndex i) const { return nodes_[i]; }
  const std::vector<DagNode>& nodes() const { return nodes_; }
  std::span<const DagNodeIndex> successors(DagNodeIndex i) const {
    return {successors_.data() + offsets_[i], successors_.data() + offsets_[i + 1]};
  }
  uint32_t in_degree(DagNodeIndex i) const { return in_degree_[i]; }
  size_t num_edges() const { return successors_.size(); }

  // Payload bytes each rank sends (index = rank, switches included), the
  // figure NCCL's bus-bandwidth accounting is about; wire bytes include the
  // protocol's flag overhead; bytes received likewise.
  std::vector<uint64_t> BytesSentPerRank() const;
  std::vector<uint64_t> WireBytesSentPerRank() const;
  std::vector<uint64_t> BytesReceivedPerRank() const;
  size_t CountTransfers() const;
  // The most transfers on any dependency path: the number of sequential
  // network steps (2(n-1) per chunk for a ring AllReduce).
  uint32_t LongestTransferChain() const;

 private:
  friend class CollectiveDagBuilder;
  // Sums, over transfers, pick(node) = (rank, bytes) into a per-rank vector.
  template <typename Pick>
  std::vector<uint64_t> SumPerRank(Pick pick) const;
  // Builds the CSR arrays for nodes_. REQUIRES: edges join existing nodes.
  void SetEdges(const std::vector<std::pair<DagNodeIndex, DagNodeIndex>>& edges);

  int32_t num_gpu_ranks_ = 0;
  int32_t num_switch_ranks_ = 0;
  Time base_latency_;
  std::vector<DagNode> nodes_;
  std::vector<uint32_t> offsets_{0};  // size() + 1 entries
  std::vector<DagNodeIndex> successors_;
  std::vector<uint32_t> in_degree_;
};

// Collects nodes and edges, then checks and freezes them into a DAG.
// Connections are ordered and bounded: AddTransfer makes each transfer
// depend on the transfer `connection_window` places earlier with the same
// (src, dst, channel), so a connection carries at most that many transfers
// at once, in the order the algorithm issues them — as NCCL's per-peer,
// per-channel connections do with their NCCL_STEPS (8) buffer slots. A
// window of 1 sends one transfer at a time. Not thread-safe.
class CollectiveDagBuilder {
 public:
  // REQUIRES: num_gpu_ranks >= 1, num_switch_ranks >= 0, connection_window >= 1.
  CollectiveDagBuilder(int32_t num_gpu_ranks, int32_t num_switch_ranks, uint32_t connection_window = 1);

  DagNodeIndex AddTransfer(DagNode node);
  DagNodeIndex AddCompute(DagNodeKind kind, DagPhase phase, CollectiveRank rank, uint64_t bytes,
                          uint32_t step, uint32_t chunk);
  // `before` must finish before `after` starts. kNoDagNode for either is
  // ignored, so "depends on the previous step, if any" needs no branch.
  void AddEdge(DagNodeIndex before, DagNodeIndex after);

  size_t size() const { return nodes_.size(); }
  const DagNode& node(DagNodeIndex i) const { return nodes_[i]; }
  void set_base_latency(Time latency) { base_latency_ = latency; }

  // Checks ranks are in range (transfers: src != dst), every edge joins
  // existing nodes, and the graph is acyclic; then builds the CSR form,
  // with the nodes renumbered into a topological order if an edge pointed
  // backward (node indices are kept when every edge points forward, as it
  // does for every algorithm builder here).
  Result<CollectiveDag> Build() &&;

 private:
  const int32_t num_gpu_ranks_;
  const int32_t num_switch_ranks_;
  std::vector<DagNode> nodes_;
  std::vector<std::pair<DagNodeIndex, DagNodeIndex>> edges_;
  const uint32_t connection_window_;
  Time base_latency_;
  // Per connection, its transfers so far in issue order.
  std::unordered_map<uint64_t, std::vector<DagNodeIndex>> on_connection_;
};

}  // namespace aifabric
