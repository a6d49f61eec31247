// RoutingTable holds, for every node and every destination host, the set of
// outgoing ports that lie on a shortest path to it (the ECMP next-hop set).
// Read-only once built and safe to share.
//
// Layout. A table is rows (nodes that forward or have several links) by
// columns (destinations). Shortest-path tables (BuildShortestPaths) group
// the hosts that hang off one switch by a single link into one column —
// the switch's: every node but that switch reaches them all by the same
// ports (their distance is one more than the switch's) — and give such a
// host no row: its next hop is its one link. So a fat-tree of 16,384 hosts
// under 512 leaves costs 512 searches and 2,048 switch rows by 512
// columns, not 16,384 searches and 18,432 x 16,384 entries. Port lists are
// stored once per distinct list. InfiniBand tables (FromForwardingTables)
// route each destination on its own: the table keeps the forwarding
// tables' own entries, a byte per (switch, host) — the place of the one
// output port in the switch's port list — with the entries that do not
// deliver cleared; a host's next hop is its first link, and a distance is
// counted along the entries (a few hops). So 16,384 hosts under 2,048
// switches take 32 MiB, where a row per node of 8-byte entries and a port
// list per entry took 3.4 GB.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/ids.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/topology.h"

namespace aifabric {

class RoutingTable {
 public:
  // All shortest paths (by hop count) from every node to every host.
  // O(columns x (switches + their ports)) time. With `link_down` (by
  // LinkId, non-zero: down), the paths avoid those links, as routing does
  // once it has converged around a failure; a host hanging off one switch
  // keeps its one link either way (it has no other).
  static RoutingTable BuildShortestPaths(const Topology& topology, std::span<const uint8_t> link_down = {});

  // InfiniBand static routes (ib_forwarding_tables.h): at a switch,
  // NextHops is the one LFT port; at a host, its first link (CA port 1).
  // Distance is the hop count along those ports. A node whose walk meets a
  // missing entry, a loop or the wrong host gets Distance -1 and no next
  // hop, so broken tables drop packets instead of looping them;
  // CheckForwardingTables (ib_forwarding_check.h) says why. REQUIRES: `tables` built for `topology`.
  // Takes the tables over (pass a copy to keep them).
  // A host with links into several subnets (planes: ib_subnets.h) sends on its first link into each, if not in
  // `link_down` (by LinkId, non-zero: down) and its switch delivers to dst: NextHops lists those, for the NIC
  // to hash a flow onto one as on Ethernet; Distance is the fewest hops over them. (Several links into one
  // subnet: its first, as above.)
  static RoutingTable FromForwardingTables(const Topology& topology, ForwardingTables tables,
                                           std::span<const uint8_t> link_down = {});

  // Ports out of `at` on a shortest path toward host `dst`, in port-id order.
  // Empty when at == dst or dst is unreachable.
  std::span<const PortId> NextHops(NodeId at, NodeId dst) const;
  // Hops from `from` to host `dst`; -1 if unreachable.
  int Distance(NodeId from, NodeId dst) const;
  // Memory the table holds, in bytes (entries, port lists and indices).
  size_t bytes() const;
  // Whether every host of `topology` reaches every other host (Distance
  // >= 0). For forwarding tables, a pass over the rows of the switches hosts
  // send to; for shortest paths, over every pair. REQUIRES: built for
  // `topology`.
  bool EveryHostReachesEveryHost(const Topology& topology) const;
  // Whether it holds InfiniBand forwarding tables (FromForwardingTables).
  bool forwarding() const { return lft_.has_value(); }

 private:
  struct Entry {
    uint32_t offset = 0;
    uint16_t count = 0;
    int16_t distance = -1;
  };
  const Entry& At(NodeId at, NodeId dst) const {
    return entries_[static_cast<size_t>(row_[at]) * num_columns_ + static_cast<size_t>(column_[dst])];
  }

  size_t num_columns_ = 0;
  std::vector<int> row_;            // by NodeId; -1: a host with one link to a switch (no row)
  std::vector<int> column_;         // by NodeId (hosts): its column
  std::vector<NodeId> via_switch_;  // by NodeId (hosts grouped in their switch's column): that switch, else kNoNode
  std::vector<PortId> to_host_;     // by NodeId (grouped hosts): the switch's port to it
  std::vector<PortId> uplink_;      // by NodeId (hosts without a row): their one port
  std::vector<Entry> entries_;      // [row * num_columns + column]
  std::vector<PortId> ports_;

  // InfiniBand tables (FromForwardingTables) instead of the above, with
  // uplink_ (every host's first link, kNoPort if none).
  std::span<const PortId> ForwardingNextHops(NodeId at, NodeId dst) const;
  int ForwardingDistance(NodeId from, NodeId dst) const;
  std::optional<ForwardingTables> lft_;  // the entries that do not deliver cleared
  std::vector<NodeId> port_peer_;         // by PortId
  // Hosts with several links: by NodeId, the list in ports_ of their links
  // up (count 0 for the others), and by (host index x hosts + destination
  // index) the shorter lists where some of them do not deliver.
  std::vector<Entry> host_ports_;
  std::vector<uint8_t> uplink_multi_;  // by NodeId: a host with several links
  std::unordered_map<uint64_t, Entry> host_exceptions_;
  bool IsMultiPort(NodeId host) const { return !host_ports_.empty() && uplink_multi_[host] != 0; }
  std::span<const PortId> HostPorts(NodeId host, NodeId dst) const;
  void AddHostPorts(const Topology& topology, std::span<const uint8_t> link_down);
};

}  // namespace aifabric
