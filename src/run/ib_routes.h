// Builds the routes of an InfiniBand scenario the way its subnet manager
// would: OpenSM's min-hop (default) or fat-tree engine, tables imported from
// an OpenSM LFT dump or ibroute output, or all shortest paths (the adaptive
// routing groups, used whenever load balancing is not per-flow static).
#pragma once

#include "scenario/scenario.h"
#include "core/result.h"
#include "fabric/fault_timeline.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"

namespace aifabric {

// Errors name fabric.ib.routing (and the file's line for imports).
Result<RoutingTable> BuildIbRoutes(const Scenario& scenario, const Topology& topology);

// The routes the subnet manager computes at a sweep after a fault: the
// scenario's engine (min-hop or ftree) over the links still up. Empty
// when the routes are shortest paths (the models' own rebuild) or tables
// read from a file (ResolveFaults refuses rerouting those). `topology`
// must outlive the builder.
RouteBuilder IbFaultRoutes(const Scenario& scenario, const Topology& topology);

}  // namespace aifabric
