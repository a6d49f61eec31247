#include "workload/job_metrics.h"

#include <algorithm>
#include <cassert>

namespace aifabric {
namespace {

// One change of a GPU's activity at a time: +1/-1 of compute (dimension
// < 0; useful_delta says whether its FLOPs count) or of a communication
// dimension. Sorted by time alone: the sweep adds up time only between
// distinct times, so the order of the changes at one moment does not matter.
struct Edge {
  int64_t at_ps;
  int8_t dimension;  // -1: compute
  int8_t delta;
  int8_t useful_delta;
};

// What a node's two edges carry: its span clipped to the counted window
// (empty when to_ps < from_ps), its dimension and whether its FLOPs count.
// Made for every node in one pass in node order, so the per-GPU passes,
// which visit each GPU's nodes scattered over a graph far larger than the
// cache, load one small record per visit instead of the node (64 bytes)
// and both its times.
struct NodeSpan {
  int64_t from_ps;
  int64_t to_ps;
  int8_t dimension;  // -1: compute
  int8_t useful;
};

// Sorts `edges` by time. A GPU's edges come in node order, nearly sorted
// already (on four_jobs_1024gpu.yaml about 50 descents in 11,000 edges), so
// it merges the ascending runs (a natural merge sort, n log(runs) moves)
// instead of sorting from scratch. Only the order by time matters to the
// sweep; `scratch` and `runs` are buffers kept across calls.
void SortByTime(std::vector<Edge>& edges, std::vector<Edge>& scratch, std::vector<size_t>& runs) {
  const auto earlier = [](const Edge& a, const Edge& b) { return a.at_ps < b.at_ps; };
  runs.assign(1, 0);  // the runs' bounds: [runs[r], runs[r + 1])
  for (size_t k = 1; k < edges.size(); ++k) {
    if (edges[k].at_ps < edges[k - 1].at_ps) runs.push_back(k);
  }
  runs.push_back(edges.size());
  while (runs.size() > 2) {
    // Merge runs pairwise into scratch (an odd last run is copied), then
    // swap: each round halves the runs.
    scratch.resize(edges.size());
    size_t kept = 1;
    for (size_t r = 0; r + 1 < runs.size(); r += 2) {
      const size_t a = runs[r], b = runs[r + 1], c = r + 2 < runs.size() ? runs[r + 2] : b;
      std::merge(edges.begin() + static_cast<std::ptrdiff_t>(a), edges.begin() + static_cast<std::ptrdiff_t>(b),
                 edges.begin() + static_cast<std::ptrdiff_t>(b), edges.begin() + static_cast<std::ptrdiff_t>(c),
                 scratch.begin() + static_cast<std::ptrdiff_t>(a), earlier);
      runs[kept++] = c;  // read above before written: kept <= r / 2 + 1
    }
    runs.resize(kept);
    edges.swap(scratch);
  }
}

// Calls visit(gpu) for each GPU node `node` occupies.
template <typename Visit>
void ForEachGpu(const JobGraph& graph, const JobNode& node, Visit&& visit) {
  switch (node.kind) {
    case JobNodeKind::kCompute:
      visit(node.gpu);
      break;
    case JobNodeKind::kCollective:
      for (GpuId g : graph.group(node.group)) visit(g);
      break;
    case JobNodeKind::kTransfer:
      visit(node.gpu);
      visit(node.peer);
      break;
  }
}

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
  m.makespan = last - first;
  std::vector<NodeSpan> spans(n);
  for (JobNodeIndex i = 0; i < n; ++i) {
    const JobNode& node = graph.node(i);
    const bool compute = node.kind == JobNodeKind::kCompute;
    if (i >= timed && start[i].IsInfinite()) {
      spans[i] = NodeSpan{0, -1, compute ? int8_t{-1} : static_cast<int8_t>(node.dimension), 0};  // never ran
      continue;
    }
    assert(!start[i].IsInfinite() && !finish[i].IsInfinite());
    if (compute) m.flops += node.flops;
    spans[i] = NodeSpan{Max(start[i], first).ps(), Min(finish[i], last).ps(),
                        compute ? int8_t{-1} : static_cast<int8_t>(node.dimension),
                        static_cast<int8_t>(compute && node.flops > 0 ? 1 : 0)};
  }
  // The nodes of each counted GPU, in node order (counted, then filled: one
  // buffer), so each GPU's edges are gathered into one small buffer that is
  // sorted and swept while it is in cache.
  const size_t gpu_count = static_cast<size_t>(graph.gpu_count());
  const size_t counted = gpus > 0 ? std::min(gpu_count, static_cast<size_t>(gpus)) : gpu_count;
  std::vector<size_t> begin(counted + 1, 0);
  for (JobNodeIndex i = 0; i < n; ++i) {
    ForEachGpu(graph, graph.node(i), [&](GpuId g) {
      if (static_cast<size_t>(g) < counted) ++begin[static_cast<size_t>(g) + 1];
    });
  }
  for (size_t g = 0; g < counted; ++g) begin[g + 1] += begin[g];
  std::vector<JobNodeIndex> nodes_of(begin[counted]);
  std::vector<size_t> fill(begin.begin(), begin.end() - 1);
  for (JobNodeIndex i = 0; i < n; ++i) {
    ForEachGpu(graph, graph.node(i), [&](GpuId g) {
      if (static_cast<size_t>(g) < counted) nodes_of[fill[static_cast<size_t>(g)]++] = i;
    });
  }
  int32_t used = 0;
  std::vector<Edge> edges, scratch;
  std::vector<size_t> runs;
  for (size_t g = 0; g < counted; ++g) {
    edges.clear();
    for (size_t k = begin[g]; k < begin[g + 1]; ++k) {
      const NodeSpan& span = spans[nodes_of[k]];
      if (span.to_ps < span.from_ps) continue;
      edges.push_back({span.from_ps, span.dimension, +1, span.useful});
      edges.push_back({span.to_ps, span.dimension, -1, static_cast<int8_t>(-span.useful)});
    }
    if (edges.empty()) continue;
    ++used;
    SortByTime(edges, scratch, runs);
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
