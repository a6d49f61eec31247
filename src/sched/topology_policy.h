// TopologyPolicy, "topology": fewest switch tiers crossed, in the manner of
// Slurm's topology/tree plugin and Kueue's topology-aware scheduling.
//
// A multi-server job (see placement_policy.h) goes, in order of preference,
// inside one leaf group (TiersCrossed 1), else inside one pod (2), else
// anywhere (3); leaf group and pod are as TopologyDistance defines them.
// Among domains of the chosen level that fit, it takes the best fit: the
// one with the fewest whole free servers that still holds the job (keeping
// large free domains for large jobs), ties to the lowest id. Inside a pod
// or the cluster it fills leaf groups with the most free servers first
// (fewest groups touched), ties to the lowest id, servers in id order.
// A small job goes to the best-fit server: the fewest free GPUs that still
// hold it, ties to the lowest server, on its lowest free GPUs.
//
// Built once per cluster (O(topology)); each Place is O(servers).
// Not thread-safe only by the PlacementPolicy contract.
#pragma once

#include "fabric/cluster_layout.h"
#include "fabric/topology.h"
#include "sched/placement_policy.h"
#include "sched/topology_distance.h"

namespace aifabric {

class TopologyPolicy final : public PlacementPolicy {
 public:
  TopologyPolicy(const Topology& topology, const ClusterLayout& layout);
  std::string_view name() const override { return "topology"; }
  // REQUIRES: `allocation` has the layout's servers (built from it).
  std::optional<std::vector<GpuId>> Place(const PlacementRequest& request,
                                          const GpuAllocation& allocation) override;
  const TopologyDistance& distance() const { return distance_; }

 private:
  // Fixed at construction.
  const TopologyDistance distance_;
};

}  // namespace aifabric
