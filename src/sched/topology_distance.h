// TopologyDistance groups a cluster's servers by the switches between them,
// for placement: a server's *leaf group* is the servers whose NICs attach to
// exactly the same set of tier-1 (leaf/ToR) switches (one leaf in a
// fat-tree; one leaf per rail in a rail-optimized fabric), and its *pod* is
// the tier-2 domain: leaf groups joined through a shared tier-2
// (spine/aggregation) switch, transitively. A 2-tier fabric is one pod.
// A server none of whose NICs attaches to a tier-1 switch (e.g. tiers
// unknown, as in HPCC files) is a leaf group and a pod of its own.
// Group and pod ids are dense, numbered in order of their lowest server.
// Immutable once built; safe to share between threads.
#pragma once

#include <span>
#include <vector>

#include "fabric/cluster_layout.h"
#include "fabric/topology.h"

namespace aifabric {

class TopologyDistance {
 public:
  TopologyDistance(const Topology& topology, const ClusterLayout& layout);

  int servers() const { return static_cast<int>(leaf_group_.size()); }
  int leaf_groups() const { return static_cast<int>(group_servers_.size()); }
  int pods() const { return static_cast<int>(pod_groups_.size()); }
  int leaf_group_of(int server) const { return leaf_group_[static_cast<size_t>(server)]; }
  int pod_of_group(int group) const { return group_pod_[static_cast<size_t>(group)]; }
  int pod_of(int server) const { return pod_of_group(leaf_group_of(server)); }
  // Servers of a leaf group, ascending; leaf groups of a pod, ascending.
  const std::vector<int>& group_servers(int group) const { return group_servers_[static_cast<size_t>(group)]; }
  const std::vector<int>& pod_groups(int pod) const { return pod_groups_[static_cast<size_t>(pod)]; }

  // Tiers climbed between two servers: 0 same server, 1 same leaf group,
  // 2 same pod, 3 across pods.
  int ServerTiers(int a, int b) const;
  // The largest ServerTiers over every pair of the GPUs' servers; 0 for
  // fewer than two GPUs. O(k).
  int TiersCrossed(const ClusterLayout& layout, std::span<const GpuId> gpus) const;

 private:
  std::vector<int> leaf_group_;                // per server
  std::vector<int> group_pod_;                 // per leaf group
  std::vector<std::vector<int>> group_servers_;
  std::vector<std::vector<int>> pod_groups_;
};

// The highest switch tier any two of the GPUs must climb to reach each
// other: 0 all on one server (NVLink only), 1 one leaf group, 2 one pod,
// 3 across pods. Cross-rail hops inside a leaf group count as 1: NCCL keeps
// collective traffic on a rail (PXN moves the cross-rail hop onto NVLink).
// Builds a TopologyDistance, so O(topology); keep one for repeated queries.
int TiersCrossed(const Topology& topology, const ClusterLayout& layout, std::span<const GpuId> gpus);

}  // namespace aifabric
