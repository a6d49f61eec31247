// The scenario's `faults:` resolved against its built topology: each item's
// names become the links it takes down (a link by its two ends, a switch's
// links, a NIC's link), with the detection delay its kind defaults to.
// Errors name the item's field ("faults.0.link: no node named 'spine9' in
// the topology"). Pure functions.
#pragma once

#include <vector>

#include "core/result.h"
#include "fabric/link_fault.h"
#include "fabric/topology.h"
#include "scenario/scenario.h"

namespace aifabric {

// The link faults of `scenario.faults`, in order (stragglers, which slow a
// GPU, are run/straggler_plan.h's), and refuses what the models cannot
// play: faults at analytic level (no paths), a gray link's losses at flow
// level (no packets), a gray link's "degraded" rate at or above the link's
// own, rerouting InfiniBand tables read from a file.
Result<std::vector<LinkFault>> ResolveFaults(const Scenario& scenario, const Topology& topology);

}  // namespace aifabric
