// The flows a placed job sends between servers in one iteration, as the
// replay routes them (cluster_replay.h): the gradient all-reduce as a ring
// per data-parallel group with the pipeline sends between stages, the
// expert all-to-all, and a checkpoint to storage. Ranks map to the job's
// GPUs in Megatron's order (tp innermost, then dp, then pp: rank =
// tp + TP x (dp + DP x stage), TrainingRankLayout), each GPU sending from
// its NIC (ClusterLayout::nic_of) to the NIC of the same rail on the
// receiving server, as NCCL's PXN does (NVLink carries the rest). Flows
// between two GPUs of one server ride NVLink and are left out. Pure
// functions; thread-safe.
#pragma once

#include <span>
#include <vector>

#include "fabric/cluster_layout.h"
#include "sched/job_profile.h"
#include "sched/replay_fabric.h"

namespace aifabric {

// Ring all-reduce edges (each rank to the next of its dp group, 2(dp-1)/dp
// x allreduce_bytes) and pipeline edges (forward, and backward in
// training, pipeline_bytes split between them) of one iteration.
// REQUIRES: gpus.size() == tp x pp x dp of the profile.
std::vector<CommEdge> GradientAndPipelineEdges(const JobProfile& profile, bool training, const ClusterLayout& layout,
                                               std::span<const GpuId> gpus);

// All-to-all edges among the ep ranks of each (stage, tensor rank):
// alltoall_bytes / (ep - 1) to each other rank. Empty when ep = 1.
std::vector<CommEdge> AllToAllEdges(const JobProfile& profile, const ClusterLayout& layout,
                                    std::span<const GpuId> gpus);

// The NIC of `server` on the rail of GPU `gpu`'s NIC (rail = its local
// index scaled to the server's NIC count).
inline NodeId NicOnRailOf(const ClusterLayout& layout, GpuId gpu, int server) {
  const auto& nics = layout.nics(server);
  const size_t rail =
      static_cast<size_t>(layout.local_index(gpu)) * nics.size() / static_cast<size_t>(layout.gpus_per_server());
  return nics[rail];
}

// Checkpoint edges: every GPU writes checkpoint_bytes_per_gpu to the
// storage server nearest its own (fewest tiers by `tiers(a, b)`; ties to
// the one at (server index mod ties), spreading servers over storage),
// on that server's NIC of the same rail.
// REQUIRES: storage_servers non-empty.
template <typename TiersFn>
std::vector<CommEdge> CheckpointEdges(const JobProfile& profile, const ClusterLayout& layout,
                                      std::span<const GpuId> gpus, std::span<const int> storage_servers,
                                      TiersFn tiers);

template <typename TiersFn>
std::vector<CommEdge> CheckpointEdges(const JobProfile& profile, const ClusterLayout& layout,
                                      std::span<const GpuId> gpus, std::span<const int> storage_servers,
                                      TiersFn tiers) {
  std::vector<CommEdge> edges;
  std::vector<int> nearest;
  for (GpuId g : gpus) {
    const int server = layout.server_of(g);
    int best = -1;
    nearest.clear();
    for (int s : storage_servers) {
      const int t = tiers(server, s);
      if (best < 0 || t < best) {
        best = t;
        nearest.clear();
      }
      if (t == best) nearest.push_back(s);
    }
    const int storage = nearest[static_cast<size_t>(server) % nearest.size()];
    edges.push_back({layout.nic_of(g), NicOnRailOf(layout, g, storage),
                     static_cast<double>(profile.checkpoint_bytes_per_gpu)});
  }
  return edges;
}

}  // namespace aifabric
