#include "fabric/routing_table.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>
#include <unordered_map>

#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_subnets.h"

namespace aifabric {
namespace {

// Stores each distinct port list once. Lists hold ports of one node, so
// equal lists belong to one node.
class PortLists {
 public:
  explicit PortLists(std::vector<PortId>& ports) : ports_(ports) {}
  // Offset of `list` in the store (appended if new).
  uint32_t Intern(const std::vector<PortId>& list) {
    uint64_t h = list.size();
    for (PortId p : list) h = h * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(p);
    auto [first, last] = index_.equal_range(h);
    for (auto it = first; it != last; ++it) {
      if (it->second + list.size() <= ports_.size() &&
          std::equal(list.begin(), list.end(), ports_.begin() + it->second, ports_.begin() + it->second + list.size())) {
        return it->second;
      }
    }
    const uint32_t offset = static_cast<uint32_t>(ports_.size());
    ports_.insert(ports_.end(), list.begin(), list.end());
    index_.emplace(h, offset);
    return offset;
  }

 private:
  std::vector<PortId>& ports_;
  std::unordered_multimap<uint64_t, uint32_t> index_;
};

}  // namespace

// One breadth-first search per column source over the undirected graph:
// the column's switch (for the hosts grouped under it) or the host itself.
// Paths never pass through another host: the search expands from the
// source and from switches only, so a host's distance comes from its own
// links. A grouped host's distance from node n is the switch's plus one,
// and n's next hops toward it are its ports whose peer is one hop closer
// to the switch — except at the switch itself, whose next hop is the
// host's link (NextHops handles it). Hosts without rows are not visited.
RoutingTable RoutingTable::BuildShortestPaths(const Topology& topology, std::span<const uint8_t> link_down) {
  RoutingTable table;
  const size_t num_nodes = topology.num_nodes();
  const std::vector<Node>& nodes = topology.nodes();
  const std::vector<Port>& ports = topology.ports();
  table.row_.assign(num_nodes, -1);
  table.column_.assign(num_nodes, -1);
  table.via_switch_.assign(num_nodes, kNoNode);
  table.to_host_.assign(num_nodes, -1);
  table.uplink_.assign(num_nodes, -1);
  std::vector<NodeId> sources;  // per column
  std::vector<int> switch_column(num_nodes, -1);
  std::vector<NodeId> rows;
  for (const Node& n : nodes) {
    const bool grouped = n.kind == NodeKind::kHost && n.ports.size() == 1 &&
                         nodes[ports[n.ports[0]].peer].kind == NodeKind::kSwitch;
    if (!grouped) {
      table.row_[n.id] = static_cast<int>(rows.size());
      rows.push_back(n.id);
    }
    if (n.kind != NodeKind::kHost) continue;
    if (grouped) {
      const NodeId s = ports[n.ports[0]].peer;
      table.uplink_[n.id] = n.ports[0];
      table.via_switch_[n.id] = s;
      table.to_host_[n.id] = ports[n.ports[0]].reverse();
      if (switch_column[s] < 0) {
        switch_column[s] = static_cast<int>(sources.size());
        sources.push_back(s);
      }
      table.column_[n.id] = switch_column[s];
    } else {
      table.column_[n.id] = static_cast<int>(sources.size());
      sources.push_back(n.id);
    }
  }
  table.num_columns_ = sources.size();
  table.entries_.assign(rows.size() * sources.size(), Entry{});
  PortLists lists(table.ports_);

  // The graph the searches walk, over rows only (hosts without a row are
  // never on a path): per row, its ports to other rows as (peer row, the
  // peer's port back). Dense and small, so the searches stay in cache.
  const size_t num_rows = rows.size();
  std::vector<uint32_t> adjacency_start(num_rows + 1, 0);
  std::vector<std::pair<uint32_t, PortId>> adjacency;
  std::vector<uint8_t> forwards(num_rows);  // hosts do not forward (but a source host sends)
  for (size_t r = 0; r < num_rows; ++r) {
    const Node& n = nodes[rows[r]];
    forwards[r] = n.kind == NodeKind::kSwitch;
    for (PortId p : n.ports) {
      if (!link_down.empty() && link_down[static_cast<size_t>(ports[p].link)] != 0) continue;
      const int peer_row = table.row_[ports[p].peer];
      if (peer_row >= 0) adjacency.emplace_back(static_cast<uint32_t>(peer_row), ports[p].reverse());
    }
    adjacency_start[r + 1] = static_cast<uint32_t>(adjacency.size());
  }
  // One pass per column: the search sets each row's distance and, as it
  // meets a row again from one hop closer, adds that port to its next hops;
  // lists are sorted by port id (the order ECMP indexes) and stored once (a
  // row's list is most often the same as for its last column).
  std::vector<int> dist(num_rows);
  std::vector<uint32_t> seen(num_rows, 0);  // column + 1 that reached the row
  std::vector<uint32_t> queue(num_rows);
  std::vector<std::vector<PortId>> hops(num_rows);
  std::vector<uint32_t> last_offset(num_rows, 0);
  std::vector<uint16_t> last_count(num_rows, 0);
  for (size_t c = 0; c < sources.size(); ++c) {
    const uint32_t src = static_cast<uint32_t>(table.row_[sources[c]]);
    const uint32_t stamp = static_cast<uint32_t>(c) + 1;
    const int offset = nodes[sources[c]].kind == NodeKind::kSwitch ? 1 : 0;  // a grouped host is one beyond its switch
    size_t head = 0, tail = 0;
    dist[src] = 0;
    seen[src] = stamp;
    queue[tail++] = src;
    while (head < tail) {
      const uint32_t n = queue[head++];
      if (n != src && !forwards[n]) continue;
      const int next = dist[n] + 1;
      for (uint32_t k = adjacency_start[n]; k < adjacency_start[n + 1]; ++k) {
        const auto [m, back] = adjacency[k];
        if (seen[m] != stamp) {
          seen[m] = stamp;
          dist[m] = next;
          queue[tail++] = m;
          hops[m].assign(1, back);
        } else if (dist[m] == next) {
          hops[m].push_back(back);
        }
      }
    }
    for (size_t i = 0; i < tail; ++i) {
      const uint32_t r = queue[i];
      Entry& e = table.entries_[static_cast<size_t>(r) * sources.size() + c];
      assert(dist[r] + offset <= std::numeric_limits<int16_t>::max());
      e.distance = static_cast<int16_t>(dist[r] + offset);
      if (dist[r] == 0) continue;
      std::vector<PortId>& list = hops[r];
      if (!std::is_sorted(list.begin(), list.end())) std::sort(list.begin(), list.end());
      assert(list.size() <= std::numeric_limits<uint16_t>::max());
      e.count = static_cast<uint16_t>(list.size());
      if (last_count[r] == e.count && std::equal(list.begin(), list.end(), table.ports_.begin() + last_offset[r])) {
        e.offset = last_offset[r];
      } else {
        e.offset = lists.Intern(list);
        last_offset[r] = e.offset;
        last_count[r] = e.count;
      }
    }
  }
  assert(table.ports_.size() <= std::numeric_limits<uint32_t>::max());
  return table;
}

RoutingTable RoutingTable::FromForwardingTables(const Topology& topology, ForwardingTables tables,
                                                std::span<const uint8_t> link_down) {
  RoutingTable table;
  const size_t num_nodes = topology.num_nodes();
  table.uplink_.assign(num_nodes, kNoPort);
  for (NodeId h : topology.hosts()) {
    if (!topology.node(h).ports.empty()) table.uplink_[h] = topology.node(h).ports[0];
  }
  table.port_peer_.resize(topology.ports().size());
  for (const Port& p : topology.ports()) table.port_peer_[p.id] = p.peer;
  // Clear what does not deliver: a switch whose walk toward a host meets a
  // missing entry, a loop or another host has no next hop toward it (tables
  // of least-hop entries deliver by construction).
  std::vector<int> hops;
  if (!tables.delivers_by_construction()) {
    const size_t switches = tables.num_switches();
    for (size_t first = 0; first < tables.num_hosts_; first += ForwardingTables::kHopBlock) {
      const size_t count = std::min(ForwardingTables::kHopBlock, tables.num_hosts_ - first);
      tables.SwitchHops(first, count, hops);
      for (size_t j = 0; j < count; ++j) {
        for (size_t sw = 0; sw < switches; ++sw) {
          if (hops[j * switches + sw] < 0) tables.SetSlot(sw * tables.num_hosts_ + first + j, ForwardingTables::kNoSlot);
        }
      }
    }
  }
  table.lft_ = std::move(tables);
  table.AddHostPorts(topology, link_down);
  return table;
}

void RoutingTable::AddHostPorts(const Topology& topology, std::span<const uint8_t> link_down) {
  const ForwardingTables& t = *lft_;
  const std::vector<NodeId>& hosts = topology.hosts();
  PortLists lists(ports_);
  // Hosts whose links up go to the same switches (a leaf in each plane)
  // deliver to the same destinations through them: worked out once.
  // Only a host in several subnets (planes) sends on several ports: the
  // first of its links into each. A CA with two ports into one subnet is
  // a destination by its port 1 and sends there (ib_forwarding_tables.h).
  std::map<std::vector<NodeId>, std::vector<NodeId>> groups;
  std::vector<std::vector<PortId>> up(topology.num_nodes());
  std::vector<int> subnet;
  for (NodeId h : hosts) {
    const std::vector<PortId>& ports = topology.node(h).ports;
    if (ports.size() < 2) continue;
    if (subnet.empty()) subnet = SwitchSubnets(topology);
    std::vector<int> seen;
    std::vector<PortId> firsts;
    for (PortId p : ports) {
      const NodeId peer = port_peer_[p];
      const int s = topology.node(peer).kind == NodeKind::kSwitch ? subnet[peer] : -2 - static_cast<int>(peer);
      if (std::find(seen.begin(), seen.end(), s) != seen.end()) continue;
      seen.push_back(s);
      firsts.push_back(p);
    }
    if (firsts.size() < 2) continue;
    if (host_ports_.empty()) {
      host_ports_.assign(topology.num_nodes(), Entry{});
      uplink_multi_.assign(topology.num_nodes(), 0);
    }
    uplink_multi_[h] = 1;
    std::vector<NodeId> peers;
    for (PortId p : firsts) {
      if (!link_down.empty() && link_down[static_cast<size_t>(topology.port(p).link)] != 0) continue;
      up[h].push_back(p);
      peers.push_back(port_peer_[p]);
    }
    Entry& e = host_ports_[h];
    e.count = static_cast<uint16_t>(up[h].size());
    if (e.count > 0) e.offset = lists.Intern(up[h]);
    groups[std::move(peers)].push_back(h);
  }
  std::vector<size_t> kept;  // positions among the group's switches that deliver
  std::vector<PortId> subset;
  for (const auto& [peers, members] : groups) {
    for (NodeId dst : hosts) {
      kept.clear();
      for (size_t k = 0; k < peers.size(); ++k) {
        const NodeId peer = peers[k];
        if (peer == dst || (t.switch_index_[peer] >= 0 && t.SlotAt(t.Index(peer, dst)) != ForwardingTables::kNoSlot)) {
          kept.push_back(k);
        }
      }
      if (kept.size() == peers.size()) continue;
      for (NodeId h : members) {
        if (h == dst) continue;
        subset.clear();
        for (size_t k : kept) subset.push_back(up[h][k]);
        Entry e;
        e.count = static_cast<uint16_t>(subset.size());
        if (e.count > 0) e.offset = lists.Intern(subset);
        host_exceptions_[static_cast<uint64_t>(topology.host_index(h)) * hosts.size() + topology.host_index(dst)] = e;
      }
    }
  }
}

std::span<const PortId> RoutingTable::HostPorts(NodeId host, NodeId dst) const {
  const Entry* e = &host_ports_[host];
  const size_t num_hosts = lft_->num_hosts_;
  const auto it = host_exceptions_.find(static_cast<uint64_t>(lft_->host_index_[host]) * num_hosts + lft_->host_index_[dst]);
  if (it != host_exceptions_.end()) e = &it->second;
  return std::span<const PortId>(ports_.data() + e->offset, e->count);
}

bool RoutingTable::EveryHostReachesEveryHost(const Topology& topology) const {
  const std::vector<NodeId>& hosts = topology.hosts();
  if (!lft_) {
    for (NodeId src : hosts) {
      for (NodeId dst : hosts) {
        if (src != dst && Distance(src, dst) < 0) return false;
      }
    }
    return true;
  }
  // A host reaches dst when its first link does, or when that link's switch
  // has an entry for dst (entries left in place deliver). So each switch
  // hosts send to needs every entry but, if one host alone sends to it,
  // that host's own.
  const ForwardingTables& t = *lft_;
  std::vector<int> senders(t.num_switches(), 0);
  std::vector<NodeId> only(t.num_switches(), kNoNode);
  for (NodeId src : hosts) {
    if (IsMultiPort(src)) {  // its ports' switches deliver, unless listed otherwise
      if (host_ports_[src].count == 0 && hosts.size() > 1) return false;
      continue;
    }
    if (uplink_[src] == kNoPort) return hosts.size() < 2;
    const NodeId peer = port_peer_[uplink_[src]];
    const int sw = t.switch_index_[peer];
    if (sw < 0) {  // linked to a host: reaches that one only
      if (hosts.size() > 2) return false;
      continue;
    }
    ++senders[sw];
    only[sw] = src;
  }
  for (const auto& [key, e] : host_exceptions_) {
    if (e.count == 0) return false;
  }
  for (size_t sw = 0; sw < senders.size(); ++sw) {
    if (senders[sw] == 0) continue;
    const size_t row = sw * t.num_hosts_;
    for (size_t h = 0; h < t.num_hosts_; ++h) {
      if (t.SlotAt(row + h) == ForwardingTables::kNoSlot && !(senders[sw] == 1 && hosts[h] == only[sw])) return false;
    }
  }
  return true;
}

std::span<const PortId> RoutingTable::ForwardingNextHops(NodeId at, NodeId dst) const {
  const ForwardingTables& t = *lft_;
  if (at == dst) return {};
  if (t.switch_index_[at] >= 0) {
    const uint32_t slot = t.SlotAt(t.Index(at, dst));
    if (slot == ForwardingTables::kNoSlot) return {};
    return std::span<const PortId>(&t.ports_[t.port_start_[t.switch_index_[at]] + slot], 1);
  }
  if (IsMultiPort(at)) return HostPorts(at, dst);
  if (ForwardingDistance(at, dst) < 0) return {};
  return std::span<const PortId>(&uplink_[at], 1);
}

int RoutingTable::ForwardingDistance(NodeId from, NodeId dst) const {
  const ForwardingTables& t = *lft_;
  assert(t.host_index_[dst] >= 0);
  if (from == dst) return 0;
  NodeId at = from;
  int hops = 0;
  if (t.switch_index_[at] < 0 && IsMultiPort(at)) {  // the fewest hops over the ports that deliver
    int best = -1;
    for (PortId p : HostPorts(at, dst)) {
      const int d = port_peer_[p] == dst ? 0 : ForwardingDistance(port_peer_[p], dst);
      if (d >= 0 && (best < 0 || d + 1 < best)) best = d + 1;
    }
    return best;
  }
  if (t.switch_index_[at] < 0) {  // a host: its first link, then its switch's entries
    if (uplink_[at] == kNoPort) return -1;
    at = port_peer_[uplink_[at]];
    hops = 1;
    if (at == dst) return 1;
    if (t.switch_index_[at] < 0) return -1;  // another host
  }
  // Entries left in place deliver, so this walk ends at dst.
  while (at != dst) {
    const PortId p = t.Get(at, dst);
    if (p == kNoPort) return -1;
    at = port_peer_[p];
    ++hops;
    assert(at == dst || t.switch_index_[at] >= 0);
  }
  return hops;
}

std::span<const PortId> RoutingTable::NextHops(NodeId at, NodeId dst) const {
  if (lft_) return ForwardingNextHops(at, dst);
  assert(column_[dst] >= 0);
  if (at == dst) return {};
  if (row_[at] < 0) {
    // A host with one link: that link, if dst is reachable at all.
    if (Distance(at, dst) < 0) return {};
    return std::span<const PortId>(&uplink_[at], 1);
  }
  if (via_switch_[dst] == at) return std::span<const PortId>(&to_host_[dst], 1);
  const Entry& e = At(at, dst);
  return std::span<const PortId>(ports_.data() + e.offset, e.count);
}

int RoutingTable::Distance(NodeId from, NodeId dst) const {
  if (lft_) return ForwardingDistance(from, dst);
  assert(column_[dst] >= 0);
  if (from == dst) return 0;
  if (row_[from] < 0) {
    const int d = Distance(via_switch_[from], dst);
    return d < 0 ? -1 : d + 1;
  }
  if (via_switch_[dst] == from) return 1;
  return At(from, dst).distance;
}

size_t RoutingTable::bytes() const {
  return (lft_ ? lft_->bytes() : 0) + port_peer_.size() * sizeof(NodeId) + entries_.size() * sizeof(Entry) +
         ports_.size() * sizeof(PortId) +
         (row_.size() + column_.size() + via_switch_.size() + to_host_.size() + uplink_.size()) * sizeof(int) +
         host_ports_.size() * sizeof(Entry) + uplink_multi_.size() +
         host_exceptions_.size() * (sizeof(uint64_t) + sizeof(Entry));
}

}  // namespace aifabric
