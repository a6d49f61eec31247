#include "sched/network_aware_policy.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

namespace aifabric {
namespace {

using Uplink = NetworkAwarePolicy::Uplink;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// The switches at `tier` that `nodes` link to, ascending, once each.
std::vector<NodeId> PeersAtTier(const Topology& topology, std::span<const NodeId> nodes, int tier) {
  std::vector<NodeId> peers;
  for (NodeId n : nodes) {
    for (PortId p : topology.node(n).ports) {
      const Node& peer = topology.node(topology.port(p).peer);
      if (peer.kind == NodeKind::kSwitch && peer.tier == tier) peers.push_back(peer.id);
    }
  }
  std::sort(peers.begin(), peers.end());
  peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
  return peers;
}

// The ports from `switches` to switches at `upper_tier`.
std::vector<Uplink> UplinksTo(const Topology& topology, std::span<const NodeId> switches, int upper_tier) {
  std::vector<Uplink> out;
  for (NodeId n : switches) {
    for (PortId p : topology.node(n).ports) {
      const Port& port = topology.port(p);
      const Node& peer = topology.node(port.peer);
      if (peer.kind == NodeKind::kSwitch && peer.tier == upper_tier) {
        out.push_back({p, static_cast<double>(port.rate.bps()) / 8.0});
      }
    }
  }
  return out;
}

// The tier-1 switches of each leaf group (all its servers share them).
std::vector<std::vector<NodeId>> GroupLeaves(const Topology& topology, const ClusterLayout& layout,
                                             const TopologyDistance& distance) {
  std::vector<std::vector<NodeId>> out(static_cast<size_t>(distance.leaf_groups()));
  for (int g = 0; g < distance.leaf_groups(); ++g) {
    out[static_cast<size_t>(g)] = PeersAtTier(topology, layout.nics(distance.group_servers(g).front()), 1);
  }
  return out;
}

std::vector<std::vector<PortId>> NicPorts(const Topology& topology, const ClusterLayout& layout) {
  std::vector<std::vector<PortId>> out(static_cast<size_t>(layout.servers()));
  for (int s = 0; s < layout.servers(); ++s) {
    for (NodeId nic : layout.nics(s)) {
      for (PortId p : topology.node(nic).ports) out[static_cast<size_t>(s)].push_back(p);
    }
  }
  return out;
}

std::vector<std::vector<Uplink>> GroupUplinks(const Topology& topology, const ClusterLayout& layout,
                                              const TopologyDistance& distance) {
  std::vector<std::vector<Uplink>> out;
  for (const std::vector<NodeId>& leaves : GroupLeaves(topology, layout, distance)) {
    out.push_back(UplinksTo(topology, leaves, 2));
  }
  return out;
}

std::vector<std::vector<Uplink>> PodUplinks(const Topology& topology, const ClusterLayout& layout,
                                            const TopologyDistance& distance) {
  const std::vector<std::vector<NodeId>> group_leaves = GroupLeaves(topology, layout, distance);
  std::vector<std::vector<Uplink>> out;
  for (int p = 0; p < distance.pods(); ++p) {
    std::vector<NodeId> leaves;
    for (int g : distance.pod_groups(p)) {
      const std::vector<NodeId>& l = group_leaves[static_cast<size_t>(g)];
      leaves.insert(leaves.end(), l.begin(), l.end());
    }
    out.push_back(UplinksTo(topology, PeersAtTier(topology, leaves, 2), 3));
  }
  return out;
}

// Both directions of the port's link are up.
bool LinkUp(const FabricLoad& load, PortId port) { return load.PortUp(port) && load.PortUp(port ^ 1); }

// A domain's (leaf group's or pod's) uplinks as they are now.
struct UplinkState {
  double load = 0;               // largest PortLoad over both directions of its live links
  double live_bytes_per_s = 0;   // capacity of its live links, per direction
  double total_bytes_per_s = 0;  // of all its links
  bool known() const { return total_bytes_per_s > 0; }
  bool cut_off() const { return known() && live_bytes_per_s <= 0; }
};

std::vector<UplinkState> ReadUplinks(const std::vector<std::vector<Uplink>>& domains, const FabricLoad& load) {
  std::vector<UplinkState> out(domains.size());
  for (size_t d = 0; d < domains.size(); ++d) {
    UplinkState& st = out[d];
    for (const Uplink& u : domains[d]) {
      st.total_bytes_per_s += u.bytes_per_s;
      if (!LinkUp(load, u.port)) continue;
      st.live_bytes_per_s += u.bytes_per_s;
      st.load = std::max({st.load, load.PortLoad(u.port), load.PortLoad(u.port ^ 1)});
    }
  }
  return out;
}

// The header's ranking; lower is better.
struct Score {
  double overload = 0;
  int tiers = 0;
  double peak_utilization = 0;
  int64_t storage_gpu_tiers = 0;
  int leftover_servers = 0;
  bool operator<(const Score& o) const {
    return std::tie(overload, tiers, peak_utilization, storage_gpu_tiers, leftover_servers) <
           std::tie(o.overload, o.tiers, o.peak_utilization, o.storage_gpu_tiers, o.leftover_servers);
  }
};

// One Place call of a multi-server job: builds the candidates, scores them
// and keeps the best. Lives for one call.
class WholeServerSearch {
 public:
  WholeServerSearch(const TopologyDistance& distance, const PlacementRequest& request, int gpus_per_server,
                    std::vector<char> usable, std::vector<UplinkState> group_links,
                    std::vector<UplinkState> pod_links, std::span<const int> storage_servers)
      : distance_(distance),
        gpus_(request.gpus),
        per_server_(gpus_per_server),
        whole_(WholeServersNeeded(request.gpus, gpus_per_server)),
        fabric_bytes_per_s_per_gpu_(request.fabric_bytes_per_s_per_gpu),
        // Storage bytes count only when there is storage to send them to.
        storage_bytes_per_s_per_gpu_(storage_servers.empty() ? 0.0 : request.storage_bytes_per_s_per_gpu),
        usable_(std::move(usable)),
        group_links_(std::move(group_links)),
        pod_links_(std::move(pod_links)),
        group_free_(static_cast<size_t>(distance.leaf_groups()), 0),
        pod_free_(static_cast<size_t>(distance.pods()), 0),
        group_has_storage_(static_cast<size_t>(distance.leaf_groups()), 0),
        pod_has_storage_(static_cast<size_t>(distance.pods()), 0),
        group_gpus_(static_cast<size_t>(distance.leaf_groups()), 0),
        pod_gpus_(static_cast<size_t>(distance.pods()), 0),
        group_out_(static_cast<size_t>(distance.leaf_groups()), 0.0),
        pod_out_(static_cast<size_t>(distance.pods()), 0.0) {
    for (int s : storage_servers) {
      if (s < 0 || s >= distance.servers()) continue;
      group_has_storage_[static_cast<size_t>(distance.leaf_group_of(s))] = 1;
      pod_has_storage_[static_cast<size_t>(distance.pod_of(s))] = 1;
    }
    for (int s = 0; s < distance.servers(); ++s) {
      if (!usable_[static_cast<size_t>(s)]) continue;
      ++group_free_[static_cast<size_t>(distance.leaf_group_of(s))];
      ++pod_free_[static_cast<size_t>(distance.pod_of(s))];
      ++total_free_;
    }
    const double unit_bytes_per_s = (fabric_bytes_per_s_per_gpu_ + storage_bytes_per_s_per_gpu_) * per_server_;
    for (const UplinkState& st : group_links_) group_heat_.push_back(Heat(st, unit_bytes_per_s));
    for (const UplinkState& st : pod_links_) pod_heat_.push_back(Heat(st, unit_bytes_per_s));
  }

