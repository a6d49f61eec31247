#include "workload/compute_slowdown.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace aifabric {

ComputeSlowdowns::ComputeSlowdowns(std::vector<SlowWindow> windows) : windows_(std::move(windows)) {
  for ([[maybe_unused]] const SlowWindow& w : windows_) assert(w.at < w.until && w.factor > 0 && w.factor <= 1);
  std::stable_sort(windows_.begin(), windows_.end(), [](const SlowWindow& a, const SlowWindow& b) {
    return a.gpu != b.gpu ? a.gpu < b.gpu : a.at < b.at;
  });
}

Time ComputeSlowdowns::KernelEnd(GpuId gpu, Time start, Time duration) const {
  const auto first = std::lower_bound(windows_.begin(), windows_.end(), gpu,
                                      [](const SlowWindow& w, GpuId g) { return w.gpu < g; });
  auto last = first;
  while (last != windows_.end() && last->gpu == gpu) ++last;
  if (first == last) return start + duration;
  // Walk the kernel from edge to edge of the GPU's windows: between two
  // edges the speed is constant (the slowest window covering the stretch).
  double remaining_ps = static_cast<double>(duration.ps());
  Time t = start;
  while (remaining_ps > 0) {
    double speed = 1;
    Time next = Time::Infinite();
    for (auto w = first; w != last; ++w) {
      if (w->at <= t && t < w->until) {
        speed = std::min(speed, w->factor);
        next = Min(next, w->until);
      } else if (w->at > t) {
        next = Min(next, w->at);
      }
    }
    if (next.IsInfinite() || speed * static_cast<double>((next - t).ps()) >= remaining_ps) {
      const Time end = t + Time::FromPs(static_cast<int64_t>(std::ceil(remaining_ps / speed)));
      return next.IsInfinite() ? end : Min(end, next);
    }
    remaining_ps -= speed * static_cast<double>((next - t).ps());
    t = next;
  }
  return t;
}

}  // namespace aifabric
