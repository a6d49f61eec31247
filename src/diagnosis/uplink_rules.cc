// The uplink rules: a switch whose uplinks are all full because its lower
// tier offers more than they carry (oversubscribed_uplink), and one full
// uplink beside an idle sibling (ecmp_collision). See diagnosis.h.
#include <algorithm>
#include <utility>

#include "diagnosis/rules.h"

namespace aifabric {
namespace {

// The uplink with the highest utilization; ties: lowest port id.
PortId MostUtilized(const DiagnosisContext& ctx, const std::vector<PortId>& ports) {
  PortId best = ports.front();
  for (PortId p : ports) {
    if (ctx.port(p).utilization > ctx.port(best).utilization) best = p;
  }
  return best;
}

// What switch `s` offered upward against its uplinks' capacity.
struct Offered {
  std::vector<int> transfers;  // leaving through an uplink of s
  uint64_t bytes = 0;
  double demand_ratio = 0;     // peak summed standalone rate / capacity
  double ingress_ratio = 0;    // rate of the ports they entered s by / capacity
  uint64_t capacity_bps = 0;
};

Offered OfferedUpward(const DiagnosisContext& ctx, NodeId s, const std::vector<PortId>& uplinks) {
  const Topology& topo = ctx.topology();
  Offered o;
  for (PortId p : uplinks) {
    o.capacity_bps += topo.port(p).rate.bps();
    o.transfers.insert(o.transfers.end(), ctx.transfers_on(p).begin(), ctx.transfers_on(p).end());
  }
  std::sort(o.transfers.begin(), o.transfers.end());
  o.transfers.erase(std::unique(o.transfers.begin(), o.transfers.end()), o.transfers.end());
  std::vector<PortId> ingress;
  // (time, change of the summed standalone rate in bps); ends sort first.
  std::vector<std::pair<int64_t, int64_t>> rate_steps;
  for (int t : o.transfers) {
    const TransferObservation& tr = ctx.observation().transfers[t];
    PortId entered = kNoPort;
    for (size_t i = 1; i < tr.path.size(); ++i) {
      const PortId p = tr.path[i], before = tr.path[i - 1];
      if (p >= 0 && static_cast<size_t>(p) < ctx.num_ports() && topo.port(p).node == s && before >= 0 &&
          static_cast<size_t>(before) < ctx.num_ports()) {
        entered = before;
        break;
      }
    }
    if (entered == kNoPort) continue;  // started at s itself: not offered by its lower tier
    ingress.push_back(entered);
    o.bytes += tr.bytes;
    // Its standalone time: the ideal FCT, else its bytes at the ingress rate.
    const Time alone = tr.ideal.ps() > 0 ? tr.ideal : topo.port(entered).rate.TransmitTime(tr.bytes);
    if (alone.ps() <= 0) continue;
    const auto bps = static_cast<int64_t>(static_cast<double>(tr.bytes) * 8e12 / static_cast<double>(alone.ps()));
    rate_steps.emplace_back(tr.start.ps(), bps);
    rate_steps.emplace_back((tr.start + alone).ps(), -bps);
  }
  std::sort(rate_steps.begin(), rate_steps.end());
  int64_t rate = 0, peak_rate = 0;
  for (const auto& [time, step] : rate_steps) peak_rate = std::max(peak_rate, rate += step);
  std::sort(ingress.begin(), ingress.end());
  ingress.erase(std::unique(ingress.begin(), ingress.end()), ingress.end());
  uint64_t ingress_bps = 0;
  for (PortId p : ingress) ingress_bps += topo.port(p).rate.bps();
  const double capacity = static_cast<double>(o.capacity_bps);
  if (capacity > 0) {
    o.demand_ratio = static_cast<double>(peak_rate) / capacity;
    o.ingress_ratio = static_cast<double>(ingress_bps) / capacity;
  }
  return o;
}

nlohmann::ordered_json Utilizations(const DiagnosisContext& ctx, const std::vector<PortId>& ports) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (PortId p : ports) {
    nlohmann::ordered_json entry = ctx.PortName(p);
    entry["utilization"] = Round4(ctx.port(p).utilization);
    list.push_back(std::move(entry));
  }
  return list;
}

}  // namespace

std::vector<Candidate> FindOversubscribedUplinks(const DiagnosisContext& ctx) {
  std::vector<Candidate> out;
  for (NodeId s : ctx.topology().switches()) {
    const std::vector<PortId> uplinks = ctx.Uplinks(s);
    if (uplinks.empty()) continue;
    const bool all_busy = std::all_of(uplinks.begin(), uplinks.end(), [&](PortId p) {
      return ctx.port(p).utilization >= ctx.options().uplinks_together_utilization;
    });
    if (!all_busy) continue;
    Offered offered = OfferedUpward(ctx, s, uplinks);
    const double ratio = std::min(offered.demand_ratio, offered.ingress_ratio);
    if (ratio <= 1) continue;
    const PortId named = MostUtilized(ctx, uplinks);
    Candidate c = MakeCandidate(ctx, kOversubscribedUplink, named, 0.5 + 0.5 * (1 - 1 / ratio),
                                std::move(offered.transfers));
    nlohmann::ordered_json& e = c.finding.evidence;
    e["offered_ratio"] = Round4(ratio);
    e["demand_ratio"] = Round4(offered.demand_ratio);
    e["ingress_ratio"] = Round4(offered.ingress_ratio);
    e["offered_bytes"] = offered.bytes;
    e["uplink_capacity_gbps"] = Round4(static_cast<double>(offered.capacity_bps) / 1e9);
    e["uplinks"] = Utilizations(ctx, uplinks);
    for (PortId p : uplinks) {
      if (p != named) c.covers.push_back(p);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<Candidate> FindEcmpCollisions(const DiagnosisContext& ctx) {
  std::vector<Candidate> out;
  for (NodeId s : ctx.topology().switches()) {
    const std::vector<PortId> uplinks = ctx.Uplinks(s);
    if (uplinks.size() < 2) continue;
    for (PortId p : uplinks) {
      if (!ctx.IsSaturated(p) || ctx.transfers_on(p).size() < 2) continue;
      PortId idlest = kNoPort;  // the sibling that sent the least; ties: lowest id
      for (PortId q : uplinks) {
        if (q != p && (idlest == kNoPort || ctx.port(q).tx_bytes < ctx.port(idlest).tx_bytes)) idlest = q;
      }
      const double bytes = static_cast<double>(ctx.port(p).tx_bytes);
      const double sibling_bytes = static_cast<double>(ctx.port(idlest).tx_bytes);
      if (!(sibling_bytes < ctx.options().collision_sibling_share * bytes)) continue;
      const double severity = 0.5 + 0.5 * std::min(1.0, ctx.port(p).utilization) * (1 - sibling_bytes / bytes);
      Candidate c = MakeCandidate(ctx, kEcmpCollision, p, severity, ctx.transfers_on(p));
      nlohmann::ordered_json& e = c.finding.evidence;
      e["transfers"] = ctx.transfers_on(p).size();
      nlohmann::ordered_json sibling = ctx.PortName(idlest);
      sibling["utilization"] = Round4(ctx.port(idlest).utilization);
      sibling["tx_bytes"] = ctx.port(idlest).tx_bytes;
      e["idlest_sibling"] = std::move(sibling);
      e["siblings"] = uplinks.size() - 1;
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace aifabric
