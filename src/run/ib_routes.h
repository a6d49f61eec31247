// Builds the routes of an InfiniBand scenario the way its subnet manager
// would: OpenSM's min-hop (default) or fat-tree engine, tables imported from
// an OpenSM LFT dump or ibroute output, or all shortest paths (the adaptive
// routing groups, used whenever load balancing is not per-flow static).
#pragma once

#include "scenario/scenario.h"
#include "core/result.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"

namespace aifabric {

// Errors name fabric.ib.routing (and the file's line for imports).
Result<RoutingTable> BuildIbRoutes(const Scenario& scenario, const Topology& topology);

}  // namespace aifabric
