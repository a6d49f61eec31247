#include "sched/placement_policy.h"

#include <algorithm>
#include <array>
#include <cassert>

#include "sched/first_fit_policy.h"
#include "sched/network_aware_policy.h"
#include "sched/random_policy.h"
#include "sched/topology_policy.h"

namespace aifabric {
namespace {

constexpr std::array<std::string_view, 4> kPolicyNames = {"first_fit", "random", "topology", "network_aware"};

}  // namespace

std::span<const std::string_view> PlacementPolicyNames() { return kPolicyNames; }

Result<std::unique_ptr<PlacementPolicy>> MakePlacementPolicy(std::string_view name, const Topology& topology,
                                                             const ClusterLayout& layout, uint64_t seed,
                                                             const FabricLoad* load) {
  if (name == "first_fit") return std::unique_ptr<PlacementPolicy>(std::make_unique<FirstFitPolicy>());
  if (name == "random") return std::unique_ptr<PlacementPolicy>(std::make_unique<RandomPolicy>(seed));
  if (name == "topology") {
    return std::unique_ptr<PlacementPolicy>(std::make_unique<TopologyPolicy>(topology, layout));
  }
  if (name == "network_aware") {
    if (load == nullptr) return Error{"placement policy 'network_aware' needs the fabric's live load"};
    return std::unique_ptr<PlacementPolicy>(std::make_unique<NetworkAwarePolicy>(topology, layout, *load));
  }
  std::string names;
  for (std::string_view n : kPolicyNames) {
    if (!names.empty()) names += ", ";
    names += n;
  }
  return Error{"placement policy: unknown policy '" + std::string(name) + "' (expected one of: " + names + ")"};
}

int WholeServersNeeded(int gpus, int gpus_per_server) {
  assert(gpus_per_server >= 1);
  if (gpus < gpus_per_server) return 0;
  return (gpus + gpus_per_server - 1) / gpus_per_server;
}

std::vector<GpuId> GpusOfServers(std::span<const int> servers, int gpus, int gpus_per_server) {
  std::vector<GpuId> out;
  out.reserve(static_cast<size_t>(gpus));
  for (int s : servers) {
    for (int i = 0; i < gpus_per_server && static_cast<int>(out.size()) < gpus; ++i) {
      out.push_back(s * gpus_per_server + i);
    }
  }
  assert(static_cast<int>(out.size()) == gpus);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace aifabric
