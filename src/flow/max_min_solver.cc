#include "flow/max_min_solver.h"

#include <algorithm>
#include <cassert>
#include <limits>

namespace aifabric {

int MaxMinSolver::AddResource(double capacity) {
  assert(capacity > 0);
  capacity_.push_back(capacity);
  users_.emplace_back();
  remaining_.push_back(0);
  weight_sum_.push_back(0);
  resource_seen_.push_back(0);
  return static_cast<int>(capacity_.size()) - 1;
}

int MaxMinSolver::AddFlow(std::span<const int> resources, double weight) {
  scratch_.clear();
  for (int r : resources) scratch_.emplace_back(r, 1.0);
  return AddMergedFlow(weight);
}

int MaxMinSolver::AddFlow(std::span<const int> resources, std::span<const double> coefficients, double weight) {
  assert(resources.size() == coefficients.size());
  scratch_.clear();
  for (size_t i = 0; i < resources.size(); ++i) {
    assert(coefficients[i] > 0);
    scratch_.emplace_back(resources[i], coefficients[i]);
  }
  return AddMergedFlow(weight);
}

int MaxMinSolver::AddMergedFlow(double weight) {
  assert(!scratch_.empty() && weight > 0);
  // Sort by resource and sum the coefficients of repeats.
  std::sort(scratch_.begin(), scratch_.end(),
            [](const std::pair<int, double>& a, const std::pair<int, double>& b) { return a.first < b.first; });
  int id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = static_cast<int>(flows_.size());
    flows_.emplace_back();
  }
  Flow& f = flows_[static_cast<size_t>(id)];
  f.resources.clear();
  f.coefficients.clear();
  for (const auto& [r, a] : scratch_) {
    if (!f.resources.empty() && f.resources.back() == r) {
      f.coefficients.back() += a;
    } else {
      f.resources.push_back(r);
      f.coefficients.push_back(a);
    }
  }
  for (int r : f.resources) {
    assert(r >= 0 && static_cast<size_t>(r) < capacity_.size());
    users_[static_cast<size_t>(r)].push_back(id);
  }
  changed_.push_back(f.resources.front());  // reaches the flow, then all its resources
  f.weight = weight;
  f.rate = 0;
  f.active = true;
  ++active_;
  return id;
}

void MaxMinSolver::RemoveFlow(int flow) {
  Flow& f = flows_[static_cast<size_t>(flow)];
  assert(f.active);
  for (int r : f.resources) {
    std::vector<int>& u = users_[static_cast<size_t>(r)];
    u.erase(std::find(u.begin(), u.end(), flow));  // keeps the others in order
    changed_.push_back(r);  // the flows left on each may speed up
  }
  f.active = false;
  f.rate = 0;
  f.resources.clear();
  f.coefficients.clear();
  free_ids_.push_back(flow);
  --active_;
}

