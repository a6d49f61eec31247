#include "run/tenant_interference.h"

#include <algorithm>
#include <cassert>

namespace aifabric {
namespace {

// Whether aggressor u's traffic competes with victim v's: u's tier is not
// below v's.
bool Competes(std::span<const int> tier, size_t v, size_t u) { return tier.empty() || tier[u] >= tier[v]; }

}  // namespace

std::vector<size_t> BottleneckPorts(const std::vector<std::vector<uint64_t>>& alone_bytes,
                                    std::span<const uint64_t> rate_bps, size_t victim, std::span<const int> tier) {
  std::vector<size_t> best;
  double best_time = 0;
  for (size_t p = 0; p < rate_bps.size(); ++p) {
    if (alone_bytes[victim][p] == 0 || rate_bps[p] == 0) continue;
    uint64_t foreign = 0;
    for (size_t u = 0; u < alone_bytes.size(); ++u) {
      if (u != victim && Competes(tier, victim, u)) foreign += alone_bytes[u][p];
    }
    if (foreign == 0) continue;
    const double time = static_cast<double>(foreign) * 8 / static_cast<double>(rate_bps[p]);
    // Equal within a part in 10^12: the same bytes on links of one rate.
    if (best.empty() || time > best_time * (1 + 1e-12)) {
      best.assign(1, p);
      best_time = time;
    } else if (time >= best_time * (1 - 1e-12)) {
      best.push_back(p);
    }
  }
  return best;
}

std::vector<InterferenceEntry> Interference(const std::vector<std::vector<uint64_t>>& alone_bytes,
                                            std::span<const uint64_t> rate_bps, std::span<const double> slowdown,
                                            std::span<const int> tier) {
  std::vector<InterferenceEntry> out;
  const size_t n = alone_bytes.size();
  for (size_t v = 0; v < n; ++v) {
    assert(alone_bytes[v].size() == rate_bps.size());
    assert(tier.empty() || tier.size() == n);
    const std::vector<size_t> ports = BottleneckPorts(alone_bytes, rate_bps, v, tier);
    if (ports.empty()) continue;
    uint64_t foreign = 0;
    for (size_t p : ports) {
      for (size_t u = 0; u < n; ++u) {
        if (u != v && Competes(tier, v, u)) foreign += alone_bytes[u][p];
      }
    }
    for (size_t u = 0; u < n; ++u) {
      if (u == v || !Competes(tier, v, u)) continue;
      uint64_t bytes = 0;
      for (size_t p : ports) bytes += alone_bytes[u][p];
      if (bytes == 0) continue;
      InterferenceEntry e;
      e.victim = v;
      e.aggressor = u;
      e.shared_bytes = bytes;
      e.share = static_cast<double>(bytes) / static_cast<double>(foreign);
      e.slowdown_part = std::max(0.0, e.share * (slowdown[v] - 1));
      out.push_back(e);
    }
  }
  return out;
}

}  // namespace aifabric
