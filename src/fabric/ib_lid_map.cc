#include "fabric/ib_lid_map.h"

#include <cassert>

#include "core/text_file.h"

namespace aifabric {

constexpr uint16_t kMaxUnicastLid = 0xBFFF;

uint64_t IbLidMap::AifabricNodeGuid(NodeId id) {
  assert(id >= 0);
  return kAifabricGuidBase + (static_cast<uint64_t>(id) << 8);
}

IbLidMap IbLidMap::Empty(const Topology& topology) {
  IbLidMap map;
  map.node_guid_.assign(topology.num_nodes(), 0);
  map.ib_port_.assign(topology.ports().size(), 0);
  map.port_at_.assign(topology.num_nodes(), {});
  map.is_switch_.assign(topology.num_nodes(), false);
  for (const Node& n : topology.nodes()) map.is_switch_[n.id] = n.kind == NodeKind::kSwitch;
  return map;
}

IbLidMap IbLidMap::ForTopology(const Topology& topology) {
  IbLidMap map = Empty(topology);
  for (const Node& n : topology.nodes()) {
    map.SetNodeGuid(n.id, AifabricNodeGuid(n.id));
    for (size_t i = 0; i < n.ports.size(); ++i) {
      const int ib_port = static_cast<int>(i) + 1;
      map.SetIbPort(topology, n.ports[i], ib_port);
      if (n.kind == NodeKind::kHost) map.SetPortGuid({n.id, ib_port}, AifabricNodeGuid(n.id) + ib_port);
    }
  }
  return map;
}

void IbLidMap::SetNodeGuid(NodeId node, uint64_t guid) {
  assert(node >= 0 && static_cast<size_t>(node) < node_guid_.size());
  node_guid_[node] = guid;
  node_by_guid_[guid] = node;
  // A switch's port GUID is its node GUID and names port 0; a CA's node GUID
  // names no port, so only switches register here (callers say which by
  // SetPortGuid for CA ports).
}

void IbLidMap::SetIbPort(const Topology& topology, PortId port, int ib_port) {
  assert(ib_port >= 1);
  const NodeId node = topology.port(port).node;
  std::vector<PortId>& at = port_at_[node];
  if (static_cast<size_t>(ib_port) >= at.size()) at.resize(ib_port + 1, kNoPort);
  assert(at[ib_port] == kNoPort);
  at[ib_port] = port;
  ib_port_[port] = ib_port;
}

void IbLidMap::SetPortGuid(IbPortRef port, uint64_t guid) { port_by_guid_[guid] = port; }

Status IbLidMap::SetLid(uint16_t lid, IbPortRef port) {
  if (lid == 0 || lid > kMaxUnicastLid) {
    return Error{"LID " + std::to_string(lid) + " is not a unicast LID (1..49151)"};
  }
  if (lid >= by_lid_.size()) by_lid_.resize(lid + 1u);
  IbPortRef& slot = by_lid_[lid];
  if (slot.node != kNoNode && !(slot == port)) {
    return Error{"LID " + std::to_string(lid) + " is given to two ports (node " + std::to_string(slot.node) +
                 " port " + std::to_string(slot.ib_port) + " and node " + std::to_string(port.node) + " port " +
                 std::to_string(port.ib_port) + ")"};
  }
  slot = port;
  return Status::Ok();
}

NodeId IbLidMap::NodeByGuid(uint64_t guid) const {
  auto it = node_by_guid_.find(guid);
  return it == node_by_guid_.end() ? kNoNode : it->second;
}

std::optional<IbPortRef> IbLidMap::PortByGuid(uint64_t guid) const {
  auto it = port_by_guid_.find(guid);
  if (it != port_by_guid_.end()) return it->second;
  // A switch's port GUID is its node GUID; a CA's node GUID names no port.
  const NodeId node = NodeByGuid(guid);
  if (node != kNoNode && is_switch_[node]) return IbPortRef{node, 0};
  return std::nullopt;
}

std::optional<IbPortRef> IbLidMap::PortByLid(uint16_t lid) const {
  if (lid >= by_lid_.size() || by_lid_[lid].node == kNoNode) return std::nullopt;
  return by_lid_[lid];
}

uint16_t IbLidMap::LidOf(IbPortRef port) const {
  for (size_t lid = 1; lid < by_lid_.size(); ++lid) {
    if (by_lid_[lid] == port) return static_cast<uint16_t>(lid);
  }
  return 0;
}

PortId IbLidMap::PortAt(NodeId node, int ib_port) const {
  const std::vector<PortId>& at = port_at_[node];
  if (ib_port < 0 || static_cast<size_t>(ib_port) >= at.size()) return kNoPort;
  return at[ib_port];
}

int IbLidMap::MaxIbPort(NodeId node) const {
  const std::vector<PortId>& at = port_at_[node];
  return at.empty() ? 0 : static_cast<int>(at.size()) - 1;
}

namespace {

struct IbSpeed {
  const char* name;
  uint64_t lane_mbps;
};
// Longest names first so "FDR10" is not read as "FDR".
constexpr IbSpeed kIbSpeeds[] = {{"FDR10", 10000}, {"SDR", 2500}, {"DDR", 5000},  {"QDR", 10000}, {"FDR", 14000},
                                 {"EDR", 25000},   {"HDR", 50000}, {"NDR", 100000}, {"XDR", 200000}};
constexpr int kIbWidths[] = {4, 1, 2, 8, 12};

}  // namespace

Result<DataRate> ParseIbLinkRate(std::string_view token) {
  const size_t x = token.find('x');
  int64_t width = 0;
  if (x == std::string_view::npos || !ParseInt64(token.substr(0, x), width) ||
      (width != 1 && width != 2 && width != 4 && width != 8 && width != 12)) {
    return Error{"expected a link rate like '4xNDR' (width 1, 2, 4, 8 or 12), got '" + std::string(token) + "'"};
  }
  const std::string_view speed = token.substr(x + 1);
  for (const IbSpeed& s : kIbSpeeds) {
    if (speed == s.name) return DataRate::Mbps(static_cast<uint64_t>(width) * s.lane_mbps);
  }
  return Error{"expected a link speed SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR in '" + std::string(token) +
               "'"};
}

std::string IbLinkRateName(DataRate rate) {
  for (int width : kIbWidths) {
    for (const IbSpeed& s : kIbSpeeds) {
      if (std::string_view(s.name) == "FDR10") continue;  // same rate as QDR; name the standard one
      if (DataRate::Mbps(static_cast<uint64_t>(width) * s.lane_mbps) == rate) {
        std::string out = std::to_string(width);
        out += 'x';
        out += s.name;
        return out;
      }
    }
  }
  return "";
}

bool ParseIbHex(std::string_view text, uint64_t& out) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) text.remove_prefix(2);
  if (text.empty() || text.size() > 16) return false;
  uint64_t v = 0;
  for (char c : text) {
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return false;
    v = (v << 4) | static_cast<uint64_t>(d);
  }
  out = v;
  return true;
}

Status ReadOpensmGuid2Lid(std::string_view text, const std::string& origin, IbLidMap& map) {
  for (const TextLine& line : SplitLines(text)) {
    const auto f = SplitWhitespace(line.text);
    if (f.empty()) continue;
    uint64_t guid = 0, base = 0, max = 0;
    if (f.size() != 3 || !ParseIbHex(f[0], guid) || !ParseIbHex(f[1], base) || !ParseIbHex(f[2], max)) {
      std::string got(line.text);
      return Error{FileLine(origin, line.number) + "expected '0x<port guid> 0x<base lid> 0x<max lid>', got '" + got +
                   "'"};
    }
    const std::optional<IbPortRef> port = map.PortByGuid(guid);
    if (!port) {
      return Error{FileLine(origin, line.number) + "port GUID " + std::string(f[0]) + " is not in the fabric"};
    }
    if (base > 0xFFFF) return Error{FileLine(origin, line.number) + "LID " + std::string(f[1]) + " is too large"};
    if (Status s = map.SetLid(static_cast<uint16_t>(base), *port); !s) {
      return Error{FileLine(origin, line.number) + s.error().message};
    }
  }
  return Status::Ok();
}

}  // namespace aifabric
