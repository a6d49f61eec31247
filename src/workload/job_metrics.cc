#include "workload/job_metrics.h"

#include <algorithm>
#include <cassert>

namespace aifabric {
namespace {

// One change of a GPU's activity: +1/-1 of compute (dimension < 0) or of a
// communication dimension, at a time.
struct Edge {
  int64_t at_ps;
  int dimension;  // -1: compute (useful_delta says whether useful)
  int delta;
  int useful_delta;
};

}  // namespace

double JobMetrics::exposed_total_s() const {
  double sum = 0;
  for (double v : exposed_s) sum += v;
  return sum;
}

JobMetrics ComputeJobMetrics(const JobGraph& graph, const std::vector<Time>& start, const std::vector<Time>& finish,
                             int32_t gpus, size_t timed_nodes) {
  JobMetrics m;
  const size_t n = graph.size();
  if (n == 0) return m;
  const size_t timed = timed_nodes > 0 ? std::min(timed_nodes, n) : n;
  Time first = Time::Infinite(), last;
  for (JobNodeIndex i = 0; i < timed; ++i) {
    first = Min(first, start[i]);
    last = Max(last, finish[i]);
  }
  std::vector<std::vector<Edge>> per_gpu(static_cast<size_t>(graph.gpu_count()));
  auto add = [&](GpuId gpu, Time from, Time to, int dimension, bool useful) {
    from = Max(from, first);
    to = Min(to, last);
    if (to < from) return;
    std::vector<Edge>& e = per_gpu[static_cast<size_t>(gpu)];
    e.push_back({from.ps(), dimension, +1, useful ? 1 : 0});
    e.push_back({to.ps(), dimension, -1, useful ? -1 : 0});
  };
  for (JobNodeIndex i = 0; i < n; ++i) {
    assert(!start[i].IsInfinite() && !finish[i].IsInfinite());
    const JobNode& node = graph.node(i);
    const int dim = static_cast<int>(node.dimension);
    switch (node.kind) {
      case JobNodeKind::kCompute:
        add(node.gpu, start[i], finish[i], -1, node.flops > 0);
        m.flops += node.flops;
        break;
      case JobNodeKind::kCollective:
        for (GpuId g : graph.group(node.group)) add(g, start[i], finish[i], dim, false);
        break;
      case JobNodeKind::kTransfer:
        add(node.gpu, start[i], finish[i], dim, false);
        add(node.peer, start[i], finish[i], dim, false);
        break;
    }
  }
  m.makespan = last - first;
  int32_t used = 0;
  const size_t counted = gpus > 0 ? std::min(per_gpu.size(), static_cast<size_t>(gpus)) : per_gpu.size();
  for (size_t g = 0; g < counted; ++g) {
    std::vector<Edge>& edges = per_gpu[g];
    if (edges.empty()) continue;
    ++used;
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.at_ps < b.at_ps; });
    int computing = 0, useful = 0;
    std::array<int, kCommDimensionCount> in_flight{};
    int64_t previous = first.ps();
    // The span before the GPU's first activity and after its last is idle.
    for (size_t k = 0; k <= edges.size(); ++k) {
      const int64_t at = k < edges.size() ? edges[k].at_ps : last.ps();
      const double seconds = static_cast<double>(at - previous) * 1e-12;
      if (seconds > 0) {
        int active = 0;
        for (size_t d = 0; d < kCommDimensionCount; ++d) {
          if (in_flight[d] > 0) {
            m.comm_s[d] += seconds;
            ++active;
          }
        }
        if (computing > 0) {
          m.compute_s += seconds;
          if (useful > 0) m.useful_compute_s += seconds;
        } else if (active > 0) {
          for (size_t d = 0; d < kCommDimensionCount; ++d) {
            if (in_flight[d] > 0) m.exposed_s[d] += seconds / active;
          }
        } else {
          m.idle_s += seconds;
        }
      }
      previous = at;
      if (k == edges.size()) break;
      const Edge& e = edges[k];
      if (e.dimension < 0) {
        computing += e.delta;
        useful += e.useful_delta;
      } else {
        in_flight[static_cast<size_t>(e.dimension)] += e.delta;
      }
    }
  }
  m.gpus = used;
  if (used > 0) {
    const double per = 1.0 / used;
    m.compute_s *= per;
    m.useful_compute_s *= per;
    m.idle_s *= per;
    for (size_t d = 0; d < kCommDimensionCount; ++d) {
      m.comm_s[d] *= per;
      m.exposed_s[d] *= per;
    }
  }
  const double makespan_s = static_cast<double>(m.makespan.ps()) * 1e-12;
  m.effective_utilization = makespan_s > 0 ? m.useful_compute_s / makespan_s : 0;
  return m;
}

}  // namespace aifabric
