#include "workload/dependency_csr.h"

namespace aifabric {

void DependencyCsr::Assign(size_t count, const std::vector<std::pair<uint32_t, uint32_t>>& edges) {
  in_degree.assign(count, 0);
  offsets.assign(count + 1, 0);
  for (auto [from, to] : edges) {
    ++offsets[from + 1];
    ++in_degree[to];
  }
  for (size_t i = 0; i < count; ++i) offsets[i + 1] += offsets[i];
  successors.resize(edges.size());
  std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
  for (auto [from, to] : edges) successors[fill[from]++] = to;
}

std::vector<uint32_t> DependencyCsr::TopologicalOrder() const {
  const size_t count = in_degree.size();
  std::vector<uint32_t> order;
  order.reserve(count);
  std::vector<uint32_t> remaining = in_degree;
  for (uint32_t i = 0; i < count; ++i) {
    if (remaining[i] == 0) order.push_back(i);
  }
  for (size_t head = 0; head < order.size(); ++head) {
    for (uint32_t s : of(order[head])) {
      if (--remaining[s] == 0) order.push_back(s);
    }
  }
  return order;
}

}  // namespace aifabric
