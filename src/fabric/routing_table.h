// RoutingTable holds, for every node and every destination host, the set of
// outgoing ports that lie on a shortest path to it (the ECMP next-hop set).
// Built once by breadth-first search from each host; read-only afterwards
// and safe to share. Memory: one (offset, count) per (node, host) pair plus
// the port lists, so it suits up to a few thousand hosts; larger fabrics use
// the flow model's own route computation.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "fabric/topology.h"

namespace aifabric {

class ForwardingTables;

class RoutingTable {
 public:
  // All shortest paths (by hop count) from every node to every host.
  static RoutingTable BuildShortestPaths(const Topology& topology);

  // InfiniBand static routes (ib_forwarding_tables.h): at a switch,
  // NextHops is the one LFT port; at a host, its first link (CA port 1).
  // Distance is the hop count along those ports. A node whose walk meets a
  // missing entry, a loop or the wrong host gets Distance -1 and no next
  // hop, so broken tables drop packets instead of looping them;
  // CheckForwardingTables says why. REQUIRES: `tables` built for `topology`.
  static RoutingTable FromForwardingTables(const Topology& topology, const ForwardingTables& tables);

  // Ports out of `at` on a shortest path toward host `dst`, in port-id order.
  // Empty when at == dst or dst is unreachable.
  std::span<const PortId> NextHops(NodeId at, NodeId dst) const;
  // Hops from `from` to host `dst`; -1 if unreachable.
  int Distance(NodeId from, NodeId dst) const;

 private:
  // No routes yet: the host index and one empty entry per (node, host).
  static RoutingTable Empty(const Topology& topology);

  struct Entry {
    uint32_t offset = 0;
    uint16_t count = 0;
    int16_t distance = -1;
  };
  size_t num_hosts_ = 0;
  std::vector<int> host_index_;  // by NodeId
  std::vector<Entry> entries_;   // [node * num_hosts + host_index]
  std::vector<PortId> ports_;
};

}  // namespace aifabric
