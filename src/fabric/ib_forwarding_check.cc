#include "fabric/ib_forwarding_check.h"

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
  for (NodeId dst : topology.hosts()) {
    const std::vector<int> hops = HopsAlongTables(topology, tables, dst);
    for (NodeId src : topology.hosts()) {
      if (src == dst) continue;
      const std::string pair = "host " + topology.node(src).name + " to host " + topology.node(dst).name + ": ";
      if (hops[src] < 0) return Error{pair + Diagnose(topology, tables, src, dst)};
      if (shortest && hops[src] != shortest->Distance(src, dst)) {
        return Error{pair + std::to_string(hops[src]) + " hops along the tables, but the shortest path has " +
                     std::to_string(shortest->Distance(src, dst))};
      }
    }
  }
  return Status::Ok();
}

}  // namespace aifabric
