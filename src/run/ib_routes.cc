#include "run/ib_routes.h"

#include "core/text_file.h"
#include "fabric/ib_forwarding_check.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_lid_map.h"

namespace aifabric {

Result<RoutingTable> BuildIbRoutes(const Scenario& scenario, const Topology& topology) {
  const IbRouting& routing = scenario.ib_routing;
  // Adaptive routing, spraying and flowlets choose among all shortest
  // paths; so does the shortest_paths engine.
  if (scenario.packet.load_balancing != LoadBalancing::kEcmp || routing.engine == IbRouting::kShortestPaths) {
    return RoutingTable::BuildShortestPaths(topology);
  }
  Result<ForwardingTables> tables = ForwardingTables();
  switch (routing.engine) {
    case IbRouting::kMinHop:
      tables = ComputeMinHop(topology);
      break;
    case IbRouting::kFtree:
      tables = ComputeFtree(topology);
      break;
    case IbRouting::kOpensmDump:
    case IbRouting::kIbroute: {
      Result<std::string> text = ReadTextFile(routing.file);
      if (!text.ok()) return Error{"fabric.ib.routing.file: " + text.error().message};
      const IbLidMap map = IbLidMap::ForTopology(topology);
      tables = routing.engine == IbRouting::kOpensmDump ? ReadOpensmLftDump(*text, routing.file, map, topology)
                                                        : ReadIbroute(*text, routing.file, map, topology);
      break;
    }
    case IbRouting::kShortestPaths:
      break;
  }
  if (!tables.ok()) return Error{"fabric.ib.routing: " + tables.error().message};
  if (Status ok = CheckForwardingTables(topology, *tables, PathRule::kDelivers); !ok) {
    return Error{"fabric.ib.routing: the forwarding tables do not deliver: " + ok.error().message};
  }
  return RoutingTable::FromForwardingTables(topology, *tables);
}

}  // namespace aifabric
