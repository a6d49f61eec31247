#include "diagnosis/tenant_findings.h"

#include <algorithm>
#include <set>

namespace aifabric {
namespace {

void AddTenants(std::span<const TenantLoad> tenants, Finding& f) {
  if (f.port == kNoPort) return;
  std::vector<size_t> on;
  for (size_t t = 0; t < tenants.size(); ++t) {
    const std::vector<uint64_t>& bytes = tenants[t].port_bytes;
    if (static_cast<size_t>(f.port) < bytes.size() && bytes[static_cast<size_t>(f.port)] > 0) on.push_back(t);
  }
  if (on.empty()) return;
  const auto bytes = [&](size_t t) { return tenants[t].port_bytes[static_cast<size_t>(f.port)]; };
  std::sort(on.begin(), on.end(), [&](size_t a, size_t b) {
    return bytes(a) != bytes(b) ? bytes(a) > bytes(b) : tenants[a].name < tenants[b].name;
  });
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::set<std::string> owners(f.owners.begin(), f.owners.end());
  size_t most = on.size();
  for (size_t t : on) {
    list.push_back({{"name", tenants[t].name}, {"bytes", bytes(t)}});
    owners.insert(tenants[t].name);
    if (tenants[t].slowdown > 1 && (most == on.size() || tenants[t].slowdown > tenants[most].slowdown)) most = t;
  }
  f.evidence["tenants"] = std::move(list);
  if (most != on.size()) f.evidence["slows_most"] = tenants[most].name;
  f.owners.assign(owners.begin(), owners.end());
}

}  // namespace

void NameTenants(const Topology& topology, std::span<const TenantLoad> tenants, std::vector<Finding>& findings) {
  for (Finding& f : findings) AddTenants(tenants, f);
  for (const TenantLoad& t : tenants) {
    if (t.network_share < kNetworkBoundShare) continue;
    size_t busiest = t.port_bytes.size();
    double busy_s = 0;
    for (size_t p = 0; p < t.port_bytes.size() && p < topology.ports().size(); ++p) {
      const double rate = static_cast<double>(topology.port(static_cast<PortId>(p)).rate.bps());
      if (t.port_bytes[p] == 0 || rate <= 0) continue;
      uint64_t all = 0;
      for (const TenantLoad& u : tenants) all += p < u.port_bytes.size() ? u.port_bytes[p] : 0;
      const double s = static_cast<double>(all) * 8 / rate;
      if (s > busy_s) {
        busy_s = s;
        busiest = p;
      }
    }
    if (busiest == t.port_bytes.size()) continue;
    const PortId port = static_cast<PortId>(busiest);
    if (std::any_of(findings.begin(), findings.end(), [port](const Finding& f) { return f.port == port; })) continue;
    const Port& p = topology.port(port);
    Finding f;
    f.kind = kNetworkBoundJob;
    f.node = p.node;
    f.port = port;
    f.port_peer = p.peer;
    f.severity = std::clamp(0.5 * t.network_share, 0.0, 0.5);
    f.evidence["tenant"] = t.name;
    f.evidence["network_share"] = t.network_share;
    f.evidence["busy_s"] = busy_s;
    f.evidence["tier"] = topology.node(p.node).tier;
    const Node& from = topology.node(p.node);
    const Node& to = topology.node(p.peer);
    if (from.kind == NodeKind::kHost) f.evidence["nic"] = from.name;
    if (to.kind == NodeKind::kHost) f.evidence["nic"] = to.name;
    AddTenants(tenants, f);
    findings.push_back(std::move(f));
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    const int ra = FindingKindRank(a.kind), rb = FindingKindRank(b.kind);
    return ra != rb ? ra < rb : a.port < b.port;
  });
}

}  // namespace aifabric
