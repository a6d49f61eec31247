#include "sched/topology_distance.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace aifabric {
namespace {

// Union-find over leaf groups, smallest index as the root.
int Find(std::vector<int>& parent, int x) {
  while (parent[static_cast<size_t>(x)] != x) {
    parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    x = parent[static_cast<size_t>(x)];
  }
  return x;
}

void Union(std::vector<int>& parent, int a, int b) {
  a = Find(parent, a);
  b = Find(parent, b);
  if (a != b) parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
}

}  // namespace

TopologyDistance::TopologyDistance(const Topology& topology, const ClusterLayout& layout) {
  const int n = layout.servers();
  leaf_group_.assign(static_cast<size_t>(n), -1);
  // Leaf set of each server -> its group, numbered by first (lowest) server.
  std::map<std::vector<NodeId>, int> group_by_leaves;
  std::vector<std::vector<NodeId>> group_leaves;
  for (int s = 0; s < n; ++s) {
    std::vector<NodeId> leaves;
    for (NodeId nic : layout.nics(s)) {
      for (PortId p : topology.node(nic).ports) {
        const Node& peer = topology.node(topology.port(p).peer);
        if (peer.kind == NodeKind::kSwitch && peer.tier == 1) leaves.push_back(peer.id);
      }
    }
    std::sort(leaves.begin(), leaves.end());
    leaves.erase(std::unique(leaves.begin(), leaves.end()), leaves.end());
    int group;
    if (leaves.empty()) {
      group = static_cast<int>(group_servers_.size());  // a group of its own
      group_leaves.emplace_back();
      group_servers_.emplace_back();
    } else {
      auto [it, inserted] = group_by_leaves.emplace(leaves, static_cast<int>(group_servers_.size()));
      group = it->second;
      if (inserted) {
        group_leaves.push_back(std::move(leaves));
        group_servers_.emplace_back();
      }
    }
    leaf_group_[static_cast<size_t>(s)] = group;
    group_servers_[static_cast<size_t>(group)].push_back(s);
  }

  // Pods: join groups whose leaves reach a common tier-2 switch.
  const int groups = leaf_groups();
  std::vector<int> parent(static_cast<size_t>(groups));
  std::iota(parent.begin(), parent.end(), 0);
  std::map<NodeId, int> first_group_at_spine;
  for (int g = 0; g < groups; ++g) {
    for (NodeId leaf : group_leaves[static_cast<size_t>(g)]) {
      for (PortId p : topology.node(leaf).ports) {
        const Node& peer = topology.node(topology.port(p).peer);
        if (peer.kind != NodeKind::kSwitch || peer.tier != 2) continue;
        auto [it, inserted] = first_group_at_spine.emplace(peer.id, g);
        if (!inserted) Union(parent, g, it->second);
      }
    }
  }
  // Roots are the lowest group of each pod; number pods in root order.
  std::vector<int> pod_of_root(static_cast<size_t>(groups), -1);
  group_pod_.assign(static_cast<size_t>(groups), -1);
  for (int g = 0; g < groups; ++g) {
    const int root = Find(parent, g);
    int& pod = pod_of_root[static_cast<size_t>(root)];
    if (pod < 0) {
      pod = static_cast<int>(pod_groups_.size());
      pod_groups_.emplace_back();
    }
    group_pod_[static_cast<size_t>(g)] = pod;
    pod_groups_[static_cast<size_t>(pod)].push_back(g);
  }
}

int TopologyDistance::ServerTiers(int a, int b) const {
  if (a == b) return 0;
  if (leaf_group_of(a) == leaf_group_of(b)) return 1;
  if (pod_of(a) == pod_of(b)) return 2;
  return 3;
}

int TopologyDistance::TiersCrossed(const ClusterLayout& layout, std::span<const GpuId> gpus) const {
  // The maximum over pairs is decided by whether the servers, their groups
  // and their pods are all equal, which comparing with the first GPU tells.
  if (gpus.empty()) return 0;
  const int first = layout.server_of(gpus[0]);
  int tiers = 0;
  for (GpuId g : gpus) tiers = std::max(tiers, ServerTiers(first, layout.server_of(g)));
  return tiers;
}

int TiersCrossed(const Topology& topology, const ClusterLayout& layout, std::span<const GpuId> gpus) {
  return TopologyDistance(topology, layout).TiersCrossed(layout, gpus);
}

}  // namespace aifabric