  // The best candidate's servers, in the order they take the job's GPUs;
  // nullopt when none fits.
  std::optional<std::vector<int>> Best() {
    if (total_free_ < whole_) return std::nullopt;
    for (int g = 0; g < distance_.leaf_groups(); ++g) {
      const int free = group_free_[static_cast<size_t>(g)];
      if (free >= whole_) Consider(Fill(std::span<const int>(&g, 1)), free);
    }
    for (int p = 0; p < distance_.pods(); ++p) {
      const int free = pod_free_[static_cast<size_t>(p)];
      if (free < whole_) continue;
      Consider(Fill(Packed(distance_.pod_groups(p))), free);
      Consider(Fill(Coolest(distance_.pod_groups(p), /*across_pods=*/false)), free);
    }
    // The whole cluster. Packed: pods with the most usable servers first,
    // each filled packed. Coolest: every group by heat.
    std::vector<int> pods(static_cast<size_t>(distance_.pods()));
    for (size_t p = 0; p < pods.size(); ++p) pods[p] = static_cast<int>(p);
    std::stable_sort(pods.begin(), pods.end(), [&](int a, int b) {
      return pod_free_[static_cast<size_t>(a)] > pod_free_[static_cast<size_t>(b)];
    });
    std::vector<int> packed;
    for (int p : pods) {
      const std::vector<int> groups = Packed(distance_.pod_groups(p));
      packed.insert(packed.end(), groups.begin(), groups.end());
    }
    Consider(Fill(packed), total_free_);
    std::vector<int> all(static_cast<size_t>(distance_.leaf_groups()));
    for (size_t g = 0; g < all.size(); ++g) all[g] = static_cast<int>(g);
    Consider(Fill(Coolest(std::move(all), /*across_pods=*/true)), total_free_);
    return best_servers_;
  }

