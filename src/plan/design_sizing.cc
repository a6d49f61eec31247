#include "plan/design_sizing.h"

#include <algorithm>
#include <cmath>

#include "fabric/clos_sizing.h"

namespace aifabric {

int FewestSpines(int uplinks, int leaves, int radix) {
  const int64_t links = static_cast<int64_t>(leaves) * uplinks;
  int spines = static_cast<int>(std::clamp<int64_t>((links + radix - 1) / radix, 1, uplinks));
  while (uplinks % spines != 0) ++spines;
  return spines;
}

TopologyKnobs SizeTwoTier(const PlanRequirements& r, const Design& d, const SwitchSpec& sw, DataRate nic_rate) {
  if (d.topology != TopologyType::kLeafSpine && d.topology != TopologyType::kRailOptimized) return {};
  const bool rails = d.topology == TopologyType::kRailOptimized;
  const int nics = static_cast<int>(std::lround(r.gpus_per_server * r.nics_per_gpu));
  const int hosts_per_group = rails ? r.servers() : r.servers() * nics;
  const int groups = rails ? nics : 1;
  const DataRate host_rate = Min(nic_rate, sw.port_rate);
  const int most = std::min(MaxDownlinks(sw.radix, host_rate, d.oversubscription, sw.port_rate), hosts_per_group);
  if (most < 1 || hosts_per_group < 1) return {};
  TopologyKnobs k;
  const int leaves_per_group = CeilDiv(hosts_per_group, most);
  k.hosts_per_leaf = CeilDiv(hosts_per_group, leaves_per_group);
  const int uplinks = UplinksFor(k.hosts_per_leaf, host_rate, d.oversubscription, sw.port_rate);
  const int leaves = groups * leaves_per_group;
  k.spines = FewestSpines(uplinks, leaves, sw.radix);
  if (static_cast<int64_t>(leaves) * (uplinks / k.spines) > sw.radix) {
    // One spine layer cannot hold it: rail-optimized goes to 3 tiers (sized
    // by the fat-tree builder); a leaf-spine is left to fail with the
    // builder's own reason.
    return rails ? TopologyKnobs{0, 0, 3} : TopologyKnobs{};
  }
  return k;
}

}  // namespace aifabric
