#include "sched/replay_metrics.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

namespace aifabric {

double NearestRankQuantile(std::vector<double> values, double p) {
  assert(!values.empty() && p > 0 && p <= 1);
  std::sort(values.begin(), values.end());
  const size_t rank = static_cast<size_t>(std::ceil(p * static_cast<double>(values.size())));
  return values[std::max<size_t>(rank, 1) - 1];
}

ReplayMetrics ComputeReplayMetrics(std::span<const ReplayJobResult> jobs, int schedulable_gpus) {
  ReplayMetrics m;
  m.jobs = jobs.size();
  m.schedulable_gpus = schedulable_gpus;
  if (jobs.empty()) return m;
  std::vector<double> jct, queue;
  double first_submit = jobs.front().submit_s, last_submit = first_submit, last_end = jobs.front().end_s;
  double run_slowdown = 0, comm_slowdown = 0;
  size_t comm_jobs = 0;
  for (const ReplayJobResult& j : jobs) {
    jct.push_back(j.jct_s());
    queue.push_back(j.queue_s());
    first_submit = std::min(first_submit, j.submit_s);
    last_submit = std::max(last_submit, j.submit_s);
    last_end = std::max(last_end, j.end_s);
    run_slowdown += j.run_idle_s > 0 ? j.run_s() / j.run_idle_s : 1.0;
    if (j.comm_idle_s > 0) {
      comm_slowdown += j.comm_slowdown();
      ++comm_jobs;
    }
  }
  const double n = static_cast<double>(jobs.size());
  for (double v : jct) m.jct_mean_s += v / n;
  for (double v : queue) m.queue_mean_s += v / n;
  m.jct_p95_s = NearestRankQuantile(jct, 0.95);
  m.queue_p95_s = NearestRankQuantile(queue, 0.95);
  m.run_slowdown_mean = run_slowdown / n;
  m.comm_slowdown_mean = comm_jobs > 0 ? comm_slowdown / static_cast<double>(comm_jobs) : 1.0;
  m.makespan_s = last_end - first_submit;
  // The window: while jobs arrive, else the makespan.
  const double from = first_submit, to = last_submit > first_submit ? last_submit : last_end;
  m.util_window_s = to - from;
  if (m.util_window_s > 0 && schedulable_gpus > 0) {
    double allocated = 0, computing = 0;
    for (const ReplayJobResult& j : jobs) {
      const double inside = std::max(0.0, std::min(to, j.end_s) - std::max(from, j.start_s));
      if (inside <= 0 || j.run_s() <= 0) continue;
      allocated += j.gpus * inside;
      // Computing is spread evenly over the job's run.
      computing += j.gpus * j.compute_s * inside / j.run_s();
    }
    m.gpu_util_alloc = allocated / (schedulable_gpus * m.util_window_s);
    m.gpu_util_effective = computing / (schedulable_gpus * m.util_window_s);
  }
  return m;
}

}  // namespace aifabric
