#include "flow/max_min_solver.h"

#include <cassert>
#include <algorithm>

namespace aifabric {

int MaxMinSolver::AddResource(double capacity) {
  assert(capacity > 0);
  capacity_.push_back(capacity);
  return static_cast<int>(capacity_.size()) - 1;
}

int MaxMinSolver::AddFlow(std::span<const int> resources, double weight) {
  assert(!resources.empty() && weight > 0);
  int id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = static_cast<int>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[static_cast<size_t>(id)];
  f.resources.assign(resources.begin(), resources.end());
  for (int r : f.resources) {
    assert(r >= 0 && static_cast<size_t>(r) < capacity_.size());
    (void)r;
  }
  f.weight = weight;
  f.rate = 0;
  f.active = true;
  ++active_;
  return id;
}

void MaxMinSolver::RemoveFlow(int flow) {
  Flow& f = flows_[static_cast<size_t>(flow)];
  assert(f.active);
  f.active = false;
  f.rate = 0;
  f.resources.clear();
  free_ids_.push_back(flow);
  --active_;
}

void MaxMinSolver::Solve() {
  const size_t n_res = capacity_.size();
  // Users of each resource in one array (CSR): user_start_[r] ..
  // user_start_[r + 1] index users_, filled in flow-id order.
  user_start_.assign(n_res + 1, 0);
  for (const Flow& f : flows_) {
    if (!f.active) continue;
    for (int r : f.resources) ++user_start_[static_cast<size_t>(r) + 1];
  }
  for (size_t r = 0; r < n_res; ++r) user_start_[r + 1] += user_start_[r];
  users_.resize(user_start_[n_res]);
  fill_.assign(user_start_.begin(), user_start_.end() - 1);
  remaining_.assign(capacity_.begin(), capacity_.end());
  weight_sum_.assign(n_res, 0.0);
  frozen_.assign(flows_.size(), 0);
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& f = flows_[i];
    if (!f.active) continue;
    for (int r : f.resources) {
      users_[fill_[static_cast<size_t>(r)]++] = static_cast<int>(i);
      weight_sum_[static_cast<size_t>(r)] += f.weight;
    }
  }
  // Min-heap of (level, resource), ties by resource id. Levels only rise
  // while flows freeze, so a resource's key may lag behind its level: on
  // pop it is recomputed and pushed back if it has risen, and only a
  // resource popped at its current level is a bottleneck (every other key,
  // hence every other level, is at least as high). One push per resource
  // and per lag, instead of one per change.
  auto level = [&](size_t r) { return remaining_[r] > 0 ? remaining_[r] / weight_sum_[r] : 0.0; };
  auto later = [](const HeapEntry& a, const HeapEntry& b) {
    return a.level > b.level || (a.level == b.level && a.resource > b.resource);
  };
  heap_.clear();
  for (size_t r = 0; r < n_res; ++r) {
    if (weight_sum_[r] > 0) heap_.push_back(HeapEntry{level(r), static_cast<int>(r)});
  }
  std::make_heap(heap_.begin(), heap_.end(), later);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const HeapEntry top = heap_.back();
    heap_.pop_back();
    const size_t ru = static_cast<size_t>(top.resource);
    if (weight_sum_[ru] <= 0) continue;  // all its flows froze elsewhere
    const double s = level(ru);
    if (s != top.level) {
      heap_.push_back(HeapEntry{s, top.resource});
      std::push_heap(heap_.begin(), heap_.end(), later);
      continue;
    }
    for (uint32_t u = user_start_[ru]; u < user_start_[ru + 1]; ++u) {
      const size_t fid = static_cast<size_t>(users_[u]);
      if (frozen_[fid]) continue;
      Flow& f = flows_[fid];
      frozen_[fid] = 1;
      f.rate = f.weight * s;
      for (int other : f.resources) {
        const size_t o = static_cast<size_t>(other);
        remaining_[o] -= f.rate;
        weight_sum_[o] -= f.weight;
        if (weight_sum_[o] < 1e-12) weight_sum_[o] = 0;
      }
    }
  }
}

double MaxMinSolver::load(int resource) const {
  double sum = 0;
  for (const Flow& f : flows_) {
    if (!f.active) continue;
    for (int r : f.resources) {
      if (r == resource) sum += f.rate;
    }
  }
  return sum;
}

}  // namespace aifabric
