// The max-min allocation computed the slow, obvious way, for tests to
// check the solvers against (MaxMinSolver, QosSolver): no incremental
// state, no heap, a full pass per bottleneck.
#pragma once

#include <vector>

namespace aifabric {

// Progressive filling the slow, obvious way: find the resource with the
// lowest level among those with unfrozen flows, freeze its flows, repeat.
// Flow f uses resource paths[f][k] at coefficients[f][k] times its rate
// (empty coefficients: all 1).
inline std::vector<double> ReferenceRates(const std::vector<double>& capacity, const std::vector<std::vector<int>>& paths,
                                   const std::vector<double>& weight,
                                   const std::vector<std::vector<double>>& coefficients = {}) {
  auto coefficient = [&](size_t f, size_t k) { return coefficients.empty() ? 1.0 : coefficients[f][k]; };
  std::vector<double> rate(paths.size(), 0);
  std::vector<bool> frozen(paths.size(), false);
  for (;;) {
    int best = -1;
    double best_level = 0;
    for (size_t r = 0; r < capacity.size(); ++r) {
      double used = 0, w = 0;
      for (size_t f = 0; f < paths.size(); ++f) {
        for (size_t k = 0; k < paths[f].size(); ++k) {
          if (paths[f][k] != static_cast<int>(r)) continue;
          if (frozen[f]) used += coefficient(f, k) * rate[f];
          else w += coefficient(f, k) * weight[f];
        }
      }
      if (w == 0) continue;
      const double level = (capacity[r] - used) / w;
      if (best < 0 || level < best_level) {
        best = static_cast<int>(r);
        best_level = level;
      }
    }
    if (best < 0) return rate;
    for (size_t f = 0; f < paths.size(); ++f) {
      if (frozen[f]) continue;
      for (int x : paths[f]) {
        if (x == best) {
          frozen[f] = true;
          rate[f] = weight[f] * best_level;
          break;
        }
      }
    }
  }
}

}  // namespace aifabric
