#include "run/ib_routes.h"

#include <utility>

#include "core/text_file.h"
#include "fabric/ib_forwarding_check.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_lid_map.h"
#include "fabric/ib_subnets.h"

namespace aifabric {

Result<RoutingTable> BuildIbRoutes(const Scenario& scenario, const Topology& topology) {
  const IbRouting& routing = scenario.ib_routing;
  // Adaptive routing, spraying and flowlets choose among all shortest
  // paths; so does the shortest_paths engine.
  if (scenario.packet.load_balancing != LoadBalancing::kEcmp || routing.engine == IbRouting::kShortestPaths) {
    return RoutingTable::BuildShortestPaths(topology);
  }
  const auto compute = [&]() -> Result<ForwardingTables> {
    switch (routing.engine) {
      case IbRouting::kMinHop:
        return RouteSubnets(topology, ComputeMinHop);
      case IbRouting::kFtree:
        return RouteSubnets(topology, ComputeFtree);
      case IbRouting::kOpensmDump:
      case IbRouting::kIbroute: {
        // One file holds one subnet manager's tables; a fabric of planes
        // has a subnet manager per plane.
        if (SubnetCount(topology) > 1) {
          return Error{"fabric.ib.routing.file: the fabric has " + std::to_string(SubnetCount(topology)) +
                       " subnets (planes), each routed by its own subnet manager; tables read from one file cover "
                       "one subnet: route the planes with min-hop or ftree"};
        }
        Result<std::string> text = ReadTextFile(routing.file);
        if (!text.ok()) return Error{"fabric.ib.routing.file: " + text.error().message};
        const IbLidMap map = IbLidMap::ForTopology(topology);
        return routing.engine == IbRouting::kOpensmDump ? ReadOpensmLftDump(*text, routing.file, map, topology)
                                                        : ReadIbroute(*text, routing.file, map, topology);
      }
      case IbRouting::kShortestPaths:
        break;
    }
    return ForwardingTables();
  };
  Result<ForwardingTables> tables = compute();
  if (!tables.ok()) {
    const std::string& m = tables.error().message;
    return Error{m.rfind("fabric.ib.routing", 0) == 0 ? m : "fabric.ib.routing: " + m};
  }
  // The routing table walks the tables once (it clears what does not
  // deliver); only tables that fail are computed again, for the check to
  // name the first pair that fails and why.
  RoutingTable routes = RoutingTable::FromForwardingTables(topology, std::move(*tables));
  if (routes.EveryHostReachesEveryHost(topology)) return routes;
  tables = compute();
  if (!tables.ok()) return Error{"fabric.ib.routing: " + tables.error().message};
  Status ok = CheckForwardingTables(topology, *tables, PathRule::kDelivers);
  return Error{"fabric.ib.routing: the forwarding tables do not deliver: " +
               (ok ? std::string("a host does not reach another") : ok.error().message)};
}

RouteBuilder IbFaultRoutes(const Scenario& scenario, const Topology& topology) {
  const IbRouting::Engine engine = scenario.ib_routing.engine;
  if (scenario.packet.kind != FabricKind::kIb || scenario.packet.load_balancing != LoadBalancing::kEcmp ||
      (engine != IbRouting::kMinHop && engine != IbRouting::kFtree)) {
    return {};
  }
  return [&topology, engine](std::span<const uint8_t> down) {
    const IbRoutingEngine compute = engine == IbRouting::kMinHop ? static_cast<IbRoutingEngine>(ComputeMinHop)
                                                                 : static_cast<IbRoutingEngine>(ComputeFtree);
    return RoutingTable::FromForwardingTables(topology, RouteSubnets(topology, compute, down), down);
  };
}

}  // namespace aifabric
