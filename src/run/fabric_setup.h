// The fabric of a scenario, built once and shared by the simulations that
// use it (`aifabric collective` sizes, training steps): its topology, routes
// and GPU layout, and the flow-level models' knobs from the same fields the
// packet model reads. Not thread-safe.
#pragma once

#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/flow_config.h"
#include "scenario/scenario.h"
#include "workload/compute_slowdown.h"

namespace aifabric {

struct BuiltFabric {
  Topology topology;
  RoutingTable routes;
  ClusterLayout layout;
  ComputeSlowdowns stragglers;  // the scenario's straggler GPUs (run/straggler_plan.h)
};

// Refuses a RoCE fabric with PFC on whose switches cannot hold what their
// lossless priorities need of the buffer: the headroom every (port,
// lossless priority) reserves and the shared pool its XOFF/XON thresholds
// need (packet/pfc_headroom.h, the calculation SwitchNode reserves by).
// The error names the switch, the sum and the buffer.
Status CheckLosslessBuffers(const Scenario& scenario, const Topology& topology);

// The topology and its routes (InfiniBand: as its subnet manager routes
// them, run/ib_routes.h), after CheckLosslessBuffers. Errors name the
// scenario field.
Result<Topology> BuildScenarioTopology(const Scenario& scenario);
Result<RoutingTable> BuildScenarioRoutes(const Scenario& scenario, const Topology& topology);

// The topology, routes, GPU layout and straggler GPUs. Errors name the
// scenario field (topology, IB routes, cluster layout, faults).
Result<BuiltFabric> BuildFabric(const Scenario& scenario);

// Where priority `p` sits in the packet model's egress scheduler
// (packet/egress_port.h): 0 for a DWRR queue, above 0 for a strict one
// (1 + p, or 1 for all of them with an InfiniBand high table). A queue of a
// higher tier is always served first.
int SchedulingTier(const Scenario& scenario, int priority);

// The flow-level model's knobs from the same fields the packet model reads.
FlowConfig FlowConfigFor(const Scenario& scenario);

}  // namespace aifabric