 private:
  // What a domain's busiest uplink would carry with one more server of the
  // job on it (header: "heat").
  static double Heat(const UplinkState& st, double unit_bytes_per_s) {
    if (!st.known() || unit_bytes_per_s <= 0) return st.load;
    if (st.cut_off()) return kInfinity;
    return st.load + unit_bytes_per_s / st.live_bytes_per_s;
  }

  // Groups with the most usable servers first, ties in the given order.
  std::vector<int> Packed(std::vector<int> groups) const {
    std::stable_sort(groups.begin(), groups.end(), [&](int a, int b) {
      return group_free_[static_cast<size_t>(a)] > group_free_[static_cast<size_t>(b)];
    });
    return groups;
  }

  // Coolest groups first (across pods: the hotter of group and pod), then
  // the most usable servers, ties in the given order.
  std::vector<int> Coolest(std::vector<int> groups, bool across_pods) const {
    auto heat = [&](int g) {
      const double own = group_heat_[static_cast<size_t>(g)];
      return across_pods ? std::max(own, pod_heat_[static_cast<size_t>(distance_.pod_of_group(g))]) : own;
    };
    std::stable_sort(groups.begin(), groups.end(), [&](int a, int b) {
      const double ha = heat(a), hb = heat(b);
      if (ha != hb) return ha < hb;
      return group_free_[static_cast<size_t>(a)] > group_free_[static_cast<size_t>(b)];
    });
    return groups;
  }

  // Usable servers of `groups`, in that order and id order inside each,
  // until the job has enough. REQUIRES: the groups hold enough.
  std::vector<int> Fill(std::span<const int> groups) const {
    std::vector<int> servers;
    servers.reserve(static_cast<size_t>(whole_));
    for (int g : groups) {
      for (int s : distance_.group_servers(g)) {
        if (static_cast<int>(servers.size()) == whole_) return servers;
        if (usable_[static_cast<size_t>(s)]) servers.push_back(s);
      }
    }
    assert(static_cast<int>(servers.size()) == whole_);
    return servers;
  }

  void Consider(std::vector<int> servers, int domain_free) {
    const std::optional<Score> score = Evaluate(servers, domain_free);
    if (!score) return;
    if (!best_servers_ || *score < best_score_) {
      best_score_ = *score;
      best_servers_ = std::move(servers);
    }
  }

  // Tiers from `server` to the nearest storage server (never 0: storage
  // servers take no jobs).
  int StorageTiers(int server) const {
    if (group_has_storage_[static_cast<size_t>(distance_.leaf_group_of(server))]) return 1;
    if (pod_has_storage_[static_cast<size_t>(distance_.pod_of(server))]) return 2;
    return 3;
  }

  // The candidate's score (header: "The load a candidate would see" and
  // "Ranking"); nullopt when it cuts the job off. O(its servers).
  std::optional<Score> Evaluate(const std::vector<int>& servers, int domain_free) {
    const double f = fabric_bytes_per_s_per_gpu_;
    const double storage = storage_bytes_per_s_per_gpu_;
    // GPUs per server: the first gpus_ in server order (GpusOfServers).
    std::vector<int> gpus_on(servers.size());
    std::vector<size_t> groups, pods;  // touched, once each
    int left = gpus_;
    for (size_t i = 0; i < servers.size(); ++i) {
      gpus_on[i] = std::min(per_server_, left);
      left -= gpus_on[i];
      const auto g = static_cast<size_t>(distance_.leaf_group_of(servers[i]));
      const auto p = static_cast<size_t>(distance_.pod_of(servers[i]));
      if (group_gpus_[g] == 0) groups.push_back(g);
      if (pod_gpus_[p] == 0) pods.push_back(p);
      group_gpus_[g] += gpus_on[i];
      pod_gpus_[p] += gpus_on[i];
    }
    Score score;
    score.tiers = servers.size() == 1 ? 0 : groups.size() == 1 ? 1 : pods.size() == 1 ? 2 : 3;
    score.leftover_servers = domain_free - whole_;

    // Traffic out of each touched group and pod.
    const double n = gpus_;
    for (size_t i = 0; i < servers.size(); ++i) {
      const double m = gpus_on[i];
      if (f <= 0 || m >= n) continue;
      const auto g = static_cast<size_t>(distance_.leaf_group_of(servers[i]));
      const auto p = static_cast<size_t>(distance_.pod_of(servers[i]));
      group_out_[g] += m * f * (n - group_gpus_[g]) / (n - m);
      pod_out_[p] += m * f * (n - pod_gpus_[p]) / (n - m);
    }
    if (storage > 0) {
      for (size_t g : groups) {
        if (!group_has_storage_[g]) group_out_[g] += storage * group_gpus_[g];
      }
      for (size_t p : pods) {
        if (!pod_has_storage_[p]) pod_out_[p] += storage * pod_gpus_[p];
      }
      for (size_t i = 0; i < servers.size(); ++i) {
        score.storage_gpu_tiers += int64_t{gpus_on[i]} * StorageTiers(servers[i]);
      }
    }

    // The highest utilization over the crossed uplinks; scratch reset.
    bool cut_off = false;
    double peak = 0;
    auto cross = [&](const UplinkState& st, double& out, int& gpus) {
      if (out > 0 && st.known()) {
        if (st.cut_off()) {
          cut_off = true;
        } else {
          peak = std::max(peak, st.load + out / st.live_bytes_per_s);
        }
      }
      out = 0;
      gpus = 0;
    };
    for (size_t g : groups) cross(group_links_[g], group_out_[g], group_gpus_[g]);
    for (size_t p : pods) cross(pod_links_[p], pod_out_[p], pod_gpus_[p]);
    if (cut_off) return std::nullopt;
    score.peak_utilization = peak;
    score.overload = std::max(0.0, peak - 1.0);
    return score;
  }

