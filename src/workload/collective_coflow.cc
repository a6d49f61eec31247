#include "workload/collective_coflow.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "workload/collective_protocol.h"
#include "workload/collective_topology.h"
#include "workload/traffic_injector.h"

namespace aifabric {
namespace {

constexpr int32_t kMaxAllToAllRanks = 2048;  // 4M edges

// Collects edges (merging repeats of a pair) and the chain's latency.
class CoflowBuilder {
 public:
  CoflowBuilder(const CollectiveOptions& o, const CoflowLinkRates& rates)
      : o_(o),
        rates_(rates),
        spec_(GetProtocolSpec(o.protocol)),
        base_latency_(o.base_latency.value_or(spec_.base_latency)) {}

  // `bytes` of payload from src to dst; `weight` of its steps, each of
  // `step` bytes, on the chain.
  void Add(CollectiveRank src, CollectiveRank dst, uint64_t bytes, double weight, uint64_t step) {
    const bool pxn = o_.pxn && Between(src, dst) && src % o_.ranks_per_server != dst % o_.ranks_per_server;
    if (pxn) {
      // PXN: over NVLink to the sender's server's GPU on the receiver's rail, then across.
      const CollectiveRank relay = src - src % o_.ranks_per_server + dst % o_.ranks_per_server;
      AddHop(src, relay, bytes, weight, step);
      AddHop(relay, dst, bytes, weight, step);
      return;
    }
    AddHop(src, dst, bytes, weight, step);
  }
  // Steps one chunk takes on one connection (a ring AllReduce's 2(m-1); a
  // tree's or a chain's 1): the part of the chain that is the connection's
  // own work, not fill.
  void SetConnectionSteps(double steps) { connection_steps_ = steps; }
  // Every connection of an edge moves at every step (a ring's channels,
  // an all-to-all's): a chain step gets its connection's share of the edge.
  void SetStepsShared() { steps_shared_ = true; }
  void AddReduceChain(uint64_t bytes) { reduce_chain_bytes_ += bytes; }

  CollectiveCoflow Build() && {
    CollectiveCoflow c;
    c.gpu_ranks = o_.ranks;
    c.timing.chain = Time::FromPs(static_cast<int64_t>(chain_ps_ + 0.5));
    c.timing.fill = fill_;
    c.timing.latency = base_latency_;
    c.reduce_chain_bytes = reduce_chain_bytes_;
    // In units of D, a step of edge e takes its step bytes over the bytes
    // moved at the step's rate. Where every connection merged into e (the
    // other channels' between the same pair) moves at every step and every
    // edge of the chain is on the same kind of link, as in a ring inside
    // one server, the chain's connection gets only its share of e's rate
    // (as a step DAG's transfer shares the link with the other channels'
    // steps, which run in lockstep there): its step bytes / the bytes the
    // chain's connection moves over e, times the part of D e's link needs
    // (EdgeDrainShares: 1 on the bottleneck). So a ring on one server whose
    // channels each move one chunk takes its whole D on the chain: chain +
    // D, NCCL's latency + bytes / bandwidth, and the step DAG's time. A
    // chain over NVLink and the network mixed (a ring across servers) has
    // its channels out of step, each held at its own network crossing, and
    // a tree's channels run their rotated chains through a link in turn:
    // there a step has the whole edge, step bytes / e's bytes, which the
    // step DAG bears out (docs/collectives.md).
    const bool shared = steps_shared_ && ChainOnOneKindOfLink();
    const std::vector<double> pace = shared ? EdgeDrainShares() : std::vector<double>(edges_.size(), 1.0);
    double largest_step_share = 0;
    size_t k = 0;
    for (const auto& [pair, e] : edges_) {
      const double p = pace[k++];
      if (e.wire_bytes == 0 || e.weight == 0) continue;
      const double moved = static_cast<double>(shared ? e.chain_wire_bytes : e.wire_bytes);
      c.timing.depth += p * e.chain_step_bytes / moved;
      largest_step_share = std::max(largest_step_share, p * static_cast<double>(e.largest_step) / moved);
    }
    c.timing.fill_depth = std::max(0.0, c.timing.depth - connection_steps_ * largest_step_share);
    c.edges.reserve(edges_.size());
    for (const auto& [pair, e] : edges_) {
      if (e.wire_bytes == 0 && e.weight == 0) continue;
      c.edges.push_back(CollectiveCoflowEdge{pair.first, pair.second, e.wire_bytes, e.weight});
    }
    return c;
  }

