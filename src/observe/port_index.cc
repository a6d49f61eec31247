#include "observe/port_index.h"

namespace aifabric {

PortIndex::PortIndex(const Topology& topology) : topology_(topology) {
  for (const Node& n : topology.nodes()) nodes_.emplace(n.name, n.id);
  for (const Port& p : topology.ports()) ports_.emplace(std::pair{p.node, p.peer}, p.id);
}

Result<PortId> PortIndex::Find(const PromLabels& labels, const ExporterSchema& schema) const {
  NodeId ends[2] = {kNoNode, kNoNode};
  const std::string* label_names[2] = {&schema.node_label, &schema.peer_label};
  for (int i = 0; i < 2; ++i) {
    const auto it = labels.find(*label_names[i]);
    if (it == labels.end()) {
      return Error{"series " + FormatSeries(labels) + ": no label " + *label_names[i] + " (exporter " + schema.name +
                   " names a port by " + schema.node_label + " and " + schema.peer_label + ")"};
    }
    const auto node = nodes_.find(it->second);
    if (node == nodes_.end()) {
      return Error{"series " + FormatSeries(labels) + ": label " + *label_names[i] + "=\"" + it->second +
                   "\" names no node of the topology (" + std::to_string(topology_.num_nodes()) +
                   " nodes; names must match the topology file's)"};
    }
    ends[i] = node->second;
  }
  const auto port = ports_.find(std::pair{ends[0], ends[1]});
  if (port == ports_.end()) {
    return Error{"series " + FormatSeries(labels) + ": the topology has no link from " + topology_.node(ends[0]).name +
                 " to " + topology_.node(ends[1]).name};
  }
  return port->second;
}

}  // namespace aifabric
