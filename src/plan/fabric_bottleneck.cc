#include "plan/fabric_bottleneck.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "fabric/host_distance.h"
#include "plan/bill_of_materials.h"

namespace aifabric {

FabricBottleneck FindFabricBottleneck(const Topology& t, const FabricNetwork& network, Time span) {
  FabricBottleneck b;
  const std::vector<int> distance = HostDistances(t);
  auto tier_of = [&](NodeId n) {
    const Node& node = t.node(n);
    if (node.kind == NodeKind::kHost) return 0;
    return node.tier >= 0 ? node.tier : distance[static_cast<size_t>(n)];
  };
  int tiers = 0;
  for (NodeId s : t.switches()) tiers = std::max(tiers, tier_of(s));
  auto end_name = [&](int tier) { return tier == 0 ? std::string("host") : TierName(tier, tiers); };
  std::map<std::pair<int, int>, TierLoad> by_tier;
  const double span_s = span.seconds();
  for (const Port& p : t.ports()) {
    if (p.rate.bps() == 0) continue;
    const double busy = static_cast<double>(network.LinkCounters(p.id).tx_bytes) * 8 /
                        (static_cast<double>(p.rate.bps()) * span_s);
    const int a = tier_of(p.node), z = tier_of(p.peer);
    const std::pair<int, int> key{std::min(a, z), std::max(a, z)};
    TierLoad& load = by_tier[key];
    if (load.links == 0) load.tier = end_name(key.first) + "-" + end_name(key.second);
    ++load.links;
    load.mean_busy += busy;
    load.max_busy = std::max(load.max_busy, busy);
    if (busy > b.busy) {
      b.busy = busy;
      b.link = t.node(p.node).name + " -> " + t.node(p.peer).name;
      b.tier = load.tier;
    }
  }
  for (auto& [key, load] : by_tier) {
    load.mean_busy /= load.links;
    b.tiers.push_back(load);
  }
  return b;
}

std::string BottleneckWords(const FabricBottleneck& b) {
  if (b.link.empty()) return "no fabric link carried traffic";
  return b.tier + " (" + b.link + ", " + std::to_string(static_cast<int>(std::lround(100 * b.busy))) +
         "% busy over the step)";
}

Status BottleneckRecorder::OnJobFinished(const FinishedJob& job) {
  const Time span = job.result.makespan;
  if (span <= Time()) {
    jobs_.push_back({});
    return Status::Ok();
  }
  jobs_.push_back(FindFabricBottleneck(job.simulation.topology(), job.simulation.network(), span));
  return Status::Ok();
}

}  // namespace aifabric
