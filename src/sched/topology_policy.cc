#include "sched/topology_policy.h"

#include <algorithm>
#include <cassert>

namespace aifabric {
namespace {

// Index of the best-fit entry: the smallest free count >= need, ties to the
// lowest index; -1 if none fits.
int BestFit(const std::vector<int>& free, int need) {
  int best = -1;
  for (size_t i = 0; i < free.size(); ++i) {
    if (free[i] < need) continue;
    if (best < 0 || free[i] < free[static_cast<size_t>(best)]) best = static_cast<int>(i);
  }
  return best;
}

}  // namespace

TopologyPolicy::TopologyPolicy(const Topology& topology, const ClusterLayout& layout)
    : distance_(topology, layout) {}

std::optional<std::vector<GpuId>> TopologyPolicy::Place(const PlacementRequest& request,
                                                        const GpuAllocation& allocation) {
  const int gpus = request.gpus;
  const int per_server = allocation.gpus_per_server();
  if (gpus < 1 || gpus > allocation.free_count()) return std::nullopt;
  assert(allocation.servers() == distance_.servers());
  const int whole = WholeServersNeeded(gpus, per_server);

  if (whole == 0) {
    std::vector<int> free(static_cast<size_t>(allocation.servers()));
    for (int s = 0; s < allocation.servers(); ++s) free[static_cast<size_t>(s)] = allocation.free_on_server(s);
    const int server = BestFit(free, gpus);
    if (server < 0) return std::nullopt;
    std::vector<GpuId> out = allocation.FreeGpusOnServer(server);
    out.resize(static_cast<size_t>(gpus));
    return out;
  }

  // Whole free servers per leaf group and per pod.
  std::vector<int> group_free(static_cast<size_t>(distance_.leaf_groups()), 0);
  std::vector<int> pod_free(static_cast<size_t>(distance_.pods()), 0);
  for (int s = 0; s < allocation.servers(); ++s) {
    if (!allocation.server_fully_free(s)) continue;
    ++group_free[static_cast<size_t>(distance_.leaf_group_of(s))];
    ++pod_free[static_cast<size_t>(distance_.pod_of(s))];
  }

  std::vector<int> servers;
  // Takes free servers of `group` in id order until the job has enough.
  auto take_from_group = [&](int group) {
    for (int s : distance_.group_servers(group)) {
      if (static_cast<int>(servers.size()) == whole) return;
      if (allocation.server_fully_free(s)) servers.push_back(s);
    }
  };
  // Takes from `groups` with the most free servers first, ties lowest id.
  auto fill_groups = [&](std::vector<int> groups) {
    std::stable_sort(groups.begin(), groups.end(), [&](int a, int b) {
      return group_free[static_cast<size_t>(a)] > group_free[static_cast<size_t>(b)];
    });
    for (int g : groups) take_from_group(g);
  };

  if (const int group = BestFit(group_free, whole); group >= 0) {
    take_from_group(group);
  } else if (const int pod = BestFit(pod_free, whole); pod >= 0) {
    fill_groups(distance_.pod_groups(pod));
  } else {
    // Across pods: the pods with the most free servers first, ties lowest id.
    std::vector<int> pods(static_cast<size_t>(distance_.pods()));
    for (size_t p = 0; p < pods.size(); ++p) pods[p] = static_cast<int>(p);
    std::stable_sort(pods.begin(), pods.end(), [&](int a, int b) {
      return pod_free[static_cast<size_t>(a)] > pod_free[static_cast<size_t>(b)];
    });
    for (int p : pods) fill_groups(distance_.pod_groups(p));
  }
  if (static_cast<int>(servers.size()) < whole) return std::nullopt;
  return GpusOfServers(servers, gpus, per_server);
}

}  // namespace aifabric