void MaxMinSolver::Solve() {
  // The component of the changes: every resource and flow reachable from a
  // changed flow's resources through shared resources (breadth first).
  // Nothing outside it shares a resource with it, so its rates stand.
  ++epoch_;
  component_resources_.clear();
  solved_flows_.clear();
  if (flow_seen_.size() < flows_.size()) flow_seen_.resize(flows_.size(), 0);
  if (frozen_.size() < flows_.size()) frozen_.resize(flows_.size(), 0);
  for (int r : changed_) {
    if (resource_seen_[static_cast<size_t>(r)] == epoch_) continue;
    resource_seen_[static_cast<size_t>(r)] = epoch_;
    component_resources_.push_back(r);
  }
  changed_.clear();
  for (size_t i = 0; i < component_resources_.size(); ++i) {
    for (int fid : users_[static_cast<size_t>(component_resources_[i])]) {
      if (flow_seen_[static_cast<size_t>(fid)] == epoch_) continue;
      flow_seen_[static_cast<size_t>(fid)] = epoch_;
      solved_flows_.push_back(fid);
      for (int r : flows_[static_cast<size_t>(fid)].resources) {
        if (resource_seen_[static_cast<size_t>(r)] == epoch_) continue;
        resource_seen_[static_cast<size_t>(r)] = epoch_;
        component_resources_.push_back(r);
      }
    }
  }
  for (int r : component_resources_) {
    const size_t ru = static_cast<size_t>(r);
    remaining_[ru] = capacity_[ru];
    weight_sum_[ru] = 0;
  }
  // A resource only one flow crosses (a coflow's own links, a host's NIC
  // link) never binds another flow: it only caps its flow's rate, at
  // C_r / a_{f,r}. So the heap holds the shared resources and, per flow,
  // the tightest of its private caps (as level cap / w_f): far fewer
  // entries when most links serve a single coflow.
  if (flow_cap_.size() < flows_.size()) flow_cap_.resize(flows_.size());
  heap_.clear();
  for (int fid : solved_flows_) {
    const Flow& f = flows_[static_cast<size_t>(fid)];
    double cap = std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < f.resources.size(); ++k) {
      const size_t r = static_cast<size_t>(f.resources[k]);
      if (users_[r].size() == 1) {
        cap = std::min(cap, capacity_[r] / f.coefficients[k]);
      } else {
        weight_sum_[r] += f.weight * f.coefficients[k];
      }
    }
    flow_cap_[static_cast<size_t>(fid)] = cap;
    if (cap < std::numeric_limits<double>::infinity()) heap_.push_back(HeapEntry{cap / f.weight, -1 - fid});
  }
  // Progressive filling over the component. Min-heap of (level, key), key
  // a shared resource's id or -1 - a flow's; ties by key. Levels only rise
  // while flows freeze, so a resource's key may lag behind its level: on
  // pop it is recomputed and pushed back if it has risen, and only a
  // resource popped at its current level is a bottleneck (every other key,
  // hence every other level, is at least as high). One push per resource
  // and per lag, not per change. A flow's private cap never changes.
  auto level = [&](size_t r) { return remaining_[r] > 0 ? remaining_[r] / weight_sum_[r] : 0.0; };
  auto later = [](const HeapEntry& a, const HeapEntry& b) {
    return a.level > b.level || (a.level == b.level && a.resource > b.resource);
  };
  auto freeze = [&](int fid, double s) {
    Flow& f = flows_[static_cast<size_t>(fid)];
    frozen_[static_cast<size_t>(fid)] = epoch_;
    f.rate = f.weight * s;
    for (size_t k = 0; k < f.resources.size(); ++k) {
      const size_t o = static_cast<size_t>(f.resources[k]);
      if (users_[o].size() == 1) continue;
      remaining_[o] -= f.coefficients[k] * f.rate;
      weight_sum_[o] -= f.coefficients[k] * f.weight;
      if (weight_sum_[o] < 1e-12) weight_sum_[o] = 0;
    }
  };
  for (int r : component_resources_) {
    const size_t ru = static_cast<size_t>(r);
    if (users_[ru].size() > 1 && weight_sum_[ru] > 0) heap_.push_back(HeapEntry{level(ru), r});
  }
  std::make_heap(heap_.begin(), heap_.end(), later);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const HeapEntry top = heap_.back();
    heap_.pop_back();
    if (top.resource < 0) {
      const int fid = -1 - top.resource;
      if (frozen_[static_cast<size_t>(fid)] != epoch_) freeze(fid, top.level);
      continue;
    }
    const size_t ru = static_cast<size_t>(top.resource);
    if (weight_sum_[ru] <= 0) continue;  // all its flows froze elsewhere
    const double s = level(ru);
    if (s != top.level) {
      heap_.push_back(HeapEntry{s, top.resource});
      std::push_heap(heap_.begin(), heap_.end(), later);
      continue;
    }
    for (int fid : users_[ru]) {
      if (frozen_[static_cast<size_t>(fid)] != epoch_) freeze(fid, s);
    }
  }
}

double MaxMinSolver::load(int resource) const {
  double sum = 0;
  for (const Flow& f : flows_) {
    if (!f.active) continue;
    for (size_t k = 0; k < f.resources.size(); ++k) {
      if (f.resources[k] == resource) sum += f.coefficients[k] * f.rate;
    }
  }
  return sum;
}

}  // namespace aifabric
