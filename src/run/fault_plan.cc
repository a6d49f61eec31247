#include "run/fault_plan.h"

#include "core/units.h"

namespace aifabric {
namespace {

Result<NodeId> NodeNamed(const Topology& t, const std::string& name, const std::string& field) {
  const NodeId id = t.FindByName(name);
  if (id == kNoNode) return Error{field + ": no node named '" + name + "' in the topology"};
  return id;
}

Result<LinkId> LinkBetween(const Topology& t, const FaultSpec& f) {
  const std::string field = f.path + ".link";
  Result<NodeId> a = NodeNamed(t, f.a, field);
  if (!a.ok()) return a.error();
  Result<NodeId> b = NodeNamed(t, f.b, field);
  if (!b.ok()) return b.error();
  std::vector<LinkId> parallel;
  for (PortId p : t.node(*a).ports) {
    if (t.port(p).peer == *b) parallel.push_back(t.port(p).link);
  }
  if (parallel.empty()) return Error{field + ": '" + f.a + "' and '" + f.b + "' share no link"};
  if (static_cast<size_t>(f.link_index) >= parallel.size()) {
    return Error{f.path + ".index: '" + f.a + "' and '" + f.b + "' share " + std::to_string(parallel.size()) +
                 " links; expected 0.." + std::to_string(parallel.size() - 1) + ", got " +
                 std::to_string(f.link_index)};
  }
  return parallel[static_cast<size_t>(f.link_index)];
}

}  // namespace

Result<std::vector<LinkFault>> ResolveFaults(const Scenario& scenario, const Topology& topology) {
  std::vector<LinkFault> out;
  for (const FaultSpec& f : scenario.faults) {
    if (f.kind == FaultKind::kStraggler) continue;  // a GPU's, not a link's: run/straggler_plan.h
    if (scenario.model == ModelKind::kAnalytic) {
      return Error{f.path + ": the analytic model has no paths to fail or reroute; faults need simulation.model: "
                   "flow or packet"};
    }
    LinkFault lf;
    lf.kind = f.kind;
    lf.at = f.at;
    lf.until = f.until;
    lf.period = f.period;
    lf.down_for = f.down_for;
    lf.loss_rate = f.loss_rate;
    lf.corruption_rate = f.corruption_rate;
    lf.rate = f.rate;
    switch (f.kind) {
      case FaultKind::kLinkDown:
      case FaultKind::kLinkFlap:
      case FaultKind::kGrayLink: {
        Result<LinkId> link = LinkBetween(topology, f);
        if (!link.ok()) return link.error();
        lf.links.push_back(*link);
        lf.name = f.a + "-" + f.b;
        if (f.link_index > 0) lf.name.append("#").append(std::to_string(f.link_index));
        break;
      }
      case FaultKind::kSwitchDown:
      case FaultKind::kNicPortDown: {
        Result<NodeId> node = NodeNamed(topology, f.node, f.path + ".node");
        if (!node.ok()) return node.error();
        const bool want_switch = f.kind == FaultKind::kSwitchDown;
        if ((topology.node(*node).kind == NodeKind::kSwitch) != want_switch) {
          return Error{f.path + ".node: '" + f.node + "' is " + (want_switch ? "a host" : "a switch") + "; " +
                       FaultKindName(f.kind) + " expects " + (want_switch ? "a switch" : "a host (its NIC)")};
        }
        const std::vector<PortId>& ports = topology.node(*node).ports;
        if (f.nic_port >= static_cast<int>(ports.size())) {
          return Error{f.path + ".port: '" + f.node + "' has " + std::to_string(ports.size()) +
                       " link(s); expected 0.." + std::to_string(ports.size() - 1) + ", got " +
                       std::to_string(f.nic_port)};
        }
        for (size_t i = 0; i < ports.size(); ++i) {
          if (f.nic_port < 0 || static_cast<size_t>(f.nic_port) == i) lf.links.push_back(topology.port(ports[i]).link);
        }
        lf.name = f.node;
        if (f.nic_port >= 0) lf.name.append(":").append(std::to_string(f.nic_port));
        break;
      }
      case FaultKind::kStraggler:
        break;  // skipped above
    }
    if (f.kind == FaultKind::kGrayLink && scenario.model == ModelKind::kFlow) {
      // A fluid has no packets to lose or corrupt.
      const char* const field = f.loss_rate > 0 ? "loss_rate" : f.corruption_rate > 0 ? "corruption_rate" : nullptr;
      if (field != nullptr) {
        return Error{f.path + "." + field + ": a fluid loses no packets; a gray link's " +
                     (f.loss_rate > 0 ? "silent losses" : "corrupted frames") +
                     " need simulation.model: packet (at flow level give its degraded rate: rate)"};
      }
    }
    if (f.kind == FaultKind::kGrayLink && f.rate.bps() > 0) {
      const DataRate own = topology.port(static_cast<PortId>(2 * lf.links[0])).rate;
      if (f.rate >= own) {
        return Error{f.path + ".rate: " + FormatRate(f.rate) + " is not below the link's own " + FormatRate(own) +
                     "; a degraded rate is lower"};
      }
    }
    const bool ib = scenario.packet.kind == FabricKind::kIb;
    const bool gray = f.kind == FaultKind::kGrayLink;
    // Tables read from a file: nothing can compute them again.
    const bool imported = ib && scenario.packet.load_balancing == LoadBalancing::kEcmp &&
                          (scenario.ib_routing.engine == IbRouting::kOpensmDump ||
                           scenario.ib_routing.engine == IbRouting::kIbroute);
    lf.detection = f.detection.value_or(gray || imported ? Time::Infinite() : kPhyLinkDownDetection);
    if (ib && !gray && !imported && !f.detection) {
      // The subnet manager's next periodic sweep finds the port down and
      // reroutes (docs/faults.md); with no periodic sweep, never.
      lf.detection_period = scenario.ib_routing.sm_sweep_interval;
      lf.detection = Time::Infinite();
    }
    if (imported && !lf.detection.IsInfinite()) {
      return Error{f.path + ".detection: forwarding tables read from a file (fabric.ib.routing) cannot be computed "
                   "again around a fault; give detection: none, or route with an engine (minhop, ftree)"};
    }
    out.push_back(std::move(lf));
  }
  return out;
}

}  // namespace aifabric
