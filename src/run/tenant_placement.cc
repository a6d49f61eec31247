#include "run/tenant_placement.h"

#include "sched/gpu_allocation.h"
#include "sched/placement_policy.h"

namespace aifabric {

Result<std::vector<std::vector<GpuId>>> PlaceTenants(const Scenario& scenario, const BuiltFabric& fabric,
                                                     const std::vector<int>& needs, int storage_servers) {
  const ClusterLayout& layout = fabric.layout;
  const int per_server = layout.gpus_per_server();
  GpuAllocation allocation(layout);
  std::vector<int> storage;
  for (int s = layout.servers() - storage_servers; s < layout.servers(); ++s) storage.push_back(s);
  if (!storage.empty()) {
    const std::vector<GpuId> gpus = GpusOfServers(storage, static_cast<int>(storage.size()) * per_server, per_server);
    if (Status st = allocation.Allocate("storage", gpus); !st.ok()) return st.error();
  }
  std::vector<std::vector<GpuId>> placed(scenario.tenants.size());
  // Explicit placements first, so a policy never takes their GPUs.
  for (size_t i = 0; i < scenario.tenants.size(); ++i) {
    const TenantSpec& t = scenario.tenants[i];
    if (needs[i] == 0 || !t.placement.explicit_set()) continue;
    std::vector<GpuId> gpus = t.placement.gpus;
    if (!t.placement.servers.empty()) {
      gpus.clear();
      for (int s : t.placement.servers) {
        for (int k = 0; k < per_server; ++k) gpus.push_back(s * per_server + k);
      }
    }
    if (static_cast<int>(gpus.size()) < needs[i]) {
      return Error{t.path + ".placement: gives " + std::to_string(gpus.size()) + " GPUs, the " + t.kind_name +
                   " needs " + std::to_string(needs[i])};
    }
    gpus.resize(static_cast<size_t>(needs[i]));
    for (GpuId g : gpus) {
      if (!allocation.is_free(g)) {
        return Error{t.path + ".placement: GPU " + std::to_string(g) + " is a storage server's (the last " +
                     std::to_string(storage_servers) + " servers hold storage: checkpoints and datasets)"};
      }
    }
    if (Status st = allocation.Allocate(t.name, gpus); !st.ok()) return Error{t.path + ".placement: " + st.error().message};
    placed[i] = std::move(gpus);
  }
  for (size_t i = 0; i < scenario.tenants.size(); ++i) {
    const TenantSpec& t = scenario.tenants[i];
    if (needs[i] == 0 || t.placement.explicit_set()) continue;
    const std::string name = t.placement.policy.empty() ? "first_fit" : t.placement.policy;
    Result<std::unique_ptr<PlacementPolicy>> policy =
        MakePlacementPolicy(name, fabric.topology, layout, scenario.seed + i);
    if (!policy.ok()) return Error{t.path + ".placement: " + policy.error().message};
    PlacementRequest request;
    request.job_id = t.name;
    request.gpus = needs[i];
    std::optional<std::vector<GpuId>> gpus = (*policy)->Place(request, allocation);
    if (!gpus) {
      return Error{t.path + ".placement: " + name + " finds no " + std::to_string(needs[i]) + " free GPUs (" +
                   std::to_string(allocation.free_count()) + " free, whole servers for a job of a server or more)"};
    }
    if (Status st = allocation.Allocate(t.name, *gpus); !st.ok()) return Error{t.path + ".placement: " + st.error().message};
    placed[i] = std::move(*gpus);
  }
  return placed;
}

}  // namespace aifabric
