// BuildCollective compiles one collective (op + algorithm + options) into a
// CollectiveDag of transfers and reductions over abstract ranks. Pure
// function of its options; thread-safe. docs/collectives.md describes every
// algorithm's DAG and byte accounting.
//
// `bytes` is S, the "size" column of nccl-tests for that op, and the DAGs
// move NCCL's bytes, so bus bandwidth comes out right:
//   all_reduce      S = buffer per rank; ring sends 2(n-1)/n*S per rank
//   all_gather      S = gathered output per rank (n slices); (n-1)/n*S per rank
//   reduce_scatter  S = input per rank (n slices); (n-1)/n*S per rank
//   alltoall        S = send buffer per rank, S/n per peer; (n-1)/n*S per rank
//   broadcast       S = buffer; every rank but the chain's last sends S
//   reduce          S = buffer; every rank but the root sends S
//   sendrecv        S = buffer; rank i sends S to rank i+1 mod n
//
// Splitting. S is split evenly over `channels`; each channel's share is cut
// into chunks of at most `chunk_bytes` that flow through the algorithm one
// after another (a connection carries one transfer at a time, so chunk k+1
// follows chunk k on every link: a pipeline). Every transfer carries the
// protocol's wire bytes and its per-step latency.
//
// Size. A DAG holds at most `max_dag_nodes` nodes (20M: about 1 GiB). When
// `chunk_bytes` would cut it finer, k consecutive chunks move as one
// transfer (chunk_bytes x k, the smallest k that fits): the same bytes on
// the same links by the same algorithm, in fewer, larger pipeline steps,
// each paying one step latency (a connection's window overlaps step
// latencies with transfers anyway). What changes is the pipeline's fill:
// the first chunk is k times as large. CutCollective says what was chosen.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/result.h"
#include "core/time.h"
#include "workload/collective_dag.h"
#include "workload/collective_op.h"
#include "workload/collective_protocol.h"

namespace aifabric {

enum class CollectiveAlgorithm : uint8_t {
  kDefault,          // ring for all but alltoall (pairwise)
  kRing,             // AllReduce, AllGather, ReduceScatter, Broadcast, Reduce (chain), SendRecv
  kTree,             // AllReduce: NCCL's double binary tree
  kHalvingDoubling,  // AllReduce: recursive halving then doubling; n a power of two
  kHierarchical,     // AllReduce: intra RS, inter-server AR per local rank, intra AG
  kNvls,             // AllReduce: reduction in the NVSwitch (switch ranks n..n+servers-1)
  kPairwise,         // AllToAll: every rank sends S/n to every other rank at once
};

std::string_view CollectiveAlgorithmName(CollectiveAlgorithm algorithm);
// "ring", "tree", "halving_doubling", "hierarchical", "nvls", "pairwise", "default".
Result<CollectiveAlgorithm> ParseCollectiveAlgorithm(std::string_view name);
// The algorithm kDefault stands for.
CollectiveAlgorithm ResolveAlgorithm(CollectiveOp op, CollectiveAlgorithm algorithm);

struct CollectiveOptions {
  CollectiveOp op = CollectiveOp::kAllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kDefault;
  int32_t ranks = 2;              // n, GPUs taking part
  int32_t ranks_per_server = 1;   // L, GPUs per server; divides n (hierarchical, NVLS, PXN, rings)
  uint64_t bytes = 0;             // S, see the header comment; 0 gives an empty DAG
  int32_t channels = 1;           // 1..64 (NCCL's MAXCHANNELS)
  uint64_t chunk_bytes = 0;       // pipeline chunk per channel; 0 = one chunk per channel
  CollectiveProtocol protocol = CollectiveProtocol::kSimple;
  std::optional<Time> step_latency;      // per transfer inside a server; default: the protocol's
  std::optional<Time> net_step_latency;  // per transfer between servers; default: the protocol's
  std::optional<Time> base_latency;      // once, before the first step; default: the protocol's
  double bus_efficiency = 1.0;           // the protocol's calibrated: wire bytes / it (EffectiveWireBytes)
  // NVLS across servers (NCCL's NVLSTree) gets this fraction of what NVLS
  // on one server gets, on top of bus_efficiency (CalibrationSpec::
  // nvls_tree_bus_efficiency); default: the built-in calibration's.
  std::optional<double> nvls_tree_efficiency;
  CollectiveRank root = 0;        // broadcast and reduce
  // PXN: an inter-server transfer to a GPU of another local rank first hops
  // over NVLink to the local GPU of the destination's local rank (the same
  // rail), which sends it on. See ApplyPxn.
  bool pxn = false;
  // Transfers a connection (src, dst, channel) may have in flight at once:
  // NCCL_STEPS, the slots of a connection's buffer (REFERENCES.md 6). 1
  // sends one chunk at a time.
  uint32_t connection_window = 8;
  // The DAG's node limit; chunks are aggregated to stay under it (see
  // "Size" above). A collective whose one chunk per channel passes it is
  // an error.
  uint64_t max_dag_nodes = 20'000'000;
};

// NCCL's pipeline unit, as a chunk per channel (CollectiveOptions::
// chunk_bytes): the Simple protocol's 4 MiB connection buffer moves in
// NCCL_STEPS = 8 steps of 512 KiB, and the ring AllReduce, AllGather and
// ReduceScatter move NCCL_STEPS/2 steps (2 MiB) per rank's slice at a time
// (ALLREDUCE_CHUNKSTEPS, ALLGATHER_CHUNKSTEPS, REDUCESCATTER_CHUNKSTEPS in
// NCCL's collectives.h), so their chunk per channel is ranks x 2 MiB; every
// other algorithm moves one 512 KiB step at a time. The same for every
// protocol (LL and LL128 use smaller buffers; not modelled).
uint64_t NcclChunkBytes(CollectiveOp op, CollectiveAlgorithm algorithm, int32_t ranks);

// How BuildCollective cuts `options`: the chunk per channel it uses
// (chunk_bytes, or an aggregate of k of them; 0 = one chunk) and an upper
// bound on the DAG's nodes, exact before PXN (PXN's relays at most double
// it). Cheap: nothing is built. Errors as BuildCollective's.
struct CollectiveDagCut {
  uint64_t chunk_bytes = 0;
  uint64_t max_nodes = 0;
};
Result<CollectiveDagCut> CutCollective(const CollectiveOptions& options);

// Errors name the option: "ranks_per_server: 3 does not divide ranks 8",
// "algorithm: halving_doubling needs a power-of-two rank count, got 6", ...
// Halving-doubling does not fold extra ranks in (MPICH does, with 2 extra
// steps); pick ring or tree for other counts.
Result<CollectiveDag> BuildCollective(const CollectiveOptions& options);
// The checks BuildCollective makes before building, alone.
Status CheckCollectiveOptions(const CollectiveOptions& options);

}  // namespace aifabric
