#include "workload/collective_pxn.h"

#include <cassert>
#include <utility>
#include <vector>

namespace aifabric {

Result<CollectiveDag> ApplyPxn(const CollectiveDag& dag, int32_t ranks_per_server, uint32_t connection_window) {
  assert(ranks_per_server >= 1 && dag.num_gpu_ranks() % ranks_per_server == 0);
  const int32_t L = ranks_per_server;
  CollectiveDagBuilder builder(dag.num_gpu_ranks(), dag.num_switch_ranks(), connection_window);
  builder.set_base_latency(dag.base_latency());
  // Each old node becomes [first, last] new nodes (equal unless relayed).
  std::vector<std::pair<DagNodeIndex, DagNodeIndex>> span(dag.size());
  for (DagNodeIndex i = 0; i < dag.size(); ++i) {
    DagNode n = dag.node(i);
    const bool gpus = !dag.IsSwitchRank(n.src) && !dag.IsSwitchRank(n.dst);
    if (!n.is_transfer()) {
      const DagNodeIndex c = builder.AddCompute(n.kind, n.phase, n.src, n.bytes, n.step, n.chunk);
      span[i] = {c, c};
    } else if (gpus && n.src / L != n.dst / L && n.src % L != n.dst % L) {
      const CollectiveRank relay = (n.src / L) * L + n.dst % L;
      // The NVLink hop to the relay is part of the same network step: it
      // takes no step latency of its own; the relay's send keeps the step's.
      DagNode hop = n;
      hop.dst = relay;
      hop.latency = Time::Zero();
      const DagNodeIndex first = builder.AddTransfer(hop);
      hop.src = relay;
      hop.latency = n.latency;
      hop.dst = n.dst;
      const DagNodeIndex second = builder.AddTransfer(hop);
      builder.AddEdge(first, second);
      span[i] = {first, second};
    } else {
      const DagNodeIndex t = builder.AddTransfer(n);
      span[i] = {t, t};
    }
  }
  for (DagNodeIndex i = 0; i < dag.size(); ++i) {
    for (DagNodeIndex s : dag.successors(i)) builder.AddEdge(span[i].second, span[s].first);
  }
  return std::move(builder).Build();
}

}  // namespace aifabric
