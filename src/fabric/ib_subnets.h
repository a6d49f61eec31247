// An InfiniBand fabric's subnets: the sets of switches cabled to each other
// (a multi-plane fabric's planes, `fabric.topology.planes`), each managed by
// its own subnet manager, which routes it without seeing the others. A host
// with one HCA port in each plane is a channel adapter in every subnet.
// RouteSubnets runs a routing engine once per subnet, over that subnet
// alone, and gathers the tables of all of them. Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_lid_map.h"
#include "fabric/topology.h"

namespace aifabric {

// A routing engine as ComputeMinHop and ComputeFtree are: tables for every
// switch of a topology, over the links not marked down.
using IbRoutingEngine = ForwardingTables (*)(const Topology&, const IbLidMap&, std::span<const uint8_t>);

// By NodeId: the subnet of each switch (0, 1, ... in the order of each
// subnet's lowest switch id), -1 for hosts. Switches are in one subnet when
// a path of switch-to-switch links joins them (hosts do not forward), down
// or not: a dead cable does not make two subnets.
std::vector<int> SwitchSubnets(const Topology& topology);
// How many subnets SwitchSubnets finds (0 without switches).
int SubnetCount(const Topology& topology);

// The tables `engine` computes for each subnet on its own: the subnet's
// switches, every host, and the links among them (a host's links into that
// subnet: one per plane on the builders' fabrics), numbered in the order of
// the whole fabric, so the engine sees the switches, GUID order and port
// numbers it would see on that plane alone. A host whose links into a
// subnet are all down is no destination there (the subnet manager finds
// its port down and gives it no route). With one subnet this is
// engine(topology, IbLidMap::ForTopology(topology), link_down) itself.
// `link_down` by LinkId (non-zero: down), or empty.
ForwardingTables RouteSubnets(const Topology& topology, IbRoutingEngine engine,
                              std::span<const uint8_t> link_down = {});

}  // namespace aifabric
