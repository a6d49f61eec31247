#include "diagnosis/loss_tomography.h"

#include <cassert>
#include <cstdint>
#include <utility>

namespace aifabric {

std::vector<TomographyPick> LocaliseLoss(std::span<const TomographyFlow> flows, size_t num_links,
                                         const TomographyOptions& options) {
  std::vector<size_t> crossing(num_links, 0), lossy(num_links, 0), unexplained(num_links, 0);
  std::vector<std::vector<int>> members(num_links);  // lossy flows crossing each link, ascending
  std::vector<uint8_t> in_u(flows.size(), 0);
  size_t left = 0;
  for (size_t f = 0; f < flows.size(); ++f) {
    for (int l : flows[f].links) {
      assert(l >= 0 && static_cast<size_t>(l) < num_links);
      ++crossing[static_cast<size_t>(l)];
      if (flows[f].lossy) {
        ++lossy[static_cast<size_t>(l)];
        ++unexplained[static_cast<size_t>(l)];
        members[static_cast<size_t>(l)].push_back(static_cast<int>(f));
      }
    }
    if (flows[f].lossy) {
      in_u[f] = 1;
      ++left;
    }
  }
  // h(a) > h(b), exactly: lossy_a / crossing_a > lossy_b / crossing_b.
  auto higher_hit = [&](size_t a, size_t b) { return lossy[a] * crossing[b] > lossy[b] * crossing[a]; };
  auto qualifies = [&](size_t l) {
    return crossing[l] > 0 &&
           static_cast<double>(lossy[l]) >= options.min_hit_ratio * static_cast<double>(crossing[l]);
  };

  std::vector<TomographyPick> picks;
  while (left > 0) {
    size_t best = num_links;
    for (size_t l = 0; l < num_links; ++l) {
      if (unexplained[l] == 0 || !qualifies(l)) continue;
      if (best == num_links || unexplained[l] > unexplained[best] ||
          (unexplained[l] == unexplained[best] && higher_hit(l, best))) {
        best = l;  // ascending l: a full tie keeps the lower id
      }
    }
    if (best == num_links || unexplained[best] < options.min_flows) break;
    TomographyPick pick;
    pick.link = static_cast<int>(best);
    pick.crossing = crossing[best];
    pick.lossy = lossy[best];
    pick.hit_ratio = static_cast<double>(lossy[best]) / static_cast<double>(crossing[best]);
    for (int f : members[best]) {
      if (!in_u[static_cast<size_t>(f)]) continue;
      in_u[static_cast<size_t>(f)] = 0;
      --left;
      pick.explained.push_back(f);
      for (int l : flows[static_cast<size_t>(f)].links) --unexplained[static_cast<size_t>(l)];
    }
    picks.push_back(std::move(pick));
  }
  return picks;
}

}  // namespace aifabric
