// A Design is one point of the planner's sweep: fabric kind, link speed,
// topology family, oversubscription, switch and NIC models and load
// balancing. EnumerateDesigns walks the requirements' design space over the
// catalog: every combination the catalog can build and the constraints
// allow is a design, in a fixed order; the rest are rejected with the
// reason. Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "fabric/catalog.h"
#include "fabric/topology_builder.h"
#include "plan/plan_requirements.h"

namespace aifabric {

struct Design {
  std::string name;  // e.g. "ib-400g-fat_tree-1to1-QM9700"
  FabricKind kind = FabricKind::kRoce;
  int link_gbps = 400;
  TopologyType topology = TopologyType::kFatTree;
  double oversubscription = 1.0;
  std::string switch_name;  // catalog switch
  std::string nic_name;     // catalog NIC
  LoadBalancing load_balancing = LoadBalancing::kEcmp;
};

// A design that was not built, and why.
struct RejectedDesign {
  std::string name;
  std::string reason;
};

struct DesignSweep {
  std::vector<Design> designs;
  std::vector<RejectedDesign> rejected;
};

// Every design of the space, kinds x link speeds x topologies x
// oversubscriptions x switches x load balancing, in that nesting order.
// A switch serves a design when its family is the fabric kind's and its
// port rate the link speed; the NIC is the cheapest catalog NIC of that
// rate (the first in catalog order among equals). Rejected: a kind the
// ecosystem constraint excludes, an oversubscription above the maximum, a
// link speed no switch (of the kind, among those named) or NIC has.
DesignSweep EnumerateDesigns(const PlanRequirements& requirements, const Catalog& catalog);

// "ib", "roce"; "ecmp", "spray", ...; "1to1", "1.5to1". (Topology names:
// fabric/topology_builder.h's TopologyTypeName.)
const char* FabricKindName(FabricKind kind);
const char* LoadBalancingName(LoadBalancing lb);
std::string OversubscriptionName(double ratio);

}  // namespace aifabric
