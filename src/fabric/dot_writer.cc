#include "fabric/dot_writer.h"

#include <map>
#include <tuple>
#include <vector>

#include "core/units.h"

namespace aifabric {
namespace {

std::string Quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string Id(NodeId n) {
  std::string id = "n";
  return id += std::to_string(n);
}

}  // namespace

std::string ToDot(const Topology& topology) {
  std::string out = "graph fabric {\n  rankdir=BT;\n  node [fontsize=10];\n";

  // Group nodes by tier (hosts 0; unknown tier -1 gets its own rank).
  std::map<int, std::vector<NodeId>> by_tier;
  for (const Node& n : topology.nodes()) by_tier[n.kind == NodeKind::kHost ? 0 : n.tier].push_back(n.id);
  for (const auto& [tier, ids] : by_tier) {
    out += "  subgraph tier" + std::string(tier < 0 ? "_unknown" : std::to_string(tier)) + " {\n    rank=same;\n";
    for (NodeId id : ids) {
      const Node& n = topology.node(id);
      out += "    " + Id(id) + " [label=" + Quoted(n.name) +
             (n.kind == NodeKind::kHost ? ", shape=ellipse" : ", shape=box") + "];\n";
    }
    out += "  }\n";
  }

  // Merge parallel links (same endpoints, same rate), first appearance order.
  using Key = std::tuple<NodeId, NodeId, uint64_t>;
  std::map<Key, size_t> index;
  std::vector<std::pair<Key, int>> edges;
  for (size_t p = 0; p < topology.ports().size(); p += 2) {
    const Port& port = topology.ports()[p];
    // Lower tier first, so with rankdir=BT edges point up the fabric.
    NodeId a = port.node, b = port.peer;
    auto tier = [&](NodeId id) {
      const Node& n = topology.node(id);
      return n.kind == NodeKind::kHost ? 0 : n.tier;
    };
    if (tier(a) > tier(b) || (tier(a) == tier(b) && a > b)) std::swap(a, b);
    const Key key{a, b, port.rate.bps()};
    auto [it, added] = index.emplace(key, edges.size());
    if (added) {
      edges.push_back({key, 1});
    } else {
      ++edges[it->second].second;
    }
  }
  for (const auto& [key, count] : edges) {
    const auto& [a, b, bps] = key;
    std::string label = FormatRate(DataRate::BitsPerSecond(bps));
    if (count > 1) label = std::to_string(count) + " x " + label;
    out += "  " + Id(a) + " -- " + Id(b) + " [label=" + Quoted(label) + "];\n";
  }
  out += "}\n";
  return out;
}

}  // namespace aifabric
