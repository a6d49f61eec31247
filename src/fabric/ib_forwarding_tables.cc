#include "fabric/ib_forwarding_tables.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <span>
#include <unordered_map>

#include "core/text_file.h"
#include "fabric/ib_forwarding_candidates.h"
#include "fabric/host_distance.h"

namespace aifabric {
namespace {

using ib_engines::CandidateCache;
using ib_engines::SwitchGraph;

bool IsSwitch(const Topology& t, NodeId n) { return t.node(n).kind == NodeKind::kSwitch; }

// The switch a host hangs off: the peer of its first link (CA port 1), or
// kNoNode if it has no link or that link goes to another host.
NodeId AttachedSwitch(const Topology& t, NodeId host) {
  const Node& h = t.node(host);
  if (h.ports.empty()) return kNoNode;
  const NodeId peer = t.port(h.ports[0]).peer;
  return IsSwitch(t, peer) ? peer : kNoNode;
}

// Switches in node-GUID order.
std::vector<NodeId> SwitchesByGuid(const Topology& t, const IbLidMap& map) {
  std::vector<NodeId> sw = t.switches();
  std::stable_sort(sw.begin(), sw.end(), [&](NodeId a, NodeId b) { return map.node_guid(a) < map.node_guid(b); });
  return sw;
}

// Hosts hanging off `sw` (by their port 1), in the switch's port order.
std::vector<NodeId> HostsBelow(const Topology& t, const IbLidMap& map, NodeId sw) {
  std::vector<NodeId> out;
  for (int ib = 1; ib <= map.MaxIbPort(sw); ++ib) {
    const PortId p = map.PortAt(sw, ib);
    if (p == kNoPort) continue;
    const NodeId h = t.port(p).peer;
    if (!IsSwitch(t, h) && t.node(h).ports[0] == t.port(p).reverse()) out.push_back(h);
  }
  return out;
}

// Appends the hosts not yet in `order` (no switch above them), by node id.
void AppendRemainingHosts(const Topology& t, std::vector<NodeId>& order) {
  std::vector<bool> seen(t.num_nodes(), false);
  for (NodeId h : order) seen[h] = true;
  for (NodeId h : t.hosts()) {
    if (!seen[h]) order.push_back(h);
  }
}

std::string Name(const Topology& t, NodeId n) { return t.node(n).name; }

}  // namespace

// ---------------------------------------------------------------------------
// ForwardingTables

ForwardingTables::ForwardingTables(const Topology& topology)
    : num_hosts_(topology.hosts().size()),
      switch_index_(topology.num_nodes(), -1),
      host_index_(topology.num_nodes(), -1),
      slot_(topology.ports().size(), kNoSlot) {
  int switches = 0;
  for (const Node& n : topology.nodes()) {
    for (size_t i = 0; i < n.ports.size(); ++i) slot_[n.ports[i]] = static_cast<uint16_t>(i);
    if (n.kind != NodeKind::kSwitch) {
      host_index_[n.id] = topology.host_index(n.id);
      continue;
    }
    assert(n.ports.size() < kNoSlot);
    wide_ = wide_ || n.ports.size() >= 0xFF;
    switch_index_[n.id] = switches++;
    port_start_.push_back(static_cast<uint32_t>(ports_.size()));
    ports_.insert(ports_.end(), n.ports.begin(), n.ports.end());
  }
  peer_.reserve(ports_.size());
  for (PortId p : ports_) {
    const NodeId m = topology.port(p).peer;
    peer_.push_back(switch_index_[m] >= 0 ? switch_index_[m] : -2 - host_index_[m]);
  }
  out_.assign(static_cast<size_t>(switches) * num_hosts_ * (wide_ ? 2 : 1), 0xFF);
}

void ForwardingTables::SetSlot(size_t i, uint32_t slot) {
  if (!wide_) {
    out_[i] = slot == kNoSlot ? 0xFF : static_cast<uint8_t>(slot);
    return;
  }
  out_[2 * i] = static_cast<uint8_t>(slot & 0xFF);
  out_[2 * i + 1] = static_cast<uint8_t>(slot >> 8);
}

void ForwardingTables::Set(NodeId sw, NodeId dst, PortId port) {
  least_hop_ = false;
  uint32_t slot = kNoSlot;
  if (port != kNoPort) {
    slot = slot_[port];
    assert(ports_[port_start_[switch_index_[sw]] + slot] == port);  // it leaves sw
  }
  SetSlot(Index(sw, dst), slot);
}

size_t ForwardingTables::bytes() const {
  return out_.size() + ports_.size() * (sizeof(PortId) + sizeof(int)) +
         slot_.size() * sizeof(uint16_t) +
         port_start_.size() * sizeof(uint32_t) + (switch_index_.size() + host_index_.size()) * sizeof(int);
}

size_t ForwardingTables::Index(NodeId sw, NodeId dst) const {
  assert(sw >= 0 && static_cast<size_t>(sw) < switch_index_.size() && switch_index_[sw] >= 0);
  assert(dst >= 0 && static_cast<size_t>(dst) < host_index_.size() && host_index_[dst] >= 0);
  return static_cast<size_t>(switch_index_[sw]) * num_hosts_ + static_cast<size_t>(host_index_[dst]);
}

// ---------------------------------------------------------------------------
// Min-hop

ForwardingTables ComputeMinHop(const Topology& topology) {
  return ComputeMinHop(topology, IbLidMap::ForTopology(topology));
}

ForwardingTables ComputeMinHop(const Topology& topology, const IbLidMap& map, std::span<const uint8_t> link_down) {
  ForwardingTables tables(topology);
  // Destination order (sort_ports_by_switch_load): switches by CA links,
  // most first, stable over GUID order; each switch's CAs by port number.
  std::vector<NodeId> switches = SwitchesByGuid(topology, map);
  std::vector<std::vector<NodeId>> below(topology.num_nodes());
  for (NodeId sw : switches) below[sw] = HostsBelow(topology, map, sw);
  std::vector<NodeId> by_load = switches;
  std::stable_sort(by_load.begin(), by_load.end(),
                   [&](NodeId a, NodeId b) { return below[a].size() > below[b].size(); });
  std::vector<NodeId> order;
  for (NodeId sw : by_load) order.insert(order.end(), below[sw].begin(), below[sw].end());
  AppendRemainingHosts(topology, order);

  // The candidates toward a host depend only on the switch it hangs off
  // (its hop count is that switch's plus one): found once per (switch,
  // destination switch). Hosts come in runs with the same candidates (a
  // switch's hosts are consecutive in the order, and a leaf's up-ports
  // serve every remote leaf), and a run is assigned at once: giving each
  // destination in turn the candidate with the fewest destinations, ties to
  // the lowest port number, hands out the "slots" (count, position) of the
  // candidates in increasing order — at level v, every candidate whose
  // count is at most v, in port order — so a run of R destinations over C
  // candidates costs R + C x (levels), not R x C.
  SwitchGraph graph(topology, map, link_down);
  CandidateCache candidates(graph);
  std::vector<NodeId> leaf_of(order.size());
  for (size_t i = 0; i < order.size(); ++i) leaf_of[i] = AttachedSwitch(topology, order[i]);
  std::vector<int> count;  // scratch: a run's candidates' destinations so far
  for (NodeId sw : switches) {
    candidates.Reset(sw);
    std::vector<int> paths(map.MaxIbPort(sw) + 1, 0);  // destinations per IB port
    size_t i = 0;
    while (i < order.size()) {
      const NodeId leaf = leaf_of[i];
      if (leaf == kNoNode) {
        ++i;
        continue;
      }
      if (sw == leaf) {  // its own link
        const NodeId dst = order[i++];
        const PortId own = topology.port(topology.node(dst).ports[0]).reverse();
        tables.Set(sw, dst, own);
        ++paths[map.IbPort(own)];
        continue;
      }
      const int list = candidates.Toward(leaf);
      size_t end = i + 1;  // the run: the next hosts with the same candidates
      while (end < order.size() && leaf_of[end] != kNoNode && leaf_of[end] != sw &&
             candidates.Toward(leaf_of[end]) == list) {
        ++end;
      }
      const std::span<const PortId> c = candidates.List(list);
      if (c.empty()) {
        i = end;
        continue;
      }
      count.resize(c.size());
      int level = paths[map.IbPort(c[0])];
      for (size_t k = 0; k < c.size(); ++k) {
        count[k] = paths[map.IbPort(c[k])];
        level = std::min(level, count[k]);
      }
      while (i < end) {
        for (size_t k = 0; k < c.size() && i < end; ++k) {
          if (count[k] > level) continue;
          tables.Set(sw, order[i++], c[k]);
          ++count[k];
        }
        ++level;
      }
      for (size_t k = 0; k < c.size(); ++k) paths[map.IbPort(c[k])] = count[k];
    }
  }
  tables.least_hop_ = true;  // every entry is a least-hop port (or its host's link)
  return tables;
}

// ---------------------------------------------------------------------------
// Fat-tree

ForwardingTables ComputeFtree(const Topology& topology) {
  return ComputeFtree(topology, IbLidMap::ForTopology(topology));
}

ForwardingTables ComputeFtree(const Topology& topology, const IbLidMap& map, std::span<const uint8_t> link_down) {
  ForwardingTables tables(topology);
  const std::vector<NodeId> switches = SwitchesByGuid(topology, map);

  // Tiers: the builders' own, else the distance from the nearest host.
  std::vector<int> tier(topology.num_nodes(), 0);
  bool known = true;
  for (NodeId sw : switches) known &= topology.node(sw).tier >= 1;
  if (known) {
    for (NodeId sw : switches) tier[sw] = topology.node(sw).tier;
  } else {
    const std::vector<int> distance = HostDistances(topology);
    for (NodeId sw : switches) tier[sw] = distance[sw];
  }

  // Global host index g: leaves in GUID order, hosts in port order.
  std::vector<NodeId> order;
  for (NodeId sw : switches) {
    const std::vector<NodeId> hosts = HostsBelow(topology, map, sw);
    order.insert(order.end(), hosts.begin(), hosts.end());
  }
  AppendRemainingHosts(topology, order);

  // D_t: the product of the largest up-degree of each lower tier.
  int max_tier = 0;
  for (NodeId sw : switches) max_tier = std::max(max_tier, tier[sw]);
  std::vector<int64_t> up_degree(max_tier + 2, 1);
  for (NodeId sw : switches) {
    if (tier[sw] < 1) continue;
    int64_t up = 0;
    for (PortId p : topology.node(sw).ports) {
      if (!link_down.empty() && link_down[static_cast<size_t>(topology.port(p).link)] != 0) continue;
      const NodeId m = topology.port(p).peer;
      up += IsSwitch(topology, m) && tier[m] == tier[sw] + 1;
    }
    up_degree[tier[sw]] = std::max(up_degree[tier[sw]], up);
  }
  std::vector<int64_t> divisor(max_tier + 2, 1);
  for (int t = 2; t <= max_tier + 1; ++t) divisor[t] = divisor[t - 1] * up_degree[t - 1];

  // Each switch on its own (the choice of one switch does not depend on
  // another's), its candidates toward each destination switch found once.
  SwitchGraph graph(topology, map, link_down);
  CandidateCache candidates(graph);
  std::vector<PortId> down;
  for (NodeId sw : switches) {
    candidates.Reset(sw);
    const int64_t d = divisor[std::clamp(tier[sw], 1, max_tier + 1)];
    NodeId cached_leaf = kNoNode;
    std::span<const PortId> all;
    for (size_t g = 0; g < order.size(); ++g) {
      const NodeId dst = order[g];
      const NodeId leaf = AttachedSwitch(topology, dst);
      if (leaf == kNoNode) continue;
      if (sw == leaf) {  // its own link: the one candidate, and it leads down
        tables.Set(sw, dst, topology.port(topology.node(dst).ports[0]).reverse());
        continue;
      }
      if (leaf != cached_leaf) {
        cached_leaf = leaf;
        all = candidates.List(candidates.Toward(leaf));
        down.clear();
        for (PortId p : all) {
          const NodeId m = topology.port(p).peer;
          if (!IsSwitch(topology, m) || tier[m] < tier[sw]) down.push_back(p);
        }
      }
      if (all.empty()) continue;
      const std::span<const PortId> pick = down.empty() ? all : std::span<const PortId>(down);
      tables.Set(sw, dst, pick[(static_cast<int64_t>(g) / d) % static_cast<int64_t>(pick.size())]);
    }
  }
  tables.least_hop_ = true;  // every entry is a least-hop port (or its host's link)
  return tables;
}

// ---------------------------------------------------------------------------
// OpenSM dump and ibroute readers

namespace {

std::string_view TrimLeft(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

bool EndsWith(std::string_view s, std::string_view p) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

Result<ForwardingTables> ReadLftText(std::string_view text, const std::string& origin, const IbLidMap& map,
                                     const Topology& topology, const char* what) {
  ForwardingTables tables(topology);
  NodeId sw = kNoNode;
  std::vector<bool> seen(topology.num_nodes(), false);
  auto err = [&origin](int line, const std::string& msg) { return Error{FileLine(origin, line) + msg}; };
  for (const TextLine& line : SplitLines(text)) {
    const std::string_view s = TrimLeft(line.text);
    if (s.empty() || EndsWith(s, "lids dumped") || s.starts_with("Lid ") || s.starts_with("Port ")) continue;
    if (s.starts_with("Unicast lids")) {
      // "... of switch Lid <dec> guid 0x<hex> (...):"
      const size_t at = s.find("of switch Lid ");
      const size_t g = s.find(" guid ");
      int64_t lid = 0;
      uint64_t guid = 0;
      std::vector<std::string_view> lid_field =
          at == std::string_view::npos ? std::vector<std::string_view>{} : SplitWhitespace(s.substr(at + 14));
      std::vector<std::string_view> guid_field =
          g == std::string_view::npos ? std::vector<std::string_view>{} : SplitWhitespace(s.substr(g + 6));
      if (lid_field.empty() || !ParseInt64(lid_field[0], lid) || guid_field.empty() ||
          !ParseIbHex(guid_field[0], guid)) {
        return err(line.number, "expected 'Unicast lids [...] of switch Lid <lid> guid 0x<guid> (...):', got " +
                                    Quote(line.text));
      }
      sw = map.NodeByGuid(guid);
      if (sw == kNoNode && lid > 0 && lid <= 0xFFFF) {
        if (auto port = map.PortByLid(static_cast<uint16_t>(lid))) sw = port->node;
      }
      if (sw == kNoNode || !IsSwitch(topology, sw)) {
        return err(line.number, "switch guid " + std::string(guid_field[0]) + " (Lid " + std::to_string(lid) +
                                    ") is not a switch of the fabric");
      }
      if (seen[sw]) return err(line.number, "switch " + Name(topology, sw) + " has a second table");
      seen[sw] = true;
      continue;
    }
    const std::vector<std::string_view> f = SplitWhitespace(s);
    uint64_t lid = 0;
    int64_t out = 0;
    if (!s.starts_with("0x") || f.size() < 2 || !ParseIbHex(f[0], lid) || !ParseInt64(f[1], out)) {
      return err(line.number, std::string("expected a '") + what +
                                  "' line: 'Unicast lids [...] of switch ...' or '0x<lid> <port> ...', got " +
                                  Quote(line.text));
    }
    if (sw == kNoNode) return err(line.number, "an LFT entry before any 'Unicast lids ... of switch' line");
    if (lid == 0 || lid > 0xBFFF) return err(line.number, "LID " + std::string(f[0]) + " is not a unicast LID");
    if (out == 255) continue;  // no path
    std::optional<IbPortRef> dst = map.PortByLid(static_cast<uint16_t>(lid));
    if (!dst) {
      const size_t pg = s.find("portguid ");
      uint64_t guid = 0;
      if (pg != std::string_view::npos) {
        const std::vector<std::string_view> gf = SplitWhitespace(s.substr(pg + 9));
        std::string_view hex = gf.empty() ? std::string_view() : gf[0];
        if (!hex.empty() && hex.back() == ':') hex.remove_suffix(1);
        if (ParseIbHex(hex, guid)) dst = map.PortByGuid(guid);
      }
    }
    if (!dst) {
      return err(line.number, "LID " + std::string(f[0]) +
                                  " is not known: give the map the LIDs (from ibnetdiscover or guid2lid) or keep the "
                                  "'portguid 0x...' comments");
    }
    // Switch LIDs carry no host traffic; a host is a destination by the LID
    // of its first link (CA port 1 under aifabric numbering).
    if (IsSwitch(topology, dst->node) || topology.node(dst->node).ports.empty() ||
        map.PortAt(dst->node, dst->ib_port) != topology.node(dst->node).ports[0]) {
      continue;
    }
    if (out == 0) return err(line.number, "switch " + Name(topology, sw) + " sends host LID " + std::string(f[0]) + " to its own port 0");
    const PortId port = map.PortAt(sw, static_cast<int>(std::min<int64_t>(out, 1 << 20)));
    if (port == kNoPort) {
      return err(line.number, "switch " + Name(topology, sw) + " has no linked port " + std::to_string(out));
    }
    tables.Set(sw, dst->node, port);
  }
  return tables;
}

}  // namespace

Result<ForwardingTables> ReadOpensmLftDump(std::string_view text, const std::string& origin, const IbLidMap& map,
                                           const Topology& topology) {
  return ReadLftText(text, origin, map, topology, "opensm-lfts.dump");
}

Result<ForwardingTables> ReadIbroute(std::string_view text, const std::string& origin, const IbLidMap& map,
                                     const Topology& topology) {
  return ReadLftText(text, origin, map, topology, "ibroute");
}

// ---------------------------------------------------------------------------
// Walks along the tables

void ForwardingTables::SwitchHops(size_t first, size_t count, std::vector<int>& hops) const {
  constexpr int kUnknown = -2, kOnStack = -3;
  const size_t switches = port_start_.size();
  assert(first + count <= num_hosts_);
  // The block's entries, each switch's side by side (one or two cache lines
  // per switch, which stay in cache while the block's walks read them). The
  // rows are 2 x hosts bytes apart, a stride the hardware does not
  // prefetch: ask for a few rows ahead.
  const size_t width = wide_ ? 2 : 1;
  std::vector<uint8_t> block(count * switches * width);
  constexpr size_t kAhead = 8;
  for (size_t sw = 0; sw < switches; ++sw) {
    const uint8_t* row = out_.data() + (sw * num_hosts_ + first) * width;
    if (sw + kAhead < switches) {
      for (size_t b = 0; b < count * width; b += 64) __builtin_prefetch(row + kAhead * num_hosts_ * width + b);
    }
    std::copy(row, row + count * width, block.data() + sw * count * width);
  }
  const int* peer = peer_.data();
  const uint32_t* port_start = port_start_.data();
  hops.assign(count * switches, kUnknown);
  std::vector<int> stack;
  for (size_t j = 0; j < count; ++j) {
    const int target = -2 - static_cast<int>(first + j);  // the destination as a peer code
    const uint8_t* entry = block.data() + j * width;  // switch sw's at sw * count
    int* h = hops.data() + j * switches;
    for (size_t start = 0; start < switches; ++start) {
      int at = static_cast<int>(start);
      int base = -1;
      while (true) {
        if (at == target) {
          base = 0;
          break;
        }
        if (at < 0) {
          base = -1;  // another host
          break;
        }
        if (h[at] != kUnknown) {
          base = h[at] == kOnStack ? -1 : h[at];  // a loop, or a known answer
          break;
        }
        h[at] = kOnStack;
        stack.push_back(at);
        const uint32_t slot = ReadSlot(entry, static_cast<size_t>(at) * count, wide_);
        if (slot == kNoSlot) {
          base = -1;
          break;
        }
        at = peer[port_start[at] + slot];
      }
      while (!stack.empty()) {
        base = base < 0 ? -1 : base + 1;
        h[stack.back()] = base;
        stack.pop_back();
      }
    }
  }
}

std::vector<int> HopsAlongTables(const Topology& topology, const ForwardingTables& tables, NodeId dst) {
  std::vector<int> hops(topology.num_nodes(), -1);
  std::vector<int> by_switch;
  tables.SwitchHops(static_cast<size_t>(topology.host_index(dst)), 1, by_switch);
  for (NodeId sw : topology.switches()) hops[sw] = by_switch[tables.switch_index(sw)];
  hops[dst] = 0;
  for (NodeId h : topology.hosts()) {
    if (h == dst) continue;
    const Node& n = topology.node(h);
    if (n.ports.empty()) {
      hops[h] = -1;
      continue;
    }
    const NodeId peer = topology.port(n.ports[0]).peer;
    if (peer == dst) hops[h] = 1;
    else hops[h] = IsSwitch(topology, peer) && hops[peer] >= 0 ? hops[peer] + 1 : -1;
  }
  return hops;
}

std::vector<int> RoutesPerPort(const Topology& topology, const ForwardingTables& tables, NodeId sw) {
  const std::vector<PortId>& ports = topology.node(sw).ports;
  std::vector<int> count(ports.size(), 0);
  for (NodeId dst : topology.hosts()) {
    const PortId p = tables.Get(sw, dst);
    if (p == kNoPort) continue;
    const auto it = std::find(ports.begin(), ports.end(), p);
    if (it != ports.end()) ++count[it - ports.begin()];
  }
  return count;
}

}  // namespace aifabric