  // Fixed for the call.
  const TopologyDistance& distance_;
  const int gpus_;
  const int per_server_;
  const int whole_;
  const double fabric_bytes_per_s_per_gpu_;
  const double storage_bytes_per_s_per_gpu_;
  const std::vector<char> usable_;  // per server: fully free, NIC links up, not storage
  const std::vector<UplinkState> group_links_;
  const std::vector<UplinkState> pod_links_;
  std::vector<int> group_free_, pod_free_;  // usable servers per domain
  int total_free_ = 0;
  std::vector<char> group_has_storage_, pod_has_storage_;
  std::vector<double> group_heat_, pod_heat_;
  // Scratch of Evaluate, zero between calls.
  std::vector<int> group_gpus_, pod_gpus_;
  std::vector<double> group_out_, pod_out_;
  // The best so far.
  std::optional<std::vector<int>> best_servers_;
  Score best_score_;
};

}  // namespace

NetworkAwarePolicy::NetworkAwarePolicy(const Topology& topology, const ClusterLayout& layout, const FabricLoad& load)
    : load_(load),
      distance_(topology, layout),
      server_nic_ports_(NicPorts(topology, layout)),
      group_uplinks_(GroupUplinks(topology, layout, distance_)),
      pod_uplinks_(PodUplinks(topology, layout, distance_)) {}

std::optional<std::vector<GpuId>> NetworkAwarePolicy::Place(const PlacementRequest& request,
                                                            const GpuAllocation& allocation) {
  const int gpus = request.gpus;
  const int per_server = allocation.gpus_per_server();
  if (gpus < 1 || gpus > allocation.free_count()) return std::nullopt;
  assert(allocation.servers() == distance_.servers());
  assert(request.fabric_bytes_per_s_per_gpu >= 0 && request.storage_bytes_per_s_per_gpu >= 0);
  const int whole = WholeServersNeeded(gpus, per_server);

  // Servers that may take GPUs: not storage, every NIC link up, and (for a
  // multi-server job) fully free.
  const std::span<const int> storage = load_.StorageServers();
  std::vector<char> usable(static_cast<size_t>(allocation.servers()), 1);
  for (int s : storage) {
    if (s >= 0 && s < allocation.servers()) usable[static_cast<size_t>(s)] = 0;
  }
  for (int s = 0; s < allocation.servers(); ++s) {
    char& u = usable[static_cast<size_t>(s)];
    if (whole > 0 && !allocation.server_fully_free(s)) u = 0;
    for (PortId p : server_nic_ports_[static_cast<size_t>(s)]) {
      if (!u) break;
      if (!LinkUp(load_, p)) u = 0;
    }
  }

  if (whole == 0) {
    // Best fit: the usable server with the fewest free GPUs that hold it.
    int best = -1;
    for (int s = 0; s < allocation.servers(); ++s) {
      const int free = allocation.free_on_server(s);
      if (!usable[static_cast<size_t>(s)] || free < gpus) continue;
      if (best < 0 || free < allocation.free_on_server(best)) best = s;
    }
    if (best < 0) return std::nullopt;
    std::vector<GpuId> out = allocation.FreeGpusOnServer(best);
    out.resize(static_cast<size_t>(gpus));
    return out;
  }

  WholeServerSearch search(distance_, request, per_server, std::move(usable), ReadUplinks(group_uplinks_, load_),
                           ReadUplinks(pod_uplinks_, load_), storage);
  const std::optional<std::vector<int>> servers = search.Best();
  if (!servers) return std::nullopt;
  return GpusOfServers(*servers, gpus, per_server);
}

}  // namespace aifabric
