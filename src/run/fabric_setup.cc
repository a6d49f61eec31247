#include "run/fabric_setup.h"

#include <string>

#include "fabric/topology_builder.h"
#include "packet/pfc_headroom.h"
#include "run/fault_plan.h"
#include "run/ib_routes.h"
#include "run/straggler_plan.h"

namespace aifabric {
namespace {

// 6336240 -> "6,336,240".
std::string Grouped(uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Trimmed(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

Status CheckLosslessBuffers(const Scenario& scenario, const Topology& topology) {
  const PacketConfig& c = scenario.packet;
  int short_switches = 0;
  std::string first;
  for (const Node& node : topology.nodes()) {
    if (node.kind != NodeKind::kSwitch) continue;
    const LosslessBufferNeed need = SwitchLosslessBufferNeed(topology, node.id, c);
    const SwitchSpec& spec = topology.switch_specs()[node.switch_spec];
    if (need.total_bytes() <= spec.buffer_bytes) continue;
    if (short_switches++ > 0) continue;
    const std::string h = Grouped(need.max_port_headroom_bytes) + " B";
    const std::string per_port = need.uniform_headroom ? " x " + h + " headroom" : " x up to " + h + " headroom";
    first = "switch " + node.name + " (" + spec.name + "): " + std::to_string(need.ports) + " ports x " +
            std::to_string(need.lossless_priorities) + " lossless priorities" + per_port + " = " +
            Grouped(need.headroom_bytes) + " B + " + Grouped(need.shared_bytes) +
            " B of shared pool for the XOFF/XON thresholds ((1 + alpha " + Trimmed(c.pfc.alpha) + ") x " + h +
            " + xon_offset " + Grouped(c.pfc.xon_offset_bytes) + " B, / alpha) needs " +
            Grouped(need.total_bytes()) + " B of buffer; fabric.switch buffer is " + Grouped(spec.buffer_bytes) +
            " B. Raise the buffer to at least " + Grouped(need.total_bytes()) +
            " B, protect fewer priorities (fabric.roce.pfc.lossless) or turn PFC off (fabric.roce.pfc: false)";
  }
  if (short_switches == 0) return Status::Ok();
  if (short_switches > 1) first += " (" + std::to_string(short_switches - 1) + " more switches fall short likewise)";
  return Error{"fabric.roce.pfc: the lossless configuration does not fit in the switch buffer: " + first};
}

Result<Topology> BuildScenarioTopology(const Scenario& scenario) {
  Result<Topology> topology = BuildTopology(scenario.topology);
  if (!topology.ok()) return topology;
  if (Status st = CheckLosslessBuffers(scenario, *topology); !st.ok()) return st.error();
  return topology;
}

Result<RoutingTable> BuildScenarioRoutes(const Scenario& scenario, const Topology& topology) {
  if (scenario.packet.kind == FabricKind::kIb) return BuildIbRoutes(scenario, topology);
  return RoutingTable::BuildShortestPaths(topology);
}

Result<BuiltFabric> BuildFabric(const Scenario& scenario) {
  Result<Topology> topology = BuildScenarioTopology(scenario);
  if (!topology.ok()) return topology.error();
  BuiltFabric f{std::move(topology).value(), RoutingTable(), ClusterLayout(), ComputeSlowdowns()};
  Result<RoutingTable> routes = BuildScenarioRoutes(scenario, f.topology);
  if (!routes.ok()) return routes.error();
  f.routes = std::move(routes).value();
  Result<ClusterLayout> layout = ClusterLayout::Build(f.topology, scenario.server);
  if (!layout.ok()) return layout.error();
  if (Result<std::vector<LinkFault>> faults = ResolveFaults(scenario, f.topology); !faults.ok()) return faults.error();
  f.layout = std::move(layout).value();
  Result<ComputeSlowdowns> stragglers = ResolveStragglers(scenario, f.layout);
  if (!stragglers.ok()) return stragglers.error();
  f.stragglers = std::move(stragglers).value();
  return f;
}

int SchedulingTier(const Scenario& scenario, int priority) {
  if (!scenario.packet.queues[priority].strict) return 0;
  return scenario.packet.weighted_high ? 1 : 1 + priority;
}

FlowConfig FlowConfigFor(const Scenario& scenario) {
  FlowConfig c;
  c.mtu_bytes = scenario.packet.mtu_bytes;
  c.wire_overhead_bytes = scenario.packet.wire_overhead_bytes;
  c.ecmp_seed = scenario.packet.ecmp_seed;
  c.qps_per_transfer = scenario.packet.qps_per_transfer;
  switch (scenario.packet.load_balancing) {
    case LoadBalancing::kSpray:
      c.balancing = FlowBalancing::kSpray;
      break;
    case LoadBalancing::kAdaptive:
      c.balancing = FlowBalancing::kAdaptive;
      break;
    case LoadBalancing::kEcmp:
    case LoadBalancing::kFlowlet:  // a fluid never idles, so one flowlet: one path (docs/models.md)
      c.balancing = FlowBalancing::kEcmp;
      break;
  }
  // DCQCN where the packet level runs it: RoCEv2 RC senders with
  // fabric.roce.cc dcqcn (ECN marking on, as the loader requires). HPCC and
  // InfiniBand's congestion control have no flow-level model: without
  // DCQCN the flow level shares by max-min alone (docs/models.md).
  const TransportConfig& t = scenario.transport;
  c.dcqcn = scenario.packet.kind == FabricKind::kRoce && t.kind == TransportKind::kRc &&
            t.cc == CongestionControl::kDcqcn && scenario.packet.ecn.enabled;
  c.dcqcn_config = t.dcqcn;
  c.ecn = scenario.packet.ecn;
  // The packet model's egress scheduler (packet/egress_port.h): strict
  // queues first, highest priority first (an InfiniBand high table: all
  // strict queues together, by weight), then the DWRR queues by weight.
  for (int p = 0; p < kNumPriorities; ++p) {
    const QueueSchedulingConfig& q = scenario.packet.queues[p];
    ClassScheduling& s = c.priority_classes[p];
    s.tier = SchedulingTier(scenario, p);
    s.weight = q.dwrr_weight;
  }
  return c;
}

}  // namespace aifabric
