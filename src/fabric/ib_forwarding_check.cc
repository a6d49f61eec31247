#include "fabric/ib_forwarding_check.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "fabric/routing_table.h"

namespace aifabric {
namespace {

// Why the walk from host `src` to `dst` fails, for messages.
std::string Diagnose(const Topology& t, const ForwardingTables& tables, NodeId src, NodeId dst) {
  const Node& n = t.node(src);
  if (n.ports.empty()) return "host " + n.name + " has no link";
  std::vector<bool> visited(t.num_nodes(), false);
  std::string path = n.name;
  NodeId at = t.port(n.ports[0]).peer;
  while (true) {
    path += " -> " + t.node(at).name;
    if (at == dst) return "reaches it";  // not reached when called on a failing pair
    if (t.node(at).kind != NodeKind::kSwitch) return "is delivered to the wrong host: " + path;
    if (visited[at]) return "loops: " + path;
    visited[at] = true;
    const PortId p = tables.Get(at, dst);
    if (p == kNoPort) return "switch " + t.node(at).name + " has no entry for it: " + path;
    at = t.port(p).peer;
  }
}

}  // namespace

Status CheckForwardingTables(const Topology& topology, const ForwardingTables& tables, PathRule rule) {
  std::optional<RoutingTable> shortest;
  if (rule == PathRule::kShortest) shortest = RoutingTable::BuildShortestPaths(topology);
  // A host's walk is its first link, then its switch's (if it reaches one):
  // a destination is reached from every host when it is from every switch
  // that has hosts (and the hosts linked to no switch link to it). So each
  // destination costs O(switches); only one that fails walks every source
  // host, in order, to name the first failing pair.
  std::vector<NodeId> first_hop(topology.num_nodes(), kNoNode);  // by host: the peer of its first link
  std::vector<bool> has_hosts(topology.num_nodes(), false);
  std::vector<NodeId> senders;  // switches some host's first link reaches, once each
  std::vector<NodeId> unattached;  // hosts whose first link reaches no switch
  for (NodeId h : topology.hosts()) {
    const Node& n = topology.node(h);
    if (!n.ports.empty()) first_hop[h] = topology.port(n.ports[0]).peer;
    if (first_hop[h] != kNoNode && topology.node(first_hop[h]).kind == NodeKind::kSwitch) {
      if (!has_hosts[first_hop[h]]) senders.push_back(first_hop[h]);
      has_hosts[first_hop[h]] = true;
    } else {
      unattached.push_back(h);
    }
  }
  std::vector<int> hops;
  const std::vector<NodeId>& hosts = topology.hosts();
  const size_t switches = tables.num_switches();
  const int* block_hops = nullptr;  // the current destination's, by switch index
  const auto hops_from = [&](NodeId src, NodeId dst) {
    const NodeId peer = first_hop[src];
    if (peer == dst) return 1;
    if (peer == kNoNode || topology.node(peer).kind != NodeKind::kSwitch) return -1;
    const int along = block_hops[tables.switch_index(peer)];
    return along < 0 ? -1 : along + 1;
  };
  for (size_t first = 0; first < hosts.size(); first += ForwardingTables::kHopBlock) {
    const size_t count = std::min(ForwardingTables::kHopBlock, hosts.size() - first);
    tables.SwitchHops(first, count, hops);
    for (size_t j = 0; j < count; ++j) {
      const NodeId dst = hosts[first + j];
      block_hops = hops.data() + j * switches;
      bool fine = !shortest;
      for (size_t i = 0; fine && i < senders.size(); ++i) fine = block_hops[tables.switch_index(senders[i])] >= 0;
      for (size_t i = 0; fine && i < unattached.size(); ++i) {
        fine = unattached[i] == dst || first_hop[unattached[i]] == dst;
      }
      if (fine) continue;
      for (NodeId src : hosts) {
        if (src == dst) continue;
        const int along = hops_from(src, dst);
        const auto pair = [&] { return "host " + topology.node(src).name + " to host " + topology.node(dst).name + ": "; };
        if (along < 0) return Error{pair() + Diagnose(topology, tables, src, dst)};
        if (shortest && along != shortest->Distance(src, dst)) {
          return Error{pair() + std::to_string(along) + " hops along the tables, but the shortest path has " +
                       std::to_string(shortest->Distance(src, dst))};
        }
      }
    }
  }
  return Status::Ok();
}

}  // namespace aifabric
