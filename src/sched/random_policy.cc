#include "sched/random_policy.h"

#include <algorithm>
#include <utility>

namespace aifabric {
namespace {

// Moves a uniformly random k-subset of `items` to its front (a partial
// Fisher-Yates shuffle) and drops the rest. REQUIRES: k <= items.size().
template <typename T>
void KeepRandomSubset(std::vector<T>& items, size_t k, Rng& rng) {
  for (size_t i = 0; i < k; ++i) {
    const size_t j = i + static_cast<size_t>(rng.Below(items.size() - i));
    std::swap(items[i], items[j]);
  }
  items.resize(k);
}

}  // namespace

std::optional<std::vector<GpuId>> RandomPolicy::Place(const PlacementRequest& request,
                                                      const GpuAllocation& allocation) {
  const int gpus = request.gpus;
  const int per_server = allocation.gpus_per_server();
  if (gpus < 1 || gpus > allocation.free_count()) return std::nullopt;
  const int whole = WholeServersNeeded(gpus, per_server);
  std::vector<int> candidates;
  for (int s = 0; s < allocation.servers(); ++s) {
    if (whole == 0 ? allocation.free_on_server(s) >= gpus : allocation.server_fully_free(s)) {
      candidates.push_back(s);
    }
  }
  if (whole == 0) {
    if (candidates.empty()) return std::nullopt;
    const int server = candidates[static_cast<size_t>(rng_.Below(candidates.size()))];
    std::vector<GpuId> free = allocation.FreeGpusOnServer(server);
    KeepRandomSubset(free, static_cast<size_t>(gpus), rng_);
    std::sort(free.begin(), free.end());
    return free;
  }
  if (static_cast<int>(candidates.size()) < whole) return std::nullopt;
  KeepRandomSubset(candidates, static_cast<size_t>(whole), rng_);
  // The partial last server (if any) is a random one of the chosen.
  return GpusOfServers(candidates, gpus, per_server);
}

}  // namespace aifabric
