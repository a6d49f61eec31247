#include "workload/job_graph_remap.h"

#include <string>
#include <vector>

namespace aifabric {

Result<JobGraph> RemapJobGraph(const JobGraph& graph, std::span<const GpuId> gpus) {
  const auto map = [gpus](GpuId g) { return g >= 0 && static_cast<size_t>(g) < gpus.size() ? gpus[static_cast<size_t>(g)] : g; };
  JobGraphBuilder b;
  // Groups once each, in order (a builder's lookup is linear); labels on
  // first use.
  std::vector<uint32_t> groups;
  for (uint32_t g = 0; g < graph.group_count(); ++g) {
    std::vector<GpuId> group;
    for (GpuId x : graph.group(g)) group.push_back(map(x));
    groups.push_back(b.AddGroup(std::move(group)));
  }
  constexpr uint32_t kUnset = 0xffffffffu;
  std::vector<uint32_t> labels;
  for (JobNodeIndex i = 0; i < graph.size(); ++i) {
    const JobNode& n = graph.node(i);
    if (n.label >= labels.size()) labels.resize(n.label + 1, kUnset);
    if (labels[n.label] == kUnset) labels[n.label] = b.AddLabel(graph.label(n.label));
    const uint32_t label = labels[n.label];
    JobNodeIndex added = kNoJobNode;
    switch (n.kind) {
      case JobNodeKind::kCompute:
        added = b.AddCompute(map(n.gpu), n.duration, n.flops, label);
        break;
      case JobNodeKind::kCollective:
        added = b.AddCollective(n.op, groups[n.group], n.bytes, n.dimension, label, n.algorithm);
        if (n.fold > 1) b.SetFold(added, n.fold);
        break;
      case JobNodeKind::kTransfer:
        added = b.AddTransfer(map(n.gpu), map(n.peer), n.bytes, n.dimension, label);
        break;
    }
    if (n.priority >= 0) b.SetPriority(added, static_cast<uint8_t>(n.priority));
  }
  for (JobNodeIndex i = 0; i < graph.size(); ++i) {
    for (JobNodeIndex s : graph.successors(i)) b.AddEdge(i, s);
  }
  return std::move(b).Build();
}

}  // namespace aifabric
