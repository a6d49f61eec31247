// PortIndex finds the topology's directed port a Prometheus series is
// about, from the two labels an exporter names it by (ExporterSchema's
// node_label and peer_label): the port from the node called <node> to the
// node called <peer>. Parallel links between the same two nodes are not
// told apart (neither exporter's labels do): the first such port is used.
// Built once per topology; then read-only, safe to share between threads.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/topology.h"
#include "observe/exporter_schema.h"
#include "observe/prometheus_answer.h"

namespace aifabric {

class PortIndex {
 public:
  explicit PortIndex(const Topology& topology);

  // The port `labels` name. An Error (naming the series, the label and
  // what the topology has) when a label is missing, a node is not in the
  // topology, or the two nodes share no link.
  Result<PortId> Find(const PromLabels& labels, const ExporterSchema& schema) const;

 private:
  const Topology& topology_;
  std::map<std::string, NodeId> nodes_;                 // by name
  std::map<std::pair<NodeId, NodeId>, PortId> ports_;   // (node, peer) -> first port
};

}  // namespace aifabric
