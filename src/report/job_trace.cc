#include "report/job_trace.h"

#include <algorithm>
#include <cassert>
#include <string>

#include "workload/collective_op.h"

namespace aifabric {

void AddJobTrace(const JobGraph& graph, std::span<const Time> node_start, std::span<const Time> node_finish,
                 ChromeTrace& trace, int32_t max_ranks) {
  assert(node_start.size() == graph.size() && node_finish.size() == graph.size());
  const int32_t ranks = std::min(graph.gpu_count(), max_ranks);
  std::vector<int> compute(static_cast<size_t>(ranks));
  std::vector<int> comm(static_cast<size_t>(ranks));
  for (int32_t g = 0; g < ranks; ++g) {  // processes in rank order
    const int process = trace.Process("rank " + std::to_string(g));
    compute[static_cast<size_t>(g)] = trace.Track(process, "compute");
    comm[static_cast<size_t>(g)] = trace.Track(process, "communication");
  }
  for (JobNodeIndex i = 0; i < graph.size(); ++i) {
    const Time start = node_start[i];
    const Time finish = node_finish[i];
    if (start.IsInfinite() || finish.IsInfinite() || finish < start) continue;  // never ran
    const JobNode& n = graph.node(i);
    const std::string& label = graph.label(n.label);
    switch (n.kind) {
      case JobNodeKind::kCompute:
        if (n.gpu >= 0 && n.gpu < ranks) trace.Slice(compute[static_cast<size_t>(n.gpu)], label, "compute", start, finish);
        break;
      case JobNodeKind::kCollective: {
        const std::string name = label.empty() ? std::string(CollectiveOpName(n.op)) : label;
        const nlohmann::ordered_json args = {{"op", CollectiveOpName(n.op)},
                                             {"bytes", n.bytes},
                                             {"ranks", graph.group(n.group).size()},
                                             {"dimension", CommDimensionName(n.dimension)}};
        for (GpuId g : graph.group(n.group)) {
          if (g < ranks) trace.Slice(comm[static_cast<size_t>(g)], name, "collective", start, finish, args);
        }
        break;
      }
      case JobNodeKind::kTransfer: {
        const nlohmann::ordered_json args = {
            {"bytes", n.bytes}, {"to_rank", n.peer}, {"dimension", CommDimensionName(n.dimension)}};
        const std::string name = label.empty() ? "send to rank " + std::to_string(n.peer) : label;
        if (n.gpu >= 0 && n.gpu < ranks) trace.Slice(comm[static_cast<size_t>(n.gpu)], name, "transfer", start, finish, args);
        break;
      }
    }
  }
}

}  // namespace aifabric
