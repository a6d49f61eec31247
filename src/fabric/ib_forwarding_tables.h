// ForwardingTables are InfiniBand static routes: one linear forwarding table
// (LFT) per switch, giving for each destination host the single output port,
// as a subnet manager programs them. They come from aifabric's versions of
// OpenSM's routing engines (ComputeMinHop, ComputeFtree) or from what the
// real OpenSM / ibroute printed (ReadOpensmLftDump, ReadIbroute), are
// checked by CheckForwardingTables (ib_forwarding_check.h), and turn into a
// RoutingTable with RoutingTable::FromForwardingTables. A value type; safe
// to share once built.
//
// Only host destinations are kept, one per host: the LID of its first link
// (CA port 1 under IbLidMap::ForTopology); hosts send on that link too.
// Routes to switch LIDs carry management traffic only and are dropped.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/ib_lid_map.h"
#include "fabric/topology.h"

namespace aifabric {

class ForwardingTables {
 public:
  ForwardingTables() = default;
  // Tables for every switch of `topology`, all entries kNoPort.
  // REQUIRES: no switch has 65,535 ports or more.
  explicit ForwardingTables(const Topology& topology);

  // The output port of switch `sw` toward host `dst`; kNoPort if none.
  // REQUIRES: sw is a switch and dst a host of the topology.
  PortId Get(NodeId sw, NodeId dst) const {
    const uint32_t slot = SlotAt(Index(sw, dst));
    return slot == kNoSlot ? kNoPort : ports_[port_start_[switch_index_[sw]] + slot];
  }
  // REQUIRES: port is kNoPort or leaves `sw`.
  void Set(NodeId sw, NodeId dst, PortId port);
  // Whether every entry is known to deliver: true when ComputeMinHop or
  // ComputeFtree made the tables (each entry leads one hop closer to the
  // destination's switch, so every walk ends there) and nothing was Set
  // since; RoutingTable::FromForwardingTables then need not walk them.
  bool delivers_by_construction() const { return least_hop_; }

  // Bytes the tables hold: 1 per (switch, host) entry (2 when a switch has
  // 255 ports or more), plus the switches' port lists and the per-node and
  // per-port indices.
  size_t bytes() const;

  // A switch's index (switches in node-id order, as topology.switches()),
  // -1 for a host.
  int switch_index(NodeId node) const { return switch_index_[node]; }
  size_t num_switches() const { return port_start_.size(); }
  // Hops from every switch to the hosts with host indices [first, first +
  // count) along the tables when hosts send on their first link, into
  // hops[j * num_switches() + switch index] for the j-th of them: -1 where
  // the walk meets a missing entry, a loop or another host. O(switches) per
  // destination over the tables' own arrays; a block of kHopBlock
  // consecutive hosts reads each switch's entries for them at once (they
  // sit side by side), where one host at a time reads a cache line per
  // switch per host. REQUIRES: the range is within the hosts.
  static constexpr size_t kHopBlock = 64;
  void SwitchHops(size_t first, size_t count, std::vector<int>& hops) const;

  // Equal entries (however they were made).
  bool operator==(const ForwardingTables& o) const {
    return num_hosts_ == o.num_hosts_ && switch_index_ == o.switch_index_ && host_index_ == o.host_index_ &&
           ports_ == o.ports_ && wide_ == o.wide_ && out_ == o.out_;
  }

