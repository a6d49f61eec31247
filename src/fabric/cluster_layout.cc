#include "fabric/cluster_layout.h"

#include <algorithm>
#include <map>

namespace aifabric {

Result<ClusterLayout> ClusterLayout::Build(const Topology& topology, const ServerSpec& spec) {
  if (spec.gpus_per_server < 1) return Error{"cluster: gpus_per_server must be at least 1"};
  ClusterLayout layout;
  layout.spec_ = spec;
  std::map<int, size_t> server_index;  // host's server number -> index in nics_
  std::vector<std::vector<std::pair<int, NodeId>>> by_rail;
  for (const Node& n : topology.nodes()) {
    if (n.kind != NodeKind::kHost) continue;
    size_t s;
    if (n.server < 0) {
      s = by_rail.size();
      by_rail.emplace_back();
    } else {
      auto [it, added] = server_index.emplace(n.server, by_rail.size());
      if (added) by_rail.emplace_back();
      s = it->second;
    }
    by_rail[s].emplace_back(n.rail, n.id);
  }
  if (by_rail.empty()) return Error{"cluster: the topology has no hosts (NICs) to put GPUs behind"};
  for (auto& nics : by_rail) {
    std::stable_sort(nics.begin(), nics.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<NodeId> ids;
    for (const auto& [rail, id] : nics) ids.push_back(id);
    layout.nics_.push_back(std::move(ids));
  }
  // Per GPU, its first NIC and how many it has, flat (the hot path of
  // every transfer between servers).
  const size_t g = static_cast<size_t>(spec.gpus_per_server);
  for (const std::vector<NodeId>& nics : layout.nics_) {
    const size_t n = nics.size();
    for (size_t i = 0; i < g; ++i) {
      layout.gpu_nic_.push_back(nics[i * n / g]);
      layout.gpu_nic_count_.push_back(static_cast<uint16_t>(n > g ? n / g : 1));
    }
  }
  return layout;
}

NodeId ClusterLayout::nic_of(GpuId gpu, int k) const {
  if (k == 0) return gpu_nic_[static_cast<size_t>(gpu)];
  return nics_[static_cast<size_t>(server_of(gpu))][static_cast<size_t>(nic_of_index(gpu) + k)];
}

size_t ClusterLayout::nic_of_index(GpuId gpu) const {
  const size_t n = nics_[static_cast<size_t>(server_of(gpu))].size();
  return static_cast<size_t>(local_index(gpu)) * n / static_cast<size_t>(spec_.gpus_per_server);
}

NodeId ClusterLayout::nic_of(GpuId gpu) const { return gpu_nic_[static_cast<size_t>(gpu)]; }

DataRate FastestNicRate(const Topology& topology, const ClusterLayout& layout) {
  DataRate fastest;
  for (int s = 0; s < layout.servers(); ++s) {
    for (NodeId nic : layout.nics(s)) {
      uint64_t nic_bps = 0;
      for (PortId p : topology.node(nic).ports) nic_bps += topology.port(p).rate.bps();
      fastest = std::max(fastest, DataRate::BitsPerSecond(nic_bps));
    }
  }
  return fastest;
}

}  // namespace aifabric
