// PathSplitter divides a transfer over the ports of all its equal-cost
// (shortest) paths, as per-packet load balancing spreads it, for the fluid
// models: each port it crosses with the fraction of the transfer that
// crosses it. Over a FlowNetwork's topology and routes; keeps scratch by
// node; not thread-safe.
//
// The split, node by node from the source (every next hop is one hop
// closer, so the nodes at each distance are done before the next):
//  * spray: the traffic that reaches a node divides equally over its next
//    hops toward the destination (RoutingTable::NextHops), which is what
//    spraying packets at random or in turn gives on average;
//  * adaptive: it divides so as to even out the load already on those
//    ports relative to their rates (water-filling: with loads L_i and
//    rates c_i, port i takes max(0, lambda c_i - L_i), lambda such that the
//    shares sum to what arrived), which is where a switch that sends every
//    packet to its less-queued port puts it: a queue grows where more is
//    offered than the port carries. On an idle fabric of equal rates it is
//    the spray split.
// The fractions of the ports leaving a node sum to the fraction that
// reached it; the destination's incoming ports sum to 1.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"

namespace aifabric {

struct PortShare {
  PortId port = kNoPort;
  double fraction = 0;  // of the transfer, in (0, 1]
};

class PathSplitter {
 public:
  // The topology and routes must outlive the splitter.
  PathSplitter(const Topology& topology, const RoutingTable& routes);

  // Appends the ports from `src` to host `dst` with their fractions,
  // nearest the source first (ports of one node in next-hop order). `load`
  // null: spray; else adaptive over load[port] (any unit; by PortId).
  // REQUIRES: dst reachable from src, src != dst.
  void Split(NodeId src, NodeId dst, std::span<const double> load, std::vector<PortShare>& out);
  // Splits by `routes` from now (a fault's, over the links still up).
  // REQUIRES: built for the same topology; outlives its use.
  void UseRoutes(const RoutingTable& routes) { routes_ = &routes; }

 private:
  // Water-fills `fraction` over `hops` by load / rate into `out`.
  void Fill(std::span<const PortId> hops, double fraction, std::span<const double> load,
            std::vector<PortShare>& out);

  const Topology& topology_;
  const RoutingTable* routes_;
  std::vector<double> rate_gbps_;  // by PortId
  std::vector<double> reached_;    // by NodeId: fraction arrived (scratch, 0 between calls)
  std::vector<NodeId> level_, next_;
  std::vector<std::pair<double, uint32_t>> order_;  // Fill's scratch: (load / rate, index)
};

}  // namespace aifabric
