#include "workload/host_check.h"

namespace aifabric {

std::optional<std::string> HostProblem(const Topology& topology, int64_t id) {
  if (id < 0 || id >= static_cast<int64_t>(topology.num_nodes())) {
    return "node " + std::to_string(id) + " is not a host (the topology has " +
           std::to_string(topology.num_nodes()) + " nodes)";
  }
  const Node& node = topology.node(static_cast<NodeId>(id));
  if (node.kind != NodeKind::kHost) {
    return "node " + std::to_string(id) + " (" + node.name + ") is a switch, not a host";
  }
  return std::nullopt;
}

}  // namespace aifabric
