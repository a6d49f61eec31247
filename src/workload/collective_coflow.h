// BuildCollectiveCoflow describes a collective as one coflow: the bytes
// every (sender, receiver) pair of ranks moves over the whole collective,
// moved in proportion as one fluid — the pipelined steady state, where a
// ring's edges all go at the pace of the slowest — and the latency of its
// critical chain of steps. It is the flow level's coarse form of a
// collective (docs/collectives.md, "Collectives as coflows"): one fluid
// instead of the DAG's one transfer per step, chunk and channel, so a ring
// AllReduce over 16,384 GPUs is 16,384 edges, not 10^9 transfers.
//
// The coflow's time is CoflowRequest's max-plus bound of a pipeline:
//   base latency + max(chain + K x D, (1 + F) x D + fill),
//   chain = sum over edges of weight x (step latency + path latency)
//           + reduce_chain_bytes / reduce rate,
// where D is the fluid's drain time (the busiest edge's bytes at the rate
// it gets), an edge's weight is how many of its steps lie on the critical
// chain (for a ring AllReduce over m ranks, 2(m-1)/m on every edge, so
// 2(m-1) steps in all, as in NCCL's latency model), K is the chain's
// transmission in units of D (the sum over the chain's steps of step
// bytes / the bytes of the edge; for a ring whose chain is all inside a
// server or all between servers, whose channels then share every edge in
// lockstep, step bytes / the bytes the chain's own connection moves over
// the edge, times the part of D the edge's link needs: one chunk a channel
// then pays chain + D, as the step DAG does), F the part of K that is pipeline fill
// rather than the bottleneck connection's own steps (0 for a ring, whose
// every connection takes every step; 2h - 1 steps of a chunk for a tree
// of depth h), and fill the longest step's latency: a pipeline hides its
// chain behind the draining of its slowest link, or the draining behind
// its chain, whichever is longer.
//
// Rings (every op but alltoall) and the double binary tree (AllReduce)
// have this form, linear in the ranks, and so has the pairwise all-to-all
// (one step, n(n-1) edges; up to 2,048 ranks). The other algorithms do not: their
// phases (NVLS's upload, inter-server ring and multicast; halving then
// doubling) overlap only in part, and one fluid over all their edges would
// overlap them fully (NVLS on one H100 server: 575 GB/s of bus bandwidth
// against the step DAG's 497 and nccl-tests' ~480), so they run step by
// step. Pure function; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/result.h"
#include "core/time.h"
#include "fabric/network_model.h"
#include "workload/collective_algorithms.h"

namespace aifabric {

struct CollectiveCoflowEdge {
  CollectiveRank src = 0;
  CollectiveRank dst = 0;
  uint64_t wire_bytes = 0;    // over the whole collective, all channels
  double latency_weight = 0;  // its steps on the critical chain
};

struct CollectiveCoflow {
  int32_t gpu_ranks = 0;  // ranks (a coflow's are all GPUs)
  std::vector<CollectiveCoflowEdge> edges;  // one per ordered pair, sorted by (src, dst)
  // As CoflowRequest's: the chain's per-step latencies (NVLink steps inside
  // a server, network steps between; not the network's path latencies nor
  // the reductions), K, the fill's latency and F, and the base latency.
  CoflowTiming timing;
  uint64_t reduce_chain_bytes = 0;  // bytes reduced one after another on the chain

  // Payload-on-the-wire bytes each rank sends (index = rank).
  std::vector<uint64_t> WireBytesSentPerRank() const;
};

// The rates a coflow's chain is timed by: a GPU's NVLink per direction and
// its network rate (all its NICs). Zero: unknown, every edge of the chain
// taken as the coflow's bottleneck.
struct CoflowLinkRates {
  DataRate nvlink;
  DataRate network;
};

// Ring for every op but alltoall, tree for all_reduce, pairwise for
// alltoall (kDefault resolved as BuildCollective does).
bool HasCoflowForm(CollectiveOp op, CollectiveAlgorithm algorithm);
// Errors as BuildCollective's, and for an algorithm without a coflow form.
// `rates` time the chain's steps: a step on an edge whose sender's link
// is not the bottleneck takes its edge's own time, a fraction of D.
Result<CollectiveCoflow> BuildCollectiveCoflow(const CollectiveOptions& options, const CoflowLinkRates& rates = {});

// What each sender of a set of edges sends over NVLink (to ranks of its
// server) and over the network (to other servers), and how long that takes
// at the given rates: an edge's time is its sender's on the edge's link,
// and the longest over every sender and link is the coflow's drain on an
// idle cluster.
class SenderDrains {
 public:
  SenderDrains(std::span<const CollectiveCoflowEdge> edges, int32_t ranks, int32_t ranks_per_server, DataRate nvlink,
               DataRate network);
  Time of(const CollectiveCoflowEdge& edge) const;
  Time longest() const { return longest_; }

 private:
  bool Between(const CollectiveCoflowEdge& e) const { return e.src / ranks_per_server_ != e.dst / ranks_per_server_; }

  const int32_t ranks_per_server_;
  const DataRate nvlink_, network_;
  std::vector<uint64_t> nvlink_out_, network_out_;
  Time longest_;
};

// The coflow's time on an idle cluster (CoflowRequest's bound, no path
// latencies): D is the most any rank sends over NVLink at `nvlink` or
// between servers at `network` (ranks server-major, `ranks_per_server` to
// a server). For choosing an
// algorithm, as NCCL's tuner does with its own model.
Time EstimateCoflowTime(const CollectiveCoflow& coflow, int32_t ranks_per_server, DataRate nvlink, DataRate network,
                        DataRate reduce_rate);

// The coflow as a NetworkModel request: rank r's edges start at
// endpoints[r]; the reductions on the chain
// take reduce_chain_bytes / reduce_rate (none at a zero rate). Edge k's
// ECMP entropy is source port SourcePort(entropy + k): give every
// collective of one communicator (group of ranks) the same `entropy`, as
// NCCL reuses a communicator's connections, so they keep their paths.
CoflowRequest MakeCoflowRequest(const CollectiveCoflow& coflow, std::span<const NodeId> endpoints, FlowId id,
                                FlowId entropy, uint8_t priority, DataRate reduce_rate);

}  // namespace aifabric
