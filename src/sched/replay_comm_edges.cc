#include "sched/replay_comm_edges.h"

#include <cassert>

namespace aifabric {
namespace {

// The job's GPUs by rank: rank = tp + TP x (dp + DP x stage).
class RankGpus {
 public:
  RankGpus(const JobParallelism& p, std::span<const GpuId> gpus) : p_(p), gpus_(gpus) {
    assert(gpus.size() == static_cast<size_t>(p.tp) * p.pp * p.dp);
  }
  GpuId gpu(int stage, int dp_rank, int tp_rank) const {
    return gpus_[static_cast<size_t>(tp_rank + p_.tp * (dp_rank + p_.dp * stage))];
  }

 private:
  const JobParallelism& p_;
  std::span<const GpuId> gpus_;
};

// A flow between servers goes NIC to NIC on the sender's rail: NCCL moves
// it over NVLink to or from the GPU on the right rail (PXN), so it never
// crosses rails in the fabric.
void AddEdge(const ClusterLayout& layout, GpuId from, GpuId to, double bytes, std::vector<CommEdge>& out) {
  if (bytes <= 0 || layout.same_server(from, to)) return;  // NVLink, not the fabric
  out.push_back({layout.nic_of(from), NicOnRailOf(layout, from, layout.server_of(to)), bytes});
}

}  // namespace

std::vector<CommEdge> GradientAndPipelineEdges(const JobProfile& profile, bool training, const ClusterLayout& layout,
                                               std::span<const GpuId> gpus) {
  const JobParallelism& p = profile.parallelism;
  const RankGpus ranks(p, gpus);
  std::vector<CommEdge> edges;
  if (profile.allreduce_bytes > 0 && p.dp > 1) {
    const double ring_bytes = RingAllReduceBytes(profile);
    for (int s = 0; s < p.pp; ++s) {
      for (int r = 0; r < p.tp; ++r) {
        for (int d = 0; d < p.dp; ++d) AddEdge(layout, ranks.gpu(s, d, r), ranks.gpu(s, (d + 1) % p.dp, r), ring_bytes, edges);
      }
    }
  }
  if (profile.pipeline_bytes > 0 && p.pp > 1) {
    const double each_way = training ? profile.pipeline_bytes / 2.0 : static_cast<double>(profile.pipeline_bytes);
    for (int s = 0; s + 1 < p.pp; ++s) {
      for (int d = 0; d < p.dp; ++d) {
        for (int r = 0; r < p.tp; ++r) {
          AddEdge(layout, ranks.gpu(s, d, r), ranks.gpu(s + 1, d, r), each_way, edges);
          if (training) AddEdge(layout, ranks.gpu(s + 1, d, r), ranks.gpu(s, d, r), each_way, edges);
        }
      }
    }
  }
  return edges;
}

std::vector<CommEdge> AllToAllEdges(const JobProfile& profile, const ClusterLayout& layout,
                                    std::span<const GpuId> gpus) {
  const JobParallelism& p = profile.parallelism;
  std::vector<CommEdge> edges;
  if (profile.alltoall_bytes == 0 || p.ep <= 1) return edges;
  const RankGpus ranks(p, gpus);
  assert(p.ep == p.dp);
  const double each = static_cast<double>(profile.alltoall_bytes) / (p.ep - 1);
  // ep = dp: the expert group of a (stage, tensor rank) is its dp ranks.
  for (int s = 0; s < p.pp; ++s) {
    for (int r = 0; r < p.tp; ++r) {
      for (int a = 0; a < p.ep; ++a) {
        for (int b = 0; b < p.ep; ++b) {
          if (a != b) AddEdge(layout, ranks.gpu(s, a, r), ranks.gpu(s, b, r), each, edges);
        }
      }
    }
  }
  return edges;
}

}  // namespace aifabric
