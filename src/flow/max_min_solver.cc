#include "flow/max_min_solver.h"

#include <cassert>
#include <queue>
#include <utility>

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
  users_.resize(n_res);
  for (auto& u : users_) u.clear();
  remaining_.assign(capacity_.begin(), capacity_.end());
  weight_sum_.assign(n_res, 0.0);
  frozen_.assign(flows_.size(), 0);
  for (size_t i = 0; i < flows_.size(); ++i) {
    const Flow& f = flows_[i];
    if (!f.active) continue;
    for (int r : f.resources) {
      users_[static_cast<size_t>(r)].push_back(static_cast<int>(i));
      weight_sum_[static_cast<size_t>(r)] += f.weight;
    }
  }
  // Min-heap of (level, resource); an entry is stale when the resource's
  // level has changed since it was pushed (checked on pop).
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  auto level = [&](size_t r) { return remaining_[r] > 0 ? remaining_[r] / weight_sum_[r] : 0.0; };
  for (size_t r = 0; r < n_res; ++r) {
    if (weight_sum_[r] > 0) heap.emplace(level(r), static_cast<int>(r));
  }
  while (!heap.empty()) {
    const auto [s, r] = heap.top();
    heap.pop();
    const size_t ru = static_cast<size_t>(r);
    if (weight_sum_[ru] <= 0 || s != level(ru)) continue;  // drained or stale
    for (int fid : users_[ru]) {
      if (frozen_[static_cast<size_t>(fid)]) continue;
      Flow& f = flows_[static_cast<size_t>(fid)];
      frozen_[static_cast<size_t>(fid)] = 1;
      f.rate = f.weight * s;
      for (int other : f.resources) {
        const size_t o = static_cast<size_t>(other);
        remaining_[o] -= f.rate;
        weight_sum_[o] -= f.weight;
        if (weight_sum_[o] < 1e-12) weight_sum_[o] = 0;
        if (o != ru && weight_sum_[o] > 0) heap.emplace(level(o), other);
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
