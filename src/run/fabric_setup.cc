#include "run/fabric_setup.h"

#include "fabric/topology_builder.h"
#include "run/ib_routes.h"

namespace aifabric {

Result<Topology> BuildScenarioTopology(const Scenario& scenario) { return BuildTopology(scenario.topology); }

Result<RoutingTable> BuildScenarioRoutes(const Scenario& scenario, const Topology& topology) {
  if (scenario.packet.kind == FabricKind::kIb) return BuildIbRoutes(scenario, topology);
  return RoutingTable::BuildShortestPaths(topology);
}

Result<BuiltFabric> BuildFabric(const Scenario& scenario) {
  Result<Topology> topology = BuildScenarioTopology(scenario);
  if (!topology.ok()) return topology.error();
  BuiltFabric f{std::move(topology).value(), RoutingTable(), ClusterLayout()};
  Result<RoutingTable> routes = BuildScenarioRoutes(scenario, f.topology);
  if (!routes.ok()) return routes.error();
  f.routes = std::move(routes).value();
  Result<ClusterLayout> layout = ClusterLayout::Build(f.topology, scenario.server);
  if (!layout.ok()) return layout.error();
  f.layout = std::move(layout).value();
  return f;
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
  for (int p = 0; p < kNumPriorities; ++p) c.priority_weight[p] = scenario.packet.queues[p].dwrr_weight;
  return c;
}

}  // namespace aifabric
