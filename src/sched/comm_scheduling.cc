#include "sched/comm_scheduling.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace aifabric {

double CruxWeightForRank(int lower, int total) {
  assert(0 <= lower && lower <= total);
  const int level = total > 0 ? std::min(kCruxLevels - 1, lower * kCruxLevels / total) : 0;
  return std::ldexp(1.0, level);
}

double CassiniOffsetSeconds(double now, double head, double comm, std::span<const CommCycle> others) {
  const double period = head + comm;
  if (comm <= 0 || period <= 0 || others.empty()) return 0;
  const double horizon = 4 * period;
  double best_overlap = -1, best_offset = 0;
  for (int k = 0; k < kCassiniOffsets; ++k) {
    const double offset = period * k / kCassiniOffsets;
    double overlap = 0;
    for (double t = now + offset; t < now + offset + horizon; t += period) {
      const double a0 = t + head, a1 = a0 + comm;  // this job's communication window
      for (const CommCycle& o : others) {
        // The other's windows that can meet [a0, a1).
        double n = std::floor((a0 - o.start - o.head - o.comm) / o.period);
        for (double b0 = o.start + std::max(0.0, n) * o.period + o.head; b0 < a1; b0 += o.period) {
          overlap += std::max(0.0, std::min(a1, b0 + o.comm) - std::max(a0, b0));
        }
      }
    }
    if (best_overlap < 0 || overlap < best_overlap) {
      best_overlap = overlap;
      best_offset = offset;
    }
  }
  return best_offset;
}

}  // namespace aifabric