 private:
  struct Edge {
    uint64_t wire_bytes = 0;
    uint64_t chain_wire_bytes = 0;  // the chain's connection's part of wire_bytes
    double weight = 0;
    double chain_step_bytes = 0;  // sum of weight x step bytes
    uint64_t largest_step = 0;
  };
  bool Between(CollectiveRank a, CollectiveRank b) const { return a / o_.ranks_per_server != b / o_.ranks_per_server; }
  // Whether every edge of the chain is inside a server, or every one between servers.
  bool ChainOnOneKindOfLink() const {
    bool inside = false, between = false;
    for (const auto& [pair, e] : edges_) {
      if (e.weight == 0) continue;
      (Between(pair.first, pair.second) ? between : inside) = true;
    }
    return !(inside && between);
  }
  // Per edge (in edges_ order), the time its sender needs for all it sends
  // over that edge's link (NVLink inside a server, the network between, at
  // rates_) over the longest such time: 1 on the bottleneck; all 1 without
  // rates.
  std::vector<double> EdgeDrainShares() const {
    std::vector<double> share(edges_.size(), 1.0);
    if (rates_.nvlink.bps() == 0 || rates_.network.bps() == 0) return share;
    std::vector<CollectiveCoflowEdge> edges;
    edges.reserve(edges_.size());
    for (const auto& [pair, e] : edges_) edges.push_back(CollectiveCoflowEdge{pair.first, pair.second, e.wire_bytes, 0});
    const SenderDrains drains(edges, o_.ranks, o_.ranks_per_server, rates_.nvlink, rates_.network);
    const double longest = static_cast<double>(drains.longest().ps());
    if (longest <= 0) return share;
    for (size_t k = 0; k < edges.size(); ++k) {
      share[k] = static_cast<double>(drains.of(edges[k]).ps()) / longest;
    }
    return share;
  }
  Time StepLatency(CollectiveRank src, CollectiveRank dst) const {
    return Between(src, dst) ? o_.net_step_latency.value_or(spec_.net_step_latency)
                             : o_.step_latency.value_or(spec_.step_latency);
  }
  // One transfer's worth of an edge, in the protocol's wire bytes.
  void AddHop(CollectiveRank src, CollectiveRank dst, uint64_t bytes, double weight, uint64_t step) {
    const uint64_t step_wire = EffectiveWireBytes(o_.protocol, step, o_.bus_efficiency);
    Edge& e = edges_[{src, dst}];
    const uint64_t wire = EffectiveWireBytes(o_.protocol, bytes, o_.bus_efficiency);
    e.wire_bytes += wire;
    e.weight += weight;
    if (weight > 0) {
      e.chain_wire_bytes += wire;
      e.chain_step_bytes += weight * static_cast<double>(step_wire);
      e.largest_step = std::max(e.largest_step, step_wire);
      chain_ps_ += weight * static_cast<double>(StepLatency(src, dst).ps());
      fill_ = Max(fill_, StepLatency(src, dst));
    }
  }

