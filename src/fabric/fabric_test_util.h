// Helpers shared by the fabric tests (test-only; not part of the library).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "fabric/catalog.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric::fabric_testing {

// A switch spec with only a name (tests that do not size anything).
inline SwitchSpec NamedSwitch(const std::string& name) {
  SwitchSpec s;
  s.name = name;
  return s;
}

// A spec using the built-in catalog switch `switch_name`.
inline TopologySpec MakeSpec(TopologyType type, const std::string& switch_name, int servers, int nics_per_server,
                             DataRate nic_rate) {
  TopologySpec spec;
  spec.type = type;
  const SwitchSpec* sw = Catalog::BuiltIn().FindSwitch(switch_name);
  EXPECT_NE(sw, nullptr) << switch_name;
  if (sw) spec.switch_spec = *sw;
  spec.servers = servers;
  spec.nics_per_server = nics_per_server;
  spec.nic_rate = nic_rate;
  return spec;
}

// Number of distinct shortest paths from `src` to host `dst`: the sum over
// next hops of the paths from the next node (1 at dst). On a symmetric Clos
// this is the product of the next-hop counts along any one path.
inline int64_t CountShortestPaths(const Topology& t, const RoutingTable& rt, NodeId src, NodeId dst) {
  if (src == dst) return 1;
  int64_t paths = 0;
  for (PortId p : rt.NextHops(src, dst)) paths += CountShortestPaths(t, rt, t.port(p).peer, dst);
  return paths;
}

// Switches of `tier`.
inline int CountTier(const Topology& t, int tier) {
  int n = 0;
  for (const Node& node : t.nodes()) n += node.kind == NodeKind::kSwitch && node.tier == tier;
  return n;
}

}  // namespace aifabric::fabric_testing
