#include "fabric/routing_table.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <unordered_map>

#include "fabric/ib_forwarding_tables.h"

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
RoutingTable RoutingTable::BuildShortestPaths(const Topology& topology) {
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

  std::vector<int> dist(num_nodes);
  std::vector<NodeId> queue(num_nodes);
  std::vector<PortId> hops;
  for (size_t c = 0; c < sources.size(); ++c) {
    const NodeId src = sources[c];
    const int offset = nodes[src].kind == NodeKind::kSwitch ? 1 : 0;  // a grouped host is one beyond its switch
    std::fill(dist.begin(), dist.end(), -1);
    size_t head = 0, tail = 0;
    dist[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
      const NodeId n = queue[head++];
      if (n != src && nodes[n].kind == NodeKind::kHost) continue;  // hosts do not forward
      for (PortId p : nodes[n].ports) {
        const NodeId m = ports[p].peer;
        if (dist[m] < 0 && table.row_[m] >= 0) {
          dist[m] = dist[n] + 1;
          queue[tail++] = m;
        }
      }
    }
    for (size_t r = 0; r < rows.size(); ++r) {
      const NodeId n = rows[r];
      if (dist[n] < 0) continue;
      Entry& e = table.entries_[r * sources.size() + c];
      assert(dist[n] + offset <= std::numeric_limits<int16_t>::max());
      e.distance = static_cast<int16_t>(dist[n] + offset);
      if (dist[n] == 0) continue;
      hops.clear();
      for (PortId p : nodes[n].ports) {
        const NodeId m = ports[p].peer;
        if (table.row_[m] >= 0 && dist[m] == dist[n] - 1) hops.push_back(p);
      }
      assert(hops.size() <= std::numeric_limits<uint16_t>::max());
      e.count = static_cast<uint16_t>(hops.size());
      e.offset = lists.Intern(hops);
    }
  }
  assert(table.ports_.size() <= std::numeric_limits<uint32_t>::max());
  return table;
}

RoutingTable RoutingTable::FromForwardingTables(const Topology& topology, const ForwardingTables& tables) {
  RoutingTable table;
  const size_t num_nodes = topology.num_nodes();
  const std::vector<NodeId>& hosts = topology.hosts();
  table.num_columns_ = hosts.size();
  table.row_.resize(num_nodes);
  for (size_t n = 0; n < num_nodes; ++n) table.row_[n] = static_cast<int>(n);
  table.column_.assign(num_nodes, -1);
  for (size_t h = 0; h < hosts.size(); ++h) table.column_[hosts[h]] = static_cast<int>(h);
  table.via_switch_.assign(num_nodes, kNoNode);
  table.entries_.assign(num_nodes * hosts.size(), Entry{});
  for (size_t h = 0; h < hosts.size(); ++h) {
    const NodeId dst = hosts[h];
    const std::vector<int> hops = HopsAlongTables(topology, tables, dst);
    for (size_t n = 0; n < num_nodes; ++n) {
      Entry& e = table.entries_[n * hosts.size() + h];
      e.offset = static_cast<uint32_t>(table.ports_.size());
      if (hops[n] < 0) continue;
      assert(hops[n] <= std::numeric_limits<int16_t>::max());
      e.distance = static_cast<int16_t>(hops[n]);
      if (hops[n] == 0) continue;
      const Node& node = topology.node(static_cast<NodeId>(n));
      table.ports_.push_back(node.kind == NodeKind::kSwitch ? tables.Get(node.id, dst) : node.ports[0]);
      e.count = 1;
    }
  }
  assert(table.ports_.size() <= std::numeric_limits<uint32_t>::max());
  return table;
}

std::span<const PortId> RoutingTable::NextHops(NodeId at, NodeId dst) const {
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
  return entries_.size() * sizeof(Entry) + ports_.size() * sizeof(PortId) +
         (row_.size() + column_.size() + via_switch_.size() + to_host_.size() + uplink_.size()) * sizeof(int);
}

}  // namespace aifabric
