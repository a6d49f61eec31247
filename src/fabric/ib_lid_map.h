// IbLidMap is how aifabric nodes appear to InfiniBand tools: each host is a
// channel adapter (CA, "Hca" in ibsim), each switch an IB switch, every node
// has a node GUID, every IB port a number and a GUID, and the subnet manager's
// LIDs name ports. Built once per fabric (from the Topology, or by the
// ibnetdiscover reader from what the tool printed); then read-only and safe to
// share between threads.
//
// The aifabric identities (IbLidMap::ForTopology):
//   node GUID        = kAifabricGuidBase + (node id << 8)
//   CA port GUID     = node GUID + IB port number     (ibsim's rule too)
//   switch port GUID = node GUID                       (port 0, the switch's
//                                                       management port)
//   IB port number   = 1 + the port's index in the node's `ports` list, so a
//                      host's first link is its CA port 1 and a switch's
//                      ports are 1..N in link-creation order.
// A CA port has its own LID; a switch has one LID, on port 0. LIDs are not
// derived: they are whatever the subnet manager assigned, recorded with
// SetLid from its dump, ibnetdiscover, or OpenSM's guid2lid file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/result.h"
#include "fabric/topology.h"

namespace aifabric {

constexpr uint64_t kAifabricGuidBase = 0xA1FA000000000000ull;

// One IB port: the node it belongs to and its IB port number (0 = a switch's
// management port, which carries the switch's LID).
struct IbPortRef {
  NodeId node = kNoNode;
  int ib_port = 0;
  bool operator==(const IbPortRef&) const = default;
};

class IbLidMap {
 public:
  IbLidMap() = default;

  // The aifabric identities above for every node of `topology`; no LIDs.
  static IbLidMap ForTopology(const Topology& topology);

  // The GUID formula. REQUIRES: id >= 0.
  static uint64_t AifabricNodeGuid(NodeId id);

  // An empty map sized for `topology`: no GUIDs, no port numbers. Readers
  // fill it with SetNodeGuid / SetIbPort / SetPortGuid / SetLid.
  static IbLidMap Empty(const Topology& topology);

  // Records the node GUID of `node`. REQUIRES: node of the topology.
  void SetNodeGuid(NodeId node, uint64_t guid);
  // Gives directed port `port` (whose sender is the node) IB port number
  // `ib_port` >= 1. REQUIRES: the number is not taken on that node.
  void SetIbPort(const Topology& topology, PortId port, int ib_port);
  // Records the GUID of one IB port (CA ports; a switch's is its node GUID).
  void SetPortGuid(IbPortRef port, uint64_t guid);
  // Records that the subnet manager gave `lid` to `port`. Fails if the LID
  // is outside 1..0xBFFF (unicast) or already names a different port.
  Status SetLid(uint16_t lid, IbPortRef port);

  uint64_t node_guid(NodeId node) const { return node_guid_[node]; }
  // The node with this node GUID; kNoNode if none.
  NodeId NodeByGuid(uint64_t guid) const;
  // The IB port with this port GUID (a switch's port GUID names port 0).
  std::optional<IbPortRef> PortByGuid(uint64_t guid) const;
  // The IB port holding `lid`; nullopt if no source named it.
  std::optional<IbPortRef> PortByLid(uint16_t lid) const;
  // The LID of an IB port; 0 if unknown.
  uint16_t LidOf(IbPortRef port) const;

  // IB port number of directed port `port` at its sending node; 0 if unset.
  int IbPort(PortId port) const { return ib_port_[port]; }
  // The directed port leaving `node` at IB port `ib_port`; kNoPort if none.
  PortId PortAt(NodeId node, int ib_port) const;
  // Highest IB port number used on `node` (0 if it has none).
  int MaxIbPort(NodeId node) const;

 private:
  std::vector<uint64_t> node_guid_;             // by NodeId; 0 if unknown
  std::vector<bool> is_switch_;                 // by NodeId
  std::vector<int> ib_port_;                    // by PortId
  std::vector<std::vector<PortId>> port_at_;    // [node][ib port]
  std::unordered_map<uint64_t, NodeId> node_by_guid_;
  std::unordered_map<uint64_t, IbPortRef> port_by_guid_;
  std::vector<IbPortRef> by_lid_;               // [lid]; node kNoNode if unknown
};

// IB link rates as the tools print them: "<width>x<speed>", e.g. "4xNDR".
// Nominal per-lane rates (Gb/s): SDR 2.5, DDR 5, QDR 10, FDR10 10, FDR 14,
// EDR 25, HDR 50, NDR 100, XDR 200; widths 1, 2, 4, 8, 12. So 4xEDR = 100G,
// 4xHDR = 200G, 4xNDR = 400G, 4xXDR = 800G (REFERENCES.md §5).
// The rate of a "4xNDR"-style token; error if it is not one.
Result<DataRate> ParseIbLinkRate(std::string_view token);
// The token for `rate`, preferring width 4, then 1, 2, 8, 12; empty when no
// width x speed gives exactly that rate.
std::string IbLinkRateName(DataRate rate);

// Parses a hex number as IB tools print GUIDs and LIDs: "0x1f", "0X1F" or
// bare "1f"; false on anything else or overflow. Shared by the IB readers.
bool ParseIbHex(std::string_view text, uint64_t& out);

// Reads OpenSM's guid2lid cache file (in OSM_CACHE_DIR): one
// "0x<port guid> 0x<base lid> 0x<max lid>" line per port, blank lines
// between. Records each base LID for the port whose GUID `map` knows; GUIDs
// it does not know are errors. Errors read "<origin>:<line>: <expected>".
Status ReadOpensmGuid2Lid(std::string_view text, const std::string& origin, IbLidMap& map);

}  // namespace aifabric
