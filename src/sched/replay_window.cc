#include "sched/replay_window.h"

#include <cassert>

namespace aifabric {

bool ReplayWindow::Contains(Time now) const {
  if (start_s_ < 0) return false;
  const double t = now.seconds();
  return t >= Time::FromSeconds(start_s_).seconds() && t < Time::FromSeconds(start_s_ + length_s_).seconds();
}

void ReplayWindow::Record(const std::string& job_id, const char* what, std::span<const CommEdge> edges, double scale,
                          Time now) {
  assert(enabled());
  const double start = (now - Time::FromSeconds(start_s_)).seconds();
  for (const CommEdge& e : edges) {
    if (e.src == e.dst || e.bytes <= 0) continue;
    flows_.push_back({job_id, what, e.src, e.dst, e.bytes * scale, start});
  }
}

}  // namespace aifabric