  const CollectiveOptions& o_;
  const CoflowLinkRates rates_;
  const ProtocolSpec spec_;
  const Time base_latency_;
  std::map<std::pair<CollectiveRank, CollectiveRank>, Edge> edges_;
  double chain_ps_ = 0;
  Time fill_;  // the longest step on the chain
  double connection_steps_ = 1;
  bool steps_shared_ = false;
  uint64_t reduce_chain_bytes_ = 0;
};

// The chunk each step of the pipeline moves, as BuildCollective cuts `share`.
uint64_t ChunkOf(const CollectiveOptions& o, uint64_t share) {
  if (o.chunk_bytes == 0 || share == 0) return share;
  const uint64_t chunks = std::max<uint64_t>(1, (share + o.chunk_bytes - 1) / o.chunk_bytes);
  return SplitPart(share, chunks, 0);
}

// Ring forms: channel c's ring, every op.
void AddRing(CoflowBuilder& b, const CollectiveOptions& o, int32_t c, uint64_t share) {
  const std::vector<CollectiveRank> ring = ChannelRingOrder(o.ranks, o.ranks_per_server, c);
  const size_t m = ring.size();
  const double dm = static_cast<double>(m);
  const bool chain_channel = c == 0;  // channels run side by side: one chain counts
  const uint64_t chunk = ChunkOf(o, share);
  auto slice = [&](size_t i) { return SplitPart(share, m, i % m); };
  b.SetStepsShared();
  b.SetConnectionSteps(o.op == CollectiveOp::kAllReduce ? 2 * (dm - 1)
                       : (o.op == CollectiveOp::kAllGather || o.op == CollectiveOp::kReduceScatter) ? dm - 1
                                                                                                    : 1);
  switch (o.op) {
    case CollectiveOp::kAllReduce:
      // Reduce-scatter sends all slices but (i+1); all-gather all but (i+2).
      for (size_t i = 0; i < m; ++i) {
        b.Add(ring[i], ring[(i + 1) % m], 2 * share - slice(i + 1) - slice(i + 2),
              chain_channel ? 2 * (dm - 1) / dm : 0, SplitPart(chunk, m, 0));
      }
      if (chain_channel) b.AddReduceChain((m - 1) * SplitPart(chunk, m, 0));
      break;
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
      for (size_t i = 0; i < m; ++i) {
        b.Add(ring[i], ring[(i + 1) % m], share - slice(i + 1), chain_channel ? (dm - 1) / dm : 0,
              SplitPart(chunk, m, 0));
      }
      if (chain_channel && o.op == CollectiveOp::kReduceScatter) b.AddReduceChain((m - 1) * SplitPart(chunk, m, 0));
      break;
    case CollectiveOp::kBroadcast:
    case CollectiveOp::kReduce: {
      // The ring cut into a chain that starts (broadcast) or ends (reduce) at the root.
      size_t at_root = 0;
      while (ring[at_root] != o.root) ++at_root;
      const bool reduce = o.op == CollectiveOp::kReduce;
      const size_t first = reduce ? at_root + 1 : at_root;
      for (size_t p = 0; p + 1 < m; ++p) {
        b.Add(ring[(first + p) % m], ring[(first + p + 1) % m], share, chain_channel ? 1.0 : 0.0, chunk);
      }
      if (chain_channel && reduce) b.AddReduceChain((m - 1) * chunk);
      break;
    }
    case CollectiveOp::kSendRecv:
      // Rank r to rank r+1 (rank order, not the channel's ring), as the DAG.
      for (int32_t r = 0; r < o.ranks; ++r) b.Add(r, (r + 1) % o.ranks, share, chain_channel ? 1.0 / dm : 0, chunk);
      break;
    case CollectiveOp::kAllToAll: break;  // not a ring op (rejected by the checks)
  }
}

// Pairwise all-to-all: channel c's `share` from every rank to every other,
// all at once (one step each, a chunk after another).
void AddAllToAll(CoflowBuilder& b, const CollectiveOptions& o, int32_t c, uint64_t share) {
  const uint64_t chunk = ChunkOf(o, share);
  const double edges = static_cast<double>(o.ranks) * (o.ranks - 1);
  b.SetConnectionSteps(1);
  b.SetStepsShared();
  for (CollectiveRank r = 0; r < o.ranks; ++r) {
    for (int32_t step = 1; step < o.ranks; ++step) {
      // One step on the chain: the average edge's.
      b.Add(r, (r + step) % o.ranks, share, c == 0 ? 1.0 / edges : 0.0, chunk);
    }
  }
}

// NCCL's double binary tree: tree t of channel c carries `share` up
// (reduce) and down (broadcast); servers are chains of their local ranks
// rotated by c, joined at their heads by the tree.
void AddTree(CoflowBuilder& b, const CollectiveOptions& o, int32_t c, int t, uint64_t share) {
  const int32_t L = o.ranks_per_server, M = o.ranks / L;
  const std::vector<int32_t> parent = DoubleBinaryTreeParents(M, t);
  auto rank = [&](int32_t server, int32_t j) { return server * L + (j + c) % L; };
  // Depth of every server's head below the root: parents come before
  // children only by index in one tree, so iterate to a fixed point.
  std::vector<int32_t> depth(static_cast<size_t>(M), -1);
  for (bool changed = true; changed;) {
    changed = false;
    for (int32_t v = 0; v < M; ++v) {
      const int32_t p = parent[static_cast<size_t>(v)];
      const int32_t d = p < 0 ? 0 : (depth[static_cast<size_t>(p)] < 0 ? -1 : depth[static_cast<size_t>(p)] + 1);
      if (d != depth[static_cast<size_t>(v)]) {
        depth[static_cast<size_t>(v)] = d;
        changed = true;
      }
    }
  }
  // The deepest rank: the last of the chain of the deepest server; its
  // path to the root is the chain (up and down, one step each way per edge).
  int32_t deepest = 0;
  for (int32_t v = 0; v < M; ++v) {
    if (depth[static_cast<size_t>(v)] > depth[static_cast<size_t>(deepest)]) deepest = v;
  }
  std::vector<uint8_t> on_chain(static_cast<size_t>(M), 0);
  for (int32_t v = deepest; v >= 0; v = parent[static_cast<size_t>(v)]) on_chain[static_cast<size_t>(v)] = 1;
  const bool chain_tree = c == 0 && t == 0;
  const uint64_t chunk = ChunkOf(o, share);
  for (int32_t v = 0; v < M; ++v) {
    // The server's chain: local position j -> j + 1.
    for (int32_t j = 0; j + 1 < L; ++j) {
      const double w = chain_tree && v == deepest ? 1.0 : 0.0;
      b.Add(rank(v, j + 1), rank(v, j), share, w, chunk);  // reduce up the chain
      b.Add(rank(v, j), rank(v, j + 1), share, w, chunk);  // broadcast down it
    }
    const int32_t p = parent[static_cast<size_t>(v)];
    if (p < 0) continue;
    const double w = chain_tree && on_chain[static_cast<size_t>(v)] ? 1.0 : 0.0;
    b.Add(rank(v, 0), rank(p, 0), share, w, chunk);
    b.Add(rank(p, 0), rank(v, 0), share, w, chunk);
  }
  if (chain_tree) {
    const uint64_t levels = static_cast<uint64_t>(depth[static_cast<size_t>(deepest)]) + static_cast<uint64_t>(L - 1);
    b.AddReduceChain(levels * chunk);
  }
}

}  // namespace

bool HasCoflowForm(CollectiveOp op, CollectiveAlgorithm algorithm) {
  const CollectiveAlgorithm a = ResolveAlgorithm(op, algorithm);
  return a == CollectiveAlgorithm::kRing || (a == CollectiveAlgorithm::kTree && op == CollectiveOp::kAllReduce) ||
         (a == CollectiveAlgorithm::kPairwise && op == CollectiveOp::kAllToAll);
}

std::vector<uint64_t> CollectiveCoflow::WireBytesSentPerRank() const {
  std::vector<uint64_t> sent(static_cast<size_t>(gpu_ranks), 0);
  for (const CollectiveCoflowEdge& e : edges) sent[static_cast<size_t>(e.src)] += e.wire_bytes;
  return sent;
}

SenderDrains::SenderDrains(std::span<const CollectiveCoflowEdge> edges, int32_t ranks, int32_t ranks_per_server,
                           DataRate nvlink, DataRate network)
    : ranks_per_server_(ranks_per_server),
      nvlink_(nvlink),
      network_(network),
      nvlink_out_(static_cast<size_t>(ranks), 0),
      network_out_(static_cast<size_t>(ranks), 0) {
  for (const CollectiveCoflowEdge& e : edges) {
    (Between(e) ? network_out_ : nvlink_out_)[static_cast<size_t>(e.src)] += e.wire_bytes;
  }
  for (size_t r = 0; r < nvlink_out_.size(); ++r) {
    longest_ = Max(longest_, Max(nvlink.TransmitTime(nvlink_out_[r]), network.TransmitTime(network_out_[r])));
  }
}

Time SenderDrains::of(const CollectiveCoflowEdge& e) const {
  const size_t src = static_cast<size_t>(e.src);
  return Between(e) ? network_.TransmitTime(network_out_[src]) : nvlink_.TransmitTime(nvlink_out_[src]);
}

Time EstimateCoflowTime(const CollectiveCoflow& coflow, int32_t ranks_per_server, DataRate nvlink, DataRate network,
                        DataRate reduce_rate) {
  const Time d = SenderDrains(coflow.edges, coflow.gpu_ranks, ranks_per_server, nvlink, network).longest();
  const double d_ps = static_cast<double>(d.ps());
  Time chain = coflow.timing.chain;
  if (reduce_rate.bps() > 0) chain += reduce_rate.TransmitTime(coflow.reduce_chain_bytes);
  const double chain_bound = static_cast<double>(chain.ps()) + coflow.timing.depth * d_ps;
  const double fill_bound = (1 + coflow.timing.fill_depth) * d_ps + static_cast<double>(coflow.timing.fill.ps());
  return coflow.timing.latency + Time::FromPs(static_cast<int64_t>(std::max(chain_bound, fill_bound)));
}

CoflowRequest MakeCoflowRequest(const CollectiveCoflow& coflow, std::span<const NodeId> endpoints, FlowId id,
                                FlowId entropy, uint8_t priority, DataRate reduce_rate) {
  CoflowRequest r;
  r.id = id;
  r.priority = priority;
  r.timing = coflow.timing;
  if (reduce_rate.bps() > 0 && coflow.reduce_chain_bytes > 0) {
    r.timing.chain += reduce_rate.TransmitTime(coflow.reduce_chain_bytes);
  }
  r.edges.reserve(coflow.edges.size());
  FlowId k = 0;
  for (const CollectiveCoflowEdge& e : coflow.edges) {
    CoflowEdge edge;
    edge.src = endpoints[static_cast<size_t>(e.src)];
    edge.dst = endpoints[static_cast<size_t>(e.dst)];
    edge.bytes = e.wire_bytes;
    edge.sport = TrafficInjector::SourcePort(entropy + k++);
    edge.latency_weight = e.latency_weight;
    r.edges.push_back(edge);
  }
  return r;
}

Result<CollectiveCoflow> BuildCollectiveCoflow(const CollectiveOptions& o, const CoflowLinkRates& rates) {
  if (Status s = CheckCollectiveOptions(o); !s.ok()) return s.error();
  const CollectiveAlgorithm algorithm = ResolveAlgorithm(o.op, o.algorithm);
  if (!HasCoflowForm(o.op, o.algorithm)) {
    std::string m = "algorithm: ";
    m += CollectiveAlgorithmName(algorithm);
    m += " has no coflow form (only ring, tree and pairwise all-to-all do); run it step by step";
    return Error{std::move(m)};
  }
  if (o.op == CollectiveOp::kAllToAll && o.ranks > kMaxAllToAllRanks) {
    return Error{"ranks: an all-to-all coflow over " + std::to_string(o.ranks) + " ranks would have " +
                 std::to_string(static_cast<int64_t>(o.ranks) * (o.ranks - 1)) + " edges; at most " +
                 std::to_string(kMaxAllToAllRanks) + " ranks"};
  }
  CollectiveOptions effective = o;
  effective.pxn = o.pxn && o.ranks_per_server > 1 && o.ranks > o.ranks_per_server;
  CoflowBuilder b(effective, rates);
  if (o.bytes == 0 || o.ranks == 1) {
    CollectiveCoflow empty;
    empty.gpu_ranks = o.ranks;
    return empty;
  }
  const bool tree = algorithm == CollectiveAlgorithm::kTree;
  // All-to-all splits S / n per peer over the channels (as BuildCollective).
  const uint64_t unit = o.op == CollectiveOp::kAllToAll ? o.bytes / static_cast<uint64_t>(o.ranks) : o.bytes;
  for (int32_t c = 0; c < o.channels; ++c) {
    const uint64_t channel_bytes = SplitPart(unit, static_cast<uint64_t>(o.channels), static_cast<uint64_t>(c));
    if (o.op == CollectiveOp::kAllToAll) {
      AddAllToAll(b, effective, c, channel_bytes);
    } else if (tree) {
      for (int t = 0; t < 2; ++t) AddTree(b, effective, c, t, SplitPart(channel_bytes, 2, static_cast<uint64_t>(t)));
    } else {
      AddRing(b, effective, c, channel_bytes);
    }
  }
  return std::move(b).Build();
}

}  // namespace aifabric
