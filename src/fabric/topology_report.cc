#include "fabric/topology_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/units.h"

namespace aifabric {

TopologyReport MakeTopologyReport(const Topology& topology) {
  TopologyReport r;
  const int top = topology.max_tier();
  r.hosts = static_cast<int>(topology.hosts().size());
  r.links = static_cast<int>(topology.num_links());
  r.tiers.resize(top);
  for (int t = 0; t < top; ++t) r.tiers[t].tier = t + 1;
  r.crossing_gbps.assign(top, 0.0);
  for (const Node& n : topology.nodes()) {
    if (n.kind != NodeKind::kSwitch) continue;
    ++r.switches;
    if (n.tier >= 1) {
      ++r.tiers[n.tier - 1].switches;
    } else {
      ++r.unknown_tier_switches;
    }
  }
  for (const SwitchSpec& s : topology.switch_specs()) r.switch_specs.push_back(s.name);
  std::vector<NodeId> peers;
  for (NodeId h : topology.hosts()) {
    const int links = static_cast<int>(topology.node(h).ports.size());
    r.min_host_links = h == topology.hosts().front() ? links : std::min(r.min_host_links, links);
    r.max_host_links = std::max(r.max_host_links, links);
    peers.clear();
    for (PortId p : topology.node(h).ports) peers.push_back(topology.port(p).peer);
    std::sort(peers.begin(), peers.end());
    const int distinct = static_cast<int>(std::unique(peers.begin(), peers.end()) - peers.begin());
    r.max_host_switches = std::max(r.max_host_switches, distinct);
  }

  auto tier_of = [&](NodeId id) {
    const Node& n = topology.node(id);
    return n.kind == NodeKind::kHost ? 0 : n.tier;
  };
  for (size_t p = 0; p < topology.ports().size(); p += 2) {
    const Port& port = topology.ports()[p];
    const double gbps = port.rate.gbps();
    const int a = tier_of(port.node), b = tier_of(port.peer);
    if (a == 0) r.host_bandwidth_gbps += gbps;
    if (b == 0) r.host_bandwidth_gbps += gbps;
    if (a < 0 || b < 0 || (a - b != 1 && b - a != 1)) continue;
    const int lower = std::min(a, b), upper = std::max(a, b);
    r.crossing_gbps[lower] += gbps;
    r.tiers[upper - 1].down_gbps += gbps;
    if (lower >= 1) r.tiers[lower - 1].up_gbps += gbps;
  }
  for (TierReport& t : r.tiers) {
    t.has_uplinks = t.up_gbps > 0;
    t.oversubscription = t.has_uplinks ? t.down_gbps / t.up_gbps : 0;
  }
  if (!r.crossing_gbps.empty()) {
    r.bisection_gbps = *std::min_element(r.crossing_gbps.begin(), r.crossing_gbps.end()) / 2;
  }
  return r;
}

namespace {

std::string Gbps(double gbps) {
  return FormatRate(DataRate::BitsPerSecond(static_cast<uint64_t>(gbps * 1e9 + 0.5)));
}

std::string TierName(int tier, int top) {
  if (tier == 1) return "leaf";
  if (tier == top && top >= 3) return "core";
  if (tier == 2) return top >= 3 ? "agg" : "spine";
  return "tier" + std::to_string(tier);
}

}  // namespace

std::string FormatReport(const TopologyReport& r) {
  std::string out;
  char line[256];
  const int top = static_cast<int>(r.tiers.size());
  out += "hosts " + std::to_string(r.hosts) + ", switches " + std::to_string(r.switches);
  if (!r.tiers.empty() || r.unknown_tier_switches > 0) {
    std::string parts;
    for (const TierReport& t : r.tiers) {
      parts += (parts.empty() ? "" : ", ") + TierName(t.tier, top) + " " + std::to_string(t.switches);
    }
    if (r.unknown_tier_switches > 0) {
      parts += (parts.empty() ? "" : ", ") + std::string("unknown tier ") + std::to_string(r.unknown_tier_switches);
    }
    out += " (" + parts + ")";
  }
  out += ", links " + std::to_string(r.links) + "\n";
  if (!r.switch_specs.empty()) {
    std::string specs;
    for (const std::string& s : r.switch_specs) specs += (specs.empty() ? "" : ", ") + s;
    out += "switch: " + specs + "\n";
  }
  out += "host bandwidth: " + Gbps(r.host_bandwidth_gbps) + "\n";
  if (r.max_host_links > 1) {
    const std::string links = r.min_host_links == r.max_host_links
                                  ? std::to_string(r.max_host_links)
                                  : std::to_string(r.min_host_links) + " to " + std::to_string(r.max_host_links);
    out += "host links: " + links + " per NIC, to up to " + std::to_string(r.max_host_switches) +
           " switches (multi-homed)\n";
  }
  out += "bisection bandwidth: " + Gbps(r.bisection_gbps) + " (half the narrowest tier crossing)\n";
  std::snprintf(line, sizeof line, "%-6s %-6s %9s %12s %12s  %s\n", "tier", "name", "switches", "down", "up",
                "oversubscription");
  out += line;
  for (const TierReport& t : r.tiers) {
    char ratio[32];
    if (t.has_uplinks) {
      // One decimal ("3.0") unless that would hide a difference (1.33).
      const bool one_decimal = std::fabs(t.oversubscription * 10 - std::round(t.oversubscription * 10)) < 1e-6;
      std::snprintf(ratio, sizeof ratio, one_decimal ? "%.1f" : "%.2f", t.oversubscription);
    } else {
      std::snprintf(ratio, sizeof ratio, "- (no uplinks)");
    }
    std::snprintf(line, sizeof line, "%-6d %-6s %9d %12s %12s  %s\n", t.tier, TierName(t.tier, top).c_str(),
                  t.switches, Gbps(t.down_gbps).c_str(), t.has_uplinks ? Gbps(t.up_gbps).c_str() : "-", ratio);
    out += line;
  }
  return out;
}

}  // namespace aifabric