 private:
  friend class RoutingTable;  // takes the entries over (FromForwardingTables)
  friend ForwardingTables ComputeMinHop(const Topology&, const IbLidMap&, std::span<const uint8_t>);
  friend ForwardingTables ComputeFtree(const Topology&, const IbLidMap&, std::span<const uint8_t>);
  friend ForwardingTables RouteSubnets(const Topology&,
                                       ForwardingTables (*)(const Topology&, const IbLidMap&, std::span<const uint8_t>),
                                       std::span<const uint8_t>);  // ib_subnets.h
  static constexpr uint32_t kNoSlot = 0xFFFF;
  size_t Index(NodeId sw, NodeId dst) const;
  // Entry i of out_ (kNoSlot for none), one byte (0xFF: none) or two.
  static uint32_t ReadSlot(const uint8_t* entries, size_t i, bool wide) {
    if (!wide) return entries[i] == 0xFF ? kNoSlot : entries[i];
    return static_cast<uint32_t>(entries[2 * i]) | static_cast<uint32_t>(entries[2 * i + 1]) << 8;
  }
  uint32_t SlotAt(size_t i) const { return ReadSlot(out_.data(), i, wide_); }
  void SetSlot(size_t i, uint32_t slot);
  size_t num_hosts_ = 0;
  std::vector<int> switch_index_;       // by NodeId; -1 for hosts
  std::vector<int> host_index_;         // by NodeId; -1 for switches
  std::vector<uint32_t> port_start_;    // by switch index: its ports' offset in ports_
  std::vector<PortId> ports_;           // every switch's ports, in its `ports` order
  std::vector<int> peer_;               // beside ports_: the peer's switch index, or -2 - its host index
  std::vector<uint16_t> slot_;          // by PortId: its place in its node's `ports`
  // [switch index * hosts + host index]: the place of the output port in
  // the switch's `ports`, or none. One byte an entry while every switch has
  // fewer than 255 ports (two bytes, little-endian, if not: wide_), so the
  // tables of 16,384 hosts under 2,048 switches take 32 MiB, not 128.
  std::vector<uint8_t> out_;
  bool wide_ = false;
  bool least_hop_ = false;  // see delivers_by_construction()
};

// OpenSM's default "minhop" engine (opensm/osm_ucast_mgr.c and
// osm_switch.c, osm_switch_recommend_path, 3.3.x as in Debian 12's 3.3.23),
// with LMC 0 and default options:
//  * Hops: each switch knows its hop count to every switch through each of
//    its ports (CAs never forward); the hop count to a CA is that of its
//    switch, plus one.
//  * Destination order: end ports grouped by the switch they hang off,
//    switches sorted by their number of CA links, most first (a stable sort
//    of the switches in node-GUID order — qsort in glibc is a merge sort),
//    each switch's CAs in port-number order (sort_ports_by_switch_load);
//    other ports follow in port-GUID order.
//  * Each switch, independently, walks that order and gives each destination
//    the output port with the fewest destinations counted so far among its
//    least-hop ports, ties to the lowest port number; a CA on the switch
//    itself gets its own port. Only CA destinations are counted
//    (port_profile_switch_nodes = FALSE), so routes to switch LIDs do not
//    shift the balance.
// The first sweep of a fresh fabric has empty LFTs, so "keep the existing
// route if still least-hop" never applies and is not modelled. Nor are
// LMC > 0, port_shifting, scatter_ports, guid_routing_order_file and the
// hop-weights file. A multi-port CA is a destination by its port 1 only
// (OpenSM would also count routes to its other ports).
// `map` gives GUIDs (switch order) and IB port numbers (tie-breaks); the
// overload without one uses IbLidMap::ForTopology.
// `link_down` (by LinkId, non-zero: down) routes the fabric a sweep finds
// after those links failed: as if they were not cabled.
ForwardingTables ComputeMinHop(const Topology& topology);
ForwardingTables ComputeMinHop(const Topology& topology, const IbLidMap& map,
                               std::span<const uint8_t> link_down = {});

// A fat-tree engine in the spirit of OpenSM's "ftree" (osm_ucast_ftree.c):
// every destination is routed up to one top switch and down from there, and
// the hosts under a leaf spread over its up-ports, so shift permutations are
// contention-free on a full fat-tree. Deterministic up/down choice (the
// D-mod-K rule, Zahavi et al. 2010, that ftree's counters reproduce on a
// complete fat-tree up to a permutation of ports):
//  * Hosts get a global index g: leaves in node-GUID order, each leaf's
//    hosts in its port-number order.
//  * Switch tiers are Node::tier (1 = leaf), or, if any switch has none
//    (< 1), the hop distance from the nearest host.
//  * K_t = the most up-ports (ports to tier t+1) of any tier-t switch;
//    D_1 = 1, D_{t+1} = D_t * K_t.
//  * At a tier-t switch, the candidates toward g are its least-hop ports.
//    If some lead down (to a host or a lower tier) the route takes down
//    candidate number floor(g / D_t) mod (#down candidates); else up (or
//    same-tier) candidate number floor(g / D_t) mod (#candidates), counting
//    candidates in port-number order.
// So a leaf with U up-ports sends g up port g mod U: consecutive hosts of a
// leaf take distinct up-ports while there are at least as many up-ports, and
// the remote hosts split evenly when U divides the hosts per leaf.
// Differences from OpenSM's ftree: ftree checks that the fabric is a fat-tree
// and falls back to minhop if not (this one routes any fabric, min-hop);
// ftree orders leaves by their topological tuple, not by GUID; it assigns
// ports by least-loaded counters rather than the modulo rule; it routes
// switch LIDs and treats I/O nodes (io_guid_file) separately; and
// root/compute-node GUID files are not read. Totals per port match on
// complete fat-trees; individual port numbers may not.
// `link_down` as for ComputeMinHop.
ForwardingTables ComputeFtree(const Topology& topology);
ForwardingTables ComputeFtree(const Topology& topology, const IbLidMap& map,
                              std::span<const uint8_t> link_down = {});

// Reads the LFTs OpenSM writes to <dump_files_dir>/opensm-lfts.dump (when run
// with the ROUTING log bit, -D 0x40, or `dump_files` modes):
//   Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('Switch1'):
//   0x0002 001 # Channel Adapter portguid 0x0000000000100001: 'Hca1'
//   6 lids dumped
// and the output of `ibroute <switch lid>` (also with -n, or several
// switches concatenated):
//   Unicast lids [0x0-0x4] of switch Lid 3 guid 0x0002c90000000010 (leaf0):
//     Lid  Out   Destination
//          Port     Info
//   0x0001 001 : (Channel Adapter portguid 0x0002c90000000101: 'h0')
//   4 valid lids dumped
// Switches are found by node GUID (else by their LID in `map`); a
// destination LID by `map`, else by the "portguid 0x..." its line names.
// Entries for switch LIDs and port 255 (no path) are skipped; switches the
// text does not mention keep empty tables. Errors read "<origin>:<line>: ...".
// REQUIRES: `map` was built for `topology`.
Result<ForwardingTables> ReadOpensmLftDump(std::string_view text, const std::string& origin, const IbLidMap& map,
                                           const Topology& topology);
Result<ForwardingTables> ReadIbroute(std::string_view text, const std::string& origin, const IbLidMap& map,
                                     const Topology& topology);

// Hops from every node to host `dst` when hosts send on their first link
// (IB port 1) and switches follow `tables`: 0 at dst, -1 where the walk
// meets a missing entry, a loop, or another host.
std::vector<int> HopsAlongTables(const Topology& topology, const ForwardingTables& tables, NodeId dst);
// How many destination hosts each port of switch `sw` carries, by position
// in the node's `ports` list.
std::vector<int> RoutesPerPort(const Topology& topology, const ForwardingTables& tables, NodeId sw);

}  // namespace aifabric
