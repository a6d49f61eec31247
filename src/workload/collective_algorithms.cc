#include "workload/collective_algorithms.h"

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/concat.h"
#include "workload/collective_pxn.h"
#include "workload/collective_topology.h"

namespace aifabric {
namespace {

constexpr int32_t kMaxChannels = 64;  // NCCL's MAXCHANNELS

using Deps = std::vector<DagNodeIndex>;

// Adds nodes for the current channel and chunk, with the protocol's wire
// bytes and per-step latency.
class Emitter {
 public:
  // Transfers between GPU ranks of different servers (rank / L differs)
  // take `net_step_latency`, the others `step_latency`.
  Emitter(CollectiveDagBuilder& builder, CollectiveProtocol protocol, double bus_efficiency, Time step_latency,
          Time net_step_latency, int32_t gpu_ranks, int32_t ranks_per_server)
      : builder_(builder),
        protocol_(protocol),
        bus_efficiency_(bus_efficiency),
        step_latency_(step_latency),
        net_step_latency_(net_step_latency),
        gpu_ranks_(gpu_ranks),
        ranks_per_server_(ranks_per_server) {}

  uint16_t channel = 0;
  uint32_t chunk = 0;

  DagNodeIndex Send(CollectiveRank src, CollectiveRank dst, uint64_t bytes, DagPhase phase,
                    uint32_t step, const Deps& deps) {
    DagNode n;
    n.phase = phase;
    n.channel = channel;
    n.step = step;
    n.chunk = chunk;
    n.src = src;
    n.dst = dst;
    n.bytes = bytes;
    n.wire_bytes = EffectiveWireBytes(protocol_, bytes, bus_efficiency_);
    const bool between_servers = src < gpu_ranks_ && dst < gpu_ranks_ && src / ranks_per_server_ != dst / ranks_per_server_;
    n.latency = between_servers ? net_step_latency_ : step_latency_;
    const DagNodeIndex index = builder_.AddTransfer(n);
    for (DagNodeIndex d : deps) builder_.AddEdge(d, index);
    return index;
  }

  DagNodeIndex Reduce(CollectiveRank rank, uint64_t bytes, DagPhase phase, uint32_t step,
                      const Deps& deps) {
    const DagNodeIndex index =
        builder_.AddCompute(DagNodeKind::kReduce, phase, rank, bytes, step, chunk);
    for (DagNodeIndex d : deps) builder_.AddEdge(d, index);
    return index;
  }

