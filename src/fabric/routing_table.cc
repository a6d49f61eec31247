#include "fabric/routing_table.h"

#include <algorithm>
#include <cassert>
#include <limits>

#include "fabric/ib_forwarding_tables.h"

namespace aifabric {

// One breadth-first search per destination host over the undirected graph.
// Paths never pass through another host: the search expands from the
// destination and from switches only, so a host's distance comes from its own
// links. Then every node's next hops toward that host are its ports whose
// peer is one hop closer. O(hosts * (nodes + ports)) time.
RoutingTable RoutingTable::Empty(const Topology& topology) {
  RoutingTable table;
  const std::vector<NodeId>& hosts = topology.hosts();
  table.num_hosts_ = hosts.size();
  table.host_index_.assign(topology.num_nodes(), -1);
  for (size_t i = 0; i < hosts.size(); ++i) table.host_index_[hosts[i]] = static_cast<int>(i);
  table.entries_.assign(topology.num_nodes() * hosts.size(), Entry{});
  return table;
}

RoutingTable RoutingTable::BuildShortestPaths(const Topology& topology) {
  RoutingTable table = Empty(topology);
  const size_t num_nodes = topology.num_nodes();
  const std::vector<NodeId>& hosts = topology.hosts();

  std::vector<int> dist(num_nodes);
  std::vector<NodeId> queue(num_nodes);
  const std::vector<Node>& nodes = topology.nodes();
  const std::vector<Port>& ports = topology.ports();
  for (size_t h = 0; h < hosts.size(); ++h) {
    const NodeId dst = hosts[h];
    std::fill(dist.begin(), dist.end(), -1);
    size_t head = 0, tail = 0;
    dist[dst] = 0;
    queue[tail++] = dst;
    while (head < tail) {
      const NodeId n = queue[head++];
      if (n != dst && nodes[n].kind == NodeKind::kHost) continue;  // hosts do not forward
      for (PortId p : nodes[n].ports) {
        const NodeId m = ports[p].peer;
        if (dist[m] < 0) {
          dist[m] = dist[n] + 1;
          queue[tail++] = m;
        }
      }
    }
    for (size_t n = 0; n < num_nodes; ++n) {
      Entry& e = table.entries_[n * hosts.size() + h];
      if (dist[n] < 0) continue;
      assert(dist[n] <= std::numeric_limits<int16_t>::max());
      e.distance = static_cast<int16_t>(dist[n]);
      e.offset = static_cast<uint32_t>(table.ports_.size());
      if (dist[n] == 0) continue;
      for (PortId p : nodes[n].ports) {
        if (dist[ports[p].peer] == dist[n] - 1) table.ports_.push_back(p);
      }
      const size_t count = table.ports_.size() - e.offset;
      assert(count <= std::numeric_limits<uint16_t>::max());
      e.count = static_cast<uint16_t>(count);
    }
  }
  assert(table.ports_.size() <= std::numeric_limits<uint32_t>::max());
  return table;
}

RoutingTable RoutingTable::FromForwardingTables(const Topology& topology, const ForwardingTables& tables) {
  RoutingTable table = Empty(topology);
  const size_t num_nodes = topology.num_nodes();
  const std::vector<NodeId>& hosts = topology.hosts();
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
  const int h = host_index_[dst];
  assert(h >= 0);
  const Entry& e = entries_[static_cast<size_t>(at) * num_hosts_ + h];
  return std::span<const PortId>(ports_.data() + e.offset, e.count);
}

int RoutingTable::Distance(NodeId from, NodeId dst) const {
  const int h = host_index_[dst];
  assert(h >= 0);
  return entries_[static_cast<size_t>(from) * num_hosts_ + h].distance;
}

}  // namespace aifabric
