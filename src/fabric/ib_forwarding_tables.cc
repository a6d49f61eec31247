#include "fabric/ib_forwarding_tables.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <optional>
#include <unordered_map>

#include "core/text_file.h"
#include "fabric/host_distance.h"

namespace aifabric {
namespace {

bool IsSwitch(const Topology& t, NodeId n) { return t.node(n).kind == NodeKind::kSwitch; }

// The switch a host hangs off: the peer of its first link (CA port 1), or
// kNoNode if it has no link or that link goes to another host.
NodeId AttachedSwitch(const Topology& t, NodeId host) {
  const Node& h = t.node(host);
  if (h.ports.empty()) return kNoNode;
  const NodeId peer = t.port(h.ports[0]).peer;
  return IsSwitch(t, peer) ? peer : kNoNode;
}

// Hop counts from every switch to switch `root` over switch-to-switch links
// (CAs never forward); -1 for hosts and unreachable switches.
std::vector<int> SwitchHopsTo(const Topology& t, NodeId root) {
  std::vector<int> dist(t.num_nodes(), -1);
  std::deque<NodeId> queue{root};
  dist[root] = 0;
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    for (PortId p : t.node(n).ports) {
      const NodeId m = t.port(p).peer;
      if (IsSwitch(t, m) && dist[m] < 0) {
        dist[m] = dist[n] + 1;
        queue.push_back(m);
      }
    }
  }
  return dist;
}

// Per destination host: its switch and the hop table toward that switch,
// computed once per switch.
class HopCache {
 public:
  explicit HopCache(const Topology& t) : t_(t) {}
  const std::vector<int>& To(NodeId sw) {
    auto it = cache_.find(sw);
    if (it == cache_.end()) it = cache_.emplace(sw, SwitchHopsTo(t_, sw)).first;
    return it->second;
  }

 private:
  const Topology& t_;
  std::unordered_map<NodeId, std::vector<int>> cache_;
};

// The least-hop output ports of switch `sw` toward host `dst` (whose switch
// is `leaf`, with hop table `hops`), in IB port-number order. The host's own
// link when sw == leaf.
std::vector<PortId> LeastHopPorts(const Topology& t, const IbLidMap& map, NodeId sw, NodeId dst, NodeId leaf,
                                  const std::vector<int>& hops) {
  std::vector<PortId> out;
  if (sw == leaf) {
    out.push_back(t.port(t.node(dst).ports[0]).reverse());
    return out;
  }
  if (hops[sw] < 0) return out;
  for (int ib = 1; ib <= map.MaxIbPort(sw); ++ib) {
    const PortId p = map.PortAt(sw, ib);
    if (p == kNoPort) continue;
    const NodeId m = t.port(p).peer;
    if (IsSwitch(t, m) && hops[m] == hops[sw] - 1) out.push_back(p);
  }
  return out;
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
      host_index_(topology.num_nodes(), -1) {
  int switches = 0;
  for (const Node& n : topology.nodes()) {
    if (n.kind == NodeKind::kSwitch) switch_index_[n.id] = switches++;
    else host_index_[n.id] = topology.host_index(n.id);
  }
  out_.assign(static_cast<size_t>(switches) * num_hosts_, kNoPort);
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

ForwardingTables ComputeMinHop(const Topology& topology, const IbLidMap& map) {
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

  HopCache hops(topology);
  for (NodeId sw : switches) {
    std::vector<int> paths(map.MaxIbPort(sw) + 1, 0);  // destinations per IB port
    for (NodeId dst : order) {
      const NodeId leaf = AttachedSwitch(topology, dst);
      if (leaf == kNoNode) continue;
      PortId best = kNoPort;
      for (PortId p : LeastHopPorts(topology, map, sw, dst, leaf, hops.To(leaf))) {
        if (best == kNoPort || paths[map.IbPort(p)] < paths[map.IbPort(best)]) best = p;
      }
      if (best == kNoPort) continue;
      tables.Set(sw, dst, best);
      ++paths[map.IbPort(best)];
    }
  }
  return tables;
}

// ---------------------------------------------------------------------------
// Fat-tree

ForwardingTables ComputeFtree(const Topology& topology) {
  return ComputeFtree(topology, IbLidMap::ForTopology(topology));
}

ForwardingTables ComputeFtree(const Topology& topology, const IbLidMap& map) {
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
      const NodeId m = topology.port(p).peer;
      up += IsSwitch(topology, m) && tier[m] == tier[sw] + 1;
    }
    up_degree[tier[sw]] = std::max(up_degree[tier[sw]], up);
  }
  std::vector<int64_t> divisor(max_tier + 2, 1);
  for (int t = 2; t <= max_tier + 1; ++t) divisor[t] = divisor[t - 1] * up_degree[t - 1];

  HopCache hops(topology);
  for (size_t g = 0; g < order.size(); ++g) {
    const NodeId dst = order[g];
    const NodeId leaf = AttachedSwitch(topology, dst);
    if (leaf == kNoNode) continue;
    const std::vector<int>& to_leaf = hops.To(leaf);
    for (NodeId sw : switches) {
      const std::vector<PortId> candidates = LeastHopPorts(topology, map, sw, dst, leaf, to_leaf);
      if (candidates.empty()) continue;
      std::vector<PortId> down;
      for (PortId p : candidates) {
        const NodeId m = topology.port(p).peer;
        if (!IsSwitch(topology, m) || tier[m] < tier[sw]) down.push_back(p);
      }
      const std::vector<PortId>& pick = down.empty() ? candidates : down;
      const int64_t d = divisor[std::clamp(tier[sw], 1, max_tier + 1)];
      tables.Set(sw, dst, pick[(static_cast<int64_t>(g) / d) % static_cast<int64_t>(pick.size())]);
    }
  }
  return tables;
}

// ---------------------------------------------------------------------------
// OpenSM dump and ibroute readers

namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

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
    if (s.empty() || EndsWith(s, "lids dumped") || StartsWith(s, "Lid ") || StartsWith(s, "Port ")) continue;
    if (StartsWith(s, "Unicast lids")) {
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
    if (!StartsWith(s, "0x") || f.size() < 2 || !ParseIbHex(f[0], lid) || !ParseInt64(f[1], out)) {
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

std::vector<int> HopsAlongTables(const Topology& topology, const ForwardingTables& tables, NodeId dst) {
  constexpr int kUnknown = -2, kOnStack = -3;
  std::vector<int> hops(topology.num_nodes(), kUnknown);
  hops[dst] = 0;
  std::vector<NodeId> stack;
  for (NodeId start : topology.switches()) {
    NodeId at = start;
    int base = -1;
    while (true) {
      if (hops[at] != kUnknown) {
        base = hops[at] == kOnStack ? -1 : hops[at];  // a loop, or a known answer
        break;
      }
      if (!IsSwitch(topology, at)) {
        base = -1;  // another host
        break;
      }
      hops[at] = kOnStack;
      stack.push_back(at);
      const PortId p = tables.Get(at, dst);
      if (p == kNoPort) {
        base = -1;
        break;
      }
      at = topology.port(p).peer;
    }
    while (!stack.empty()) {
      base = base < 0 ? -1 : base + 1;
      hops[stack.back()] = base;
      stack.pop_back();
    }
  }
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
