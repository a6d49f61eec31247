#include "sched/first_fit_policy.h"

namespace aifabric {

std::optional<std::vector<GpuId>> FirstFitPolicy::Place(const PlacementRequest& request,
                                                        const GpuAllocation& allocation) {
  const int gpus = request.gpus;
  const int per_server = allocation.gpus_per_server();
  if (gpus < 1 || gpus > allocation.free_count()) return std::nullopt;
  const int whole = WholeServersNeeded(gpus, per_server);
  if (whole == 0) {
    for (int s = 0; s < allocation.servers(); ++s) {
      if (allocation.free_on_server(s) < gpus) continue;
      std::vector<GpuId> free = allocation.FreeGpusOnServer(s);
      free.resize(static_cast<size_t>(gpus));
      return free;
    }
    return std::nullopt;
  }
  std::vector<int> servers;
  for (int s = 0; s < allocation.servers() && static_cast<int>(servers.size()) < whole; ++s) {
    if (allocation.server_fully_free(s)) servers.push_back(s);
  }
  if (static_cast<int>(servers.size()) < whole) return std::nullopt;
  return GpusOfServers(servers, gpus, per_server);
}

}  // namespace aifabric
