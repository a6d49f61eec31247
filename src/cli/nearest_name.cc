#include "cli/nearest_name.h"

#include <algorithm>

namespace aifabric {

size_t EditDistance(std::string_view a, std::string_view b) {
  // d[i][j]: edits from a[0..i) to b[0..j); three rows suffice for the swap.
  const size_t n = b.size();
  std::vector<size_t> before(n + 1), prev(n + 1), cur(n + 1);
  for (size_t j = 0; j <= n; ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= n; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) cur[j] = std::min(cur[j], before[j - 2] + 1);
    }
    before.swap(prev);
    prev.swap(cur);
  }
  return prev[n];
}

std::string NearestName(std::string_view word, const std::vector<std::string>& names) {
  std::string best;
  size_t best_distance = 3;
  for (const std::string& name : names) {
    const size_t d = EditDistance(word, name);
    if (d < best_distance && 2 * d < word.size()) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace aifabric