 private:
  CollectiveDagBuilder& builder_;
  const CollectiveProtocol protocol_;
  const double bus_efficiency_;
  const Time step_latency_;
  const Time net_step_latency_;
  const int32_t gpu_ranks_;
  const int32_t ranks_per_server_;
};

Deps Join(Deps a, DagNodeIndex b) {
  a.push_back(b);
  return a;
}

std::vector<uint64_t> Slices(uint64_t bytes, size_t parts) {
  std::vector<uint64_t> slices(parts);
  for (size_t i = 0; i < parts; ++i) slices[i] = SplitPart(bytes, parts, i);
  return slices;
}

// Ring reduce-scatter over `ring` (m positions) of m slices: at step t
// position i sends slice (i - t) mod m to position i+1, which reduces it into
// its own copy. `ready[i]`: what position i's input waits for. Returns, per
// position, what its fully reduced slice (i + 1) mod m waits for.
std::vector<Deps> RingReduceScatter(Emitter& e, const std::vector<CollectiveRank>& ring,
                                    const std::vector<uint64_t>& slices, const std::vector<Deps>& ready,
                                    DagPhase phase) {
  const size_t m = ring.size();
  std::vector<Deps> have = ready;
  for (size_t t = 0; t + 1 < m; ++t) {
    std::vector<Deps> next(m);
    for (size_t i = 0; i < m; ++i) {
      const size_t j = (i + 1) % m;
      const uint64_t slice = slices[(i + m - t) % m];
      const DagNodeIndex x = e.Send(ring[i], ring[j], slice, phase, static_cast<uint32_t>(t), have[i]);
      next[j] = {e.Reduce(ring[j], slice, phase, static_cast<uint32_t>(t), Join(ready[j], x))};
    }
    have = std::move(next);
  }
  return have;
}

// Ring all-gather: position i starts owning slice (i + shift) mod m (once
// `ready[i]` is done); at step t it forwards slice (i + shift - t) mod m to
// position i+1. Returns, per position, what "holds every slice" waits for.
std::vector<Deps> RingAllGather(Emitter& e, const std::vector<CollectiveRank>& ring,
                                const std::vector<uint64_t>& slices, const std::vector<Deps>& ready,
                                size_t shift, DagPhase phase) {
  const size_t m = ring.size();
  std::vector<Deps> have = ready;
  std::vector<DagNodeIndex> last_received(m, kNoDagNode);
  for (size_t t = 0; t + 1 < m; ++t) {
    std::vector<Deps> next(m);
    for (size_t i = 0; i < m; ++i) {
      const size_t j = (i + 1) % m;
      const uint64_t slice = slices[(i + shift + m - t) % m];
      last_received[j] = e.Send(ring[i], ring[j], slice, phase, static_cast<uint32_t>(t), have[i]);
      next[j] = {last_received[j]};
    }
    have = std::move(next);
  }
  // Receives on one connection are ordered, so the last one implies the rest.
  std::vector<Deps> done = ready;
  for (size_t j = 0; j < m; ++j) {
    if (last_received[j] != kNoDagNode) done[j].push_back(last_received[j]);
  }
  return done;
}

// Ring AllReduce of `bytes` per position: reduce-scatter, then all-gather
// starting from the slice each position reduced; 2(m-1) steps.
std::vector<Deps> RingAllReduce(Emitter& e, const std::vector<CollectiveRank>& ring, uint64_t bytes,
                                const std::vector<Deps>& ready, DagPhase rs_phase, DagPhase ag_phase) {
  const std::vector<uint64_t> slices = Slices(bytes, ring.size());
  const std::vector<Deps> reduced = RingReduceScatter(e, ring, slices, ready, rs_phase);
  return RingAllGather(e, ring, slices, reduced, 1, ag_phase);
}

struct Shape {
  int32_t n;  // ranks
  int32_t L;  // ranks per server
  int32_t M;  // servers
};

// The double binary tree over servers, each server a chain of its local
// ranks (rotated by the channel); tree `tree` carries `bytes`.
void EmitTree(Emitter& e, const Shape& s, int32_t rotation, int tree, uint64_t bytes) {
  const std::vector<int32_t> parent = DoubleBinaryTreeParents(s.M, tree);
  std::vector<std::vector<int32_t>> children(static_cast<size_t>(s.M));
  int32_t root = 0;
  for (int32_t v = 0; v < s.M; ++v) {
    if (parent[static_cast<size_t>(v)] < 0) {
      root = v;
    } else {
      children[static_cast<size_t>(parent[static_cast<size_t>(v)])].push_back(v);
    }
  }
  auto rank = [&](int32_t server, int32_t j) { return server * s.L + (j + rotation) % s.L; };
  // Below (server, j) in the combined structure: the next rank of its chain
  // and, for a chain head (j == 0), the heads of the child servers.
  auto downs = [&](int32_t server, int32_t j) {
    std::vector<std::pair<int32_t, int32_t>> d;
    if (j + 1 < s.L) d.emplace_back(server, j + 1);
    if (j == 0) {
      for (int32_t c : children[static_cast<size_t>(server)]) d.emplace_back(c, 0);
    }
    return d;
  };
  // Reduce up: returns what (server, j)'s partial sum waits for.
  std::function<DagNodeIndex(int32_t, int32_t, uint32_t)> reduce_up =
      [&](int32_t server, int32_t j, uint32_t depth) -> DagNodeIndex {
    DagNodeIndex last = kNoDagNode;
    for (auto [ds, dj] : downs(server, j)) {
      const DagNodeIndex below = reduce_up(ds, dj, depth + 1);
      const DagNodeIndex x = e.Send(rank(ds, dj), rank(server, j), bytes, DagPhase::kTreeReduce, depth,
                                    {below});
      last = e.Reduce(rank(server, j), bytes, DagPhase::kTreeReduce, depth, {x, last});
    }
    return last;
  };
  std::function<void(int32_t, int32_t, DagNodeIndex, uint32_t)> broadcast_down =
      [&](int32_t server, int32_t j, DagNodeIndex have, uint32_t depth) {
        for (auto [ds, dj] : downs(server, j)) {
          const DagNodeIndex x = e.Send(rank(server, j), rank(ds, dj), bytes, DagPhase::kTreeBroadcast,
                                        depth, {have});
          broadcast_down(ds, dj, x, depth + 1);
        }
      };
  broadcast_down(root, 0, reduce_up(root, 0, 0), 0);
}

// Recursive halving (reduce-scatter) then recursive doubling (all-gather)
// over ranks 0..n-1. REQUIRES: n a power of two.
void EmitHalvingDoubling(Emitter& e, int32_t n, uint64_t bytes) {
  const size_t un = static_cast<size_t>(n);
  std::vector<uint64_t> prefix(un + 1, 0);  // prefix sums of the n slices
  for (size_t i = 0; i < un; ++i) prefix[i + 1] = prefix[i] + SplitPart(bytes, un, i);
  std::vector<size_t> lo(un, 0), hi(un, un);
  std::vector<Deps> ready(un);
  std::vector<DagNodeIndex> x(un);
  uint32_t step = 0;
  for (size_t d = un / 2; d >= 1; d /= 2, ++step) {
    for (size_t r = 0; r < un; ++r) {
      const size_t mid = (lo[r] + hi[r]) / 2;
      const bool keep_lower = (r & d) == 0;
      const uint64_t sent = keep_lower ? prefix[hi[r]] - prefix[mid] : prefix[mid] - prefix[lo[r]];
      x[r] = e.Send(static_cast<CollectiveRank>(r), static_cast<CollectiveRank>(r ^ d), sent,
                    DagPhase::kHalving, step, ready[r]);
    }
    for (size_t r = 0; r < un; ++r) {
      const size_t mid = (lo[r] + hi[r]) / 2;
      if ((r & d) == 0) {
        hi[r] = mid;
      } else {
        lo[r] = mid;
      }
      ready[r] = {e.Reduce(static_cast<CollectiveRank>(r), prefix[hi[r]] - prefix[lo[r]],
                           DagPhase::kHalving, step, Join(ready[r], x[r ^ d]))};
    }
  }
  step = 0;
  for (size_t d = 1; d < un; d *= 2, ++step) {
    for (size_t r = 0; r < un; ++r) {
      x[r] = e.Send(static_cast<CollectiveRank>(r), static_cast<CollectiveRank>(r ^ d),
                    prefix[hi[r]] - prefix[lo[r]], DagPhase::kDoubling, step, ready[r]);
    }
    for (size_t r = 0; r < un; ++r) {
      ready[r].push_back(x[r ^ d]);
      const size_t p = r ^ d;
      const size_t new_lo = std::min(lo[r], lo[p]);
      hi[r] = std::max(hi[r], hi[p]);
      lo[r] = new_lo;
    }
  }
}

// The ring of one server's local ranks for a channel.
std::vector<CollectiveRank> ServerRing(const Shape& s, int32_t server, int32_t rotation) {
  std::vector<CollectiveRank> ring(static_cast<size_t>(s.L));
  for (int32_t j = 0; j < s.L; ++j) ring[static_cast<size_t>(j)] = server * s.L + (j + rotation) % s.L;
  return ring;
}

// Phase 2 of hierarchical and NVLS AllReduce: for each slice q, a ring
// AllReduce across servers among the ranks that hold it (owner[server][q],
// ready after ready[server][q]). Returns the same shape, done.
std::vector<std::vector<Deps>> InterServerAllReduce(Emitter& e, const Shape& s,
                                                    const std::vector<std::vector<CollectiveRank>>& owner,
                                                    const std::vector<uint64_t>& slices,
                                                    const std::vector<std::vector<Deps>>& ready) {
  std::vector<std::vector<Deps>> done = ready;
  for (size_t q = 0; q < slices.size(); ++q) {
    std::vector<CollectiveRank> ring(static_cast<size_t>(s.M));
    std::vector<Deps> group_ready(static_cast<size_t>(s.M));
    for (size_t m = 0; m < ring.size(); ++m) {
      ring[m] = owner[m][q];
      group_ready[m] = ready[m][q];
    }
    const std::vector<Deps> group_done =
        RingAllReduce(e, ring, slices[q], group_ready, DagPhase::kInterServer, DagPhase::kInterServer);
    for (size_t m = 0; m < ring.size(); ++m) done[m][q] = group_done[m];
  }
  return done;
}

void EmitHierarchical(Emitter& e, const Shape& s, int32_t rotation, uint64_t bytes) {
  const std::vector<uint64_t> slices = Slices(bytes, static_cast<size_t>(s.L));
  const size_t L = static_cast<size_t>(s.L);
  std::vector<std::vector<CollectiveRank>> rings, owner(static_cast<size_t>(s.M), std::vector<CollectiveRank>(L));
  std::vector<std::vector<Deps>> ready(static_cast<size_t>(s.M), std::vector<Deps>(L));
  for (int32_t m = 0; m < s.M; ++m) {
    rings.push_back(ServerRing(s, m, rotation));
    const std::vector<Deps> reduced =
        RingReduceScatter(e, rings.back(), slices, std::vector<Deps>(L), DagPhase::kReduceScatter);
    for (size_t j = 0; j < L; ++j) {  // position j holds slice (j + 1) mod L
      owner[static_cast<size_t>(m)][(j + 1) % L] = rings.back()[j];
      ready[static_cast<size_t>(m)][(j + 1) % L] = reduced[j];
    }
  }
  const std::vector<std::vector<Deps>> done = InterServerAllReduce(e, s, owner, slices, ready);
  for (int32_t m = 0; m < s.M; ++m) {
    std::vector<Deps> start(L);
    for (size_t j = 0; j < L; ++j) start[j] = done[static_cast<size_t>(m)][(j + 1) % L];
    RingAllGather(e, rings[static_cast<size_t>(m)], slices, start, 1, DagPhase::kAllGather);
  }
}

// NVLS: every GPU sends its buffer to its server's switch (rank n + server),
// which reduces slice q and sends it to the slice's owner; owners allreduce
// their slice across servers; each owner sends the result back to the
// switch, which multicasts it to the server's other GPUs.
void EmitNvls(Emitter& e, const Shape& s, int32_t rotation, uint64_t bytes) {
  const size_t L = static_cast<size_t>(s.L);
  const std::vector<uint64_t> slices = Slices(bytes, L);
  std::vector<std::vector<CollectiveRank>> owner(static_cast<size_t>(s.M), std::vector<CollectiveRank>(L));
  std::vector<std::vector<Deps>> ready(static_cast<size_t>(s.M), std::vector<Deps>(L));
  for (int32_t m = 0; m < s.M; ++m) {
    const CollectiveRank sw = s.n + m;
    const std::vector<CollectiveRank> gpus = ServerRing(s, m, rotation);
    Deps uploads;
    for (CollectiveRank g : gpus) uploads.push_back(e.Send(g, sw, bytes, DagPhase::kNvlsReduce, 0, {}));
    for (size_t q = 0; q < L; ++q) {
      const DagNodeIndex reduced = e.Reduce(sw, slices[q], DagPhase::kNvlsReduce, 1, uploads);
      owner[static_cast<size_t>(m)][q] = gpus[q];
      ready[static_cast<size_t>(m)][q] = {e.Send(sw, gpus[q], slices[q], DagPhase::kNvlsReduce, 2, {reduced})};
    }
  }
  const std::vector<std::vector<Deps>> done = InterServerAllReduce(e, s, owner, slices, ready);
  for (int32_t m = 0; m < s.M; ++m) {
    const CollectiveRank sw = s.n + m;
    for (size_t q = 0; q < L; ++q) {
      const CollectiveRank from = owner[static_cast<size_t>(m)][q];
      const DagNodeIndex up = e.Send(from, sw, slices[q], DagPhase::kNvlsMulticast, 0,
                                     done[static_cast<size_t>(m)][q]);
      for (CollectiveRank g : ServerRing(s, m, 0)) {
        if (g != from) e.Send(sw, g, slices[q], DagPhase::kNvlsMulticast, 1, {up});
      }
    }
  }
}

// Broadcast down (or reduce up) the channel's ring cut into a chain that
// starts (or ends) at the root.
void EmitChain(Emitter& e, const Shape& s, CollectiveRank root, bool reduce, uint64_t bytes) {
  const std::vector<CollectiveRank> ring = ChannelRingOrder(s.n, s.L, e.channel);
  size_t at_root = 0;
  while (ring[at_root] != root) ++at_root;
  const size_t n = ring.size();
  const size_t first = reduce ? at_root + 1 : at_root;  // reduce: the chain ends at the root
  DagNodeIndex last = kNoDagNode;
  for (size_t p = 0; p + 1 < n; ++p) {
    const CollectiveRank from = ring[(first + p) % n];
    const CollectiveRank to = ring[(first + p + 1) % n];
    const uint32_t step = static_cast<uint32_t>(p);
    if (reduce) {
      const DagNodeIndex x = e.Send(from, to, bytes, DagPhase::kChainReduce, step, {last});
      last = e.Reduce(to, bytes, DagPhase::kChainReduce, step, {x});
    } else {
      last = e.Send(from, to, bytes, DagPhase::kChainBroadcast, step, {last});
    }
  }
}

Status CheckOptionsFor(const CollectiveOptions& o, CollectiveAlgorithm algorithm) {
  auto fail = [](std::string message) { return Status(Error{std::move(message)}); };
  if (o.ranks < 1) return fail(Concat("ranks: must be at least 1, got ", std::to_string(o.ranks)));
  if (o.ranks_per_server < 1 || o.ranks % o.ranks_per_server != 0) {
    return fail(Concat("ranks_per_server: ", std::to_string(o.ranks_per_server), " does not divide ranks ",
                       std::to_string(o.ranks)));
  }
  if (o.connection_window < 1) return fail("connection_window: must be at least 1");
  if (o.channels < 1 || o.channels > kMaxChannels) {
    return fail(Concat("channels: must be 1..64, got ", std::to_string(o.channels)));
  }
  if ((o.op == CollectiveOp::kBroadcast || o.op == CollectiveOp::kReduce) &&
      (o.root < 0 || o.root >= o.ranks)) {
    return fail(Concat("root: must be a rank 0..", std::to_string(o.ranks - 1), ", got ", std::to_string(o.root)));
  }
  const bool ok = [&] {
    switch (algorithm) {
      case CollectiveAlgorithm::kRing: return o.op != CollectiveOp::kAllToAll;
      case CollectiveAlgorithm::kPairwise: return o.op == CollectiveOp::kAllToAll;
      default: return o.op == CollectiveOp::kAllReduce;
    }
  }();
  if (!ok) {
    return fail(Concat("algorithm: ", CollectiveAlgorithmName(algorithm), " does not implement ",
                       CollectiveOpName(o.op)));
  }
  if (algorithm == CollectiveAlgorithm::kHalvingDoubling && !std::has_single_bit(static_cast<uint32_t>(o.ranks))) {
    return fail(Concat("algorithm: halving_doubling needs a power-of-two rank count, got ", std::to_string(o.ranks)));
  }
  if (algorithm == CollectiveAlgorithm::kNvls && o.ranks_per_server < 2) {
    return fail("algorithm: nvls needs ranks_per_server >= 2 (GPUs sharing an NVSwitch)");
  }
  return Status::Ok();
}

// Nodes one chunk of one lane adds before PXN (the same for every chunk and
// lane: they differ in bytes and ring rotation only), counted as the Emit*
// functions above add them.
uint64_t NodesPerChunk(const CollectiveOptions& o, CollectiveAlgorithm algorithm) {
  const uint64_t n = static_cast<uint64_t>(o.ranks);
  const uint64_t L = static_cast<uint64_t>(o.ranks_per_server);
  const uint64_t M = n / L;
  const auto ring_all_reduce = [](uint64_t m) { return 3 * m * (m - 1); };  // (m-1) x m x (send, reduce); (m-1) x m sends
  switch (o.op) {
    case CollectiveOp::kAllReduce:
      switch (algorithm) {
        case CollectiveAlgorithm::kTree: return 3 * (n - 1);  // a send and a reduce up, a send down, per non-root
        case CollectiveAlgorithm::kHalvingDoubling: return 3 * n * static_cast<uint64_t>(std::countr_zero(n));
        case CollectiveAlgorithm::kHierarchical: return M * ring_all_reduce(L) + L * ring_all_reduce(M);
        case CollectiveAlgorithm::kNvls: return M * (3 * L + L * L) + L * ring_all_reduce(M);
        default: return ring_all_reduce(n);
      }
    case CollectiveOp::kAllGather: return n * (n - 1);
    case CollectiveOp::kReduceScatter: return 2 * n * (n - 1);
    case CollectiveOp::kAllToAll: return n * (n - 1);
    case CollectiveOp::kBroadcast: return n - 1;
    case CollectiveOp::kReduce: return 2 * (n - 1);
    case CollectiveOp::kSendRecv: return n;
  }
  return 0;
}

// How BuildCollective cuts the collective: lanes (a channel, or one tree of
// a channel), the widest lane's share of the bytes and the chunk.
struct Cut {
  int trees = 1;         // lanes per channel
  uint64_t unit = 0;     // the bytes the channels split
  uint64_t chunk = 0;    // per lane; 0 = one chunk
  uint64_t chunks = 1;   // of the widest lane
  uint64_t nodes = 0;    // bound on the DAG's nodes
};

// REQUIRES: CheckOptionsFor(o, algorithm) passed.
Result<Cut> CutFor(const CollectiveOptions& o, CollectiveAlgorithm algorithm) {
  Cut cut;
  // The bytes one channel's chunks split: per peer for alltoall, per tree
  // (half a channel's share) for the double binary tree.
  cut.trees = algorithm == CollectiveAlgorithm::kTree ? 2 : 1;
  cut.unit = o.op == CollectiveOp::kAllToAll ? o.bytes / static_cast<uint64_t>(o.ranks) : o.bytes;
  const uint64_t widest = SplitPart(SplitPart(cut.unit, static_cast<uint64_t>(o.channels), 0),
                                    static_cast<uint64_t>(cut.trees), 0);
  const uint64_t lanes = static_cast<uint64_t>(o.channels) * static_cast<uint64_t>(cut.trees);
  // PXN relays a transfer through a second one: at most twice the nodes.
  const bool pxn = o.pxn && o.ranks_per_server > 1 && o.ranks > o.ranks_per_server;
  const uint64_t per_chunk = NodesPerChunk(o, algorithm) * (pxn ? 2 : 1);
  const uint64_t max_chunks = o.max_dag_nodes / std::max<uint64_t>(1, lanes * per_chunk);
  if (max_chunks == 0) {
    return Error{Concat("ranks: ", std::to_string(o.ranks), " ranks take ", std::to_string(lanes * per_chunk),
                        " DAG nodes with one chunk per channel, over the limit of ", std::to_string(o.max_dag_nodes),
                        "; run it as a coflow (flow model)")};
  }
  const auto chunks_of = [widest](uint64_t chunk) {
    return chunk == 0 ? 1 : std::max<uint64_t>(1, (widest + chunk - 1) / chunk);
  };
  cut.chunk = o.chunk_bytes;
  cut.chunks = chunks_of(cut.chunk);
  if (cut.chunks > max_chunks) {
    // Aggregate k consecutive chunks into one: the smallest k that fits
    // (ceil(ceil(w / c) / k) = ceil(w / (k c)) <= max_chunks).
    const uint64_t k = (cut.chunks + max_chunks - 1) / max_chunks;
    cut.chunk = o.chunk_bytes * k;
    cut.chunks = chunks_of(cut.chunk);
  }
  cut.nodes = cut.chunks * lanes * per_chunk;
  return cut;
}

}  // namespace

std::string_view CollectiveAlgorithmName(CollectiveAlgorithm algorithm) {
  switch (algorithm) {
    case CollectiveAlgorithm::kDefault: return "default";
    case CollectiveAlgorithm::kRing: return "ring";
    case CollectiveAlgorithm::kTree: return "tree";
    case CollectiveAlgorithm::kHalvingDoubling: return "halving_doubling";
    case CollectiveAlgorithm::kHierarchical: return "hierarchical";
    case CollectiveAlgorithm::kNvls: return "nvls";
    case CollectiveAlgorithm::kPairwise: return "pairwise";
  }
  return "?";
}

Result<CollectiveAlgorithm> ParseCollectiveAlgorithm(std::string_view name) {
  constexpr std::array<CollectiveAlgorithm, 7> kAll = {
      CollectiveAlgorithm::kDefault,         CollectiveAlgorithm::kRing,
      CollectiveAlgorithm::kTree,            CollectiveAlgorithm::kHalvingDoubling,
      CollectiveAlgorithm::kHierarchical,    CollectiveAlgorithm::kNvls,
      CollectiveAlgorithm::kPairwise};
  for (CollectiveAlgorithm a : kAll) {
    if (CollectiveAlgorithmName(a) == name) return a;
  }
  std::string message = "unknown collective algorithm '";
  message += name;
  message += "' (expected ring, tree, halving_doubling, hierarchical, nvls, pairwise or default)";
  return Error{message};
}

CollectiveAlgorithm ResolveAlgorithm(CollectiveOp op, CollectiveAlgorithm algorithm) {
  if (algorithm != CollectiveAlgorithm::kDefault) return algorithm;
  return op == CollectiveOp::kAllToAll ? CollectiveAlgorithm::kPairwise : CollectiveAlgorithm::kRing;
}

Status CheckCollectiveOptions(const CollectiveOptions& options) {
  return CheckOptionsFor(options, ResolveAlgorithm(options.op, options.algorithm));
}

uint64_t NcclChunkBytes(CollectiveOp op, CollectiveAlgorithm algorithm, int32_t ranks) {
  constexpr uint64_t kStepBytes = 512 * 1024;  // 4 MiB / NCCL_STEPS
  const bool ring_slices = ResolveAlgorithm(op, algorithm) == CollectiveAlgorithm::kRing &&
                           (op == CollectiveOp::kAllReduce || op == CollectiveOp::kAllGather ||
                            op == CollectiveOp::kReduceScatter);
  return ring_slices ? static_cast<uint64_t>(ranks) * 4 * kStepBytes : kStepBytes;
}

Result<CollectiveDagCut> CutCollective(const CollectiveOptions& o) {
  const CollectiveAlgorithm algorithm = ResolveAlgorithm(o.op, o.algorithm);
  if (Status s = CheckOptionsFor(o, algorithm); !s.ok()) return s.error();
  if (o.bytes == 0 || o.ranks == 1) return CollectiveDagCut{o.chunk_bytes, 0};
  Result<Cut> cut = CutFor(o, algorithm);
  if (!cut.ok()) return cut.error();
  return CollectiveDagCut{cut->chunk, cut->nodes};
}

Result<CollectiveDag> BuildCollective(const CollectiveOptions& o) {
  const CollectiveAlgorithm algorithm = ResolveAlgorithm(o.op, o.algorithm);
  if (Status s = CheckOptionsFor(o, algorithm); !s.ok()) return s.error();
  const Shape shape{o.ranks, o.ranks_per_server, o.ranks / o.ranks_per_server};
  const int32_t switches = algorithm == CollectiveAlgorithm::kNvls ? shape.M : 0;
  CollectiveDagBuilder builder(o.ranks, switches, o.connection_window);
  if (o.bytes == 0 || o.ranks == 1) return std::move(builder).Build();

  Result<Cut> cut = CutFor(o, algorithm);
  if (!cut.ok()) return cut.error();
  const bool tree = algorithm == CollectiveAlgorithm::kTree;
  const uint64_t unit = cut->unit;

  const ProtocolSpec spec = GetProtocolSpec(o.protocol);
  builder.set_base_latency(o.base_latency.value_or(spec.base_latency));
  const double efficiency = algorithm == CollectiveAlgorithm::kNvls && shape.M > 1
                                ? o.bus_efficiency * o.nvls_tree_efficiency.value_or(spec.nvls_tree_efficiency)
                                : o.bus_efficiency;
  Emitter e(builder, o.protocol, efficiency, o.step_latency.value_or(spec.step_latency),
            o.net_step_latency.value_or(spec.net_step_latency), o.ranks, o.ranks_per_server);
  const int trees = cut->trees;
  for (int32_t c = 0; c < o.channels; ++c) {
    const uint64_t channel_bytes = SplitPart(unit, static_cast<uint64_t>(o.channels), static_cast<uint64_t>(c));
    for (int t = 0; t < trees; ++t) {
      // Each of the two trees is its own channel (connection set), as in NCCL.
      e.channel = static_cast<uint16_t>(c * trees + t);
      const uint64_t share = tree ? SplitPart(channel_bytes, 2, static_cast<uint64_t>(t)) : channel_bytes;
      const uint64_t chunks = cut->chunk == 0 ? 1 : std::max<uint64_t>(1, (share + cut->chunk - 1) / cut->chunk);
      for (uint64_t k = 0; k < chunks; ++k) {
        e.chunk = static_cast<uint32_t>(k);
        const uint64_t bytes = SplitPart(share, chunks, k);
        switch (o.op) {
          case CollectiveOp::kAllReduce:
            switch (algorithm) {
              case CollectiveAlgorithm::kTree: EmitTree(e, shape, c, t, bytes); break;
              case CollectiveAlgorithm::kHalvingDoubling: EmitHalvingDoubling(e, o.ranks, bytes); break;
              case CollectiveAlgorithm::kHierarchical: EmitHierarchical(e, shape, c, bytes); break;
              case CollectiveAlgorithm::kNvls: EmitNvls(e, shape, c, bytes); break;
              default:
                RingAllReduce(e, ChannelRingOrder(o.ranks, o.ranks_per_server, c), bytes,
                              std::vector<Deps>(static_cast<size_t>(o.ranks)), DagPhase::kReduceScatter,
                              DagPhase::kAllGather);
            }
            break;
          case CollectiveOp::kAllGather:
            RingAllGather(e, ChannelRingOrder(o.ranks, o.ranks_per_server, c), Slices(bytes, static_cast<size_t>(o.ranks)),
                          std::vector<Deps>(static_cast<size_t>(o.ranks)), 0, DagPhase::kAllGather);
            break;
          case CollectiveOp::kReduceScatter:
            RingReduceScatter(e, ChannelRingOrder(o.ranks, o.ranks_per_server, c),
                              Slices(bytes, static_cast<size_t>(o.ranks)),
                              std::vector<Deps>(static_cast<size_t>(o.ranks)), DagPhase::kReduceScatter);
            break;
          case CollectiveOp::kAllToAll:
            for (CollectiveRank r = 0; r < o.ranks; ++r) {
              for (int32_t step = 1; step < o.ranks; ++step) {
                e.Send(r, (r + step) % o.ranks, bytes, DagPhase::kAllToAll, static_cast<uint32_t>(step), {});
              }
            }
            break;
          case CollectiveOp::kBroadcast: EmitChain(e, shape, o.root, false, bytes); break;
          case CollectiveOp::kReduce: EmitChain(e, shape, o.root, true, bytes); break;
          case CollectiveOp::kSendRecv:
            for (CollectiveRank r = 0; r < o.ranks; ++r) {
              e.Send(r, (r + 1) % o.ranks, bytes, DagPhase::kSendRecv, 0, {});
            }
            break;
        }
      }
    }
  }
  Result<CollectiveDag> dag = std::move(builder).Build();
  if (!dag.ok() || !o.pxn || shape.L == 1 || shape.M == 1) return dag;
  return ApplyPxn(*dag, o.ranks_per_server, o.connection_window);
}

}  // namespace aifabric
