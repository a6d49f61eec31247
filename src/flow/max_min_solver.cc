#include "flow/max_min_solver.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace aifabric {

void MaxMinSolver::ResourceUsers::push_back(int flow) {
  if (size_ < kInline) {
    inline_[size_++] = flow;
    return;
  }
  if (size_ == kInline) heap_.assign(inline_, inline_ + kInline);
  heap_.push_back(flow);
  ++size_;
}

void MaxMinSolver::ResourceUsers::erase_value(int flow) {
  if (size_ <= kInline) {
    const uint32_t at = inline_[0] == flow ? 0 : 1;
    assert(inline_[at] == flow);
    if (at == 0) inline_[0] = inline_[1];
    --size_;
    return;
  }
  heap_.erase(std::find(heap_.begin(), heap_.end(), flow));
  if (--size_ == kInline) {
    inline_[0] = heap_[0];
    inline_[1] = heap_[1];
    heap_.clear();
  }
}

int MaxMinSolver::AddResource(double capacity) {
  assert(capacity > 0);
  capacity_.push_back(capacity);
  users_.emplace_back();
  remaining_.push_back(0);
  weight_sum_.push_back(0);
  resource_seen_.push_back(0);
  set_users_.push_back(0);
  bound_.push_back(0);
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
  // Sort by resource and sum the coefficients of repeats (a caller's list
  // that is sorted already, as FlowNetwork keeps its coflows', skips the sort).
  const auto by_resource = [](const std::pair<int, double>& a, const std::pair<int, double>& b) {
    return a.first < b.first;
  };
  if (!std::is_sorted(scratch_.begin(), scratch_.end(), by_resource)) {
    std::sort(scratch_.begin(), scratch_.end(), by_resource);
  }
  int id;
  if (!free_ids_.empty()) {
    id = free_ids_.back();
    free_ids_.pop_back();
  } else {
    id = static_cast<int>(flows_.size());
    flows_.emplace_back();
  }
  // Repeats merged in place: scratch_ becomes the flow's distinct list.
  size_t distinct = 0;
  for (size_t i = 0; i < scratch_.size(); ++i) {
    if (distinct > 0 && scratch_[distinct - 1].first == scratch_[i].first) {
      scratch_[distinct - 1].second += scratch_[i].second;
    } else {
      scratch_[distinct++] = scratch_[i];
    }
  }
  Flow& f = flows_[static_cast<size_t>(id)];
  TakeBlock(f, static_cast<uint32_t>(distinct));
  f.size = static_cast<uint32_t>(distinct);
  f.shared_size = 0;
  for (size_t k = 0; k < distinct; ++k) {
    const auto [r, a] = scratch_[k];
    assert(r >= 0 && static_cast<size_t>(r) < capacity_.size());
    resource_pool_[f.block + k] = r;
    coefficient_pool_[f.block + k] = a;
    ResourceUsers& u = users_[static_cast<size_t>(r)];
    u.push_back(id);
    if (u.size() == 2) MakeShared(u.front(), r);
    if (u.size() > 1) AppendShared(f, static_cast<uint32_t>(k));
  }
  RecomputePrivateCap(f);
  f.weight = weight;
  f.rate = 0;
  f.active = true;
  ++active_;
  // A flow that can run at its private cap within the slack of every
  // shared resource it crosses takes that rate and changes no other:
  // those resources stay unsaturated, so they bind no flow, and every
  // other flow keeps its bottleneck. Otherwise the next Solve re-rates it
  // and the flows it may move.
  bool fits = f.private_ties > 0;
  for (const auto& [r, a] : Shared(f)) {
    if (!fits) break;
    fits = Unsaturated(r, a * f.private_cap);
  }
  double rate = f.private_cap;
  if (!fits) rate = FairShareOfSlack(id);
  fits = fits || rate > 0;
  BindTo(f, -1);
  if (fits) {
    f.rate = rate;
    for (const auto& [r, a] : Shared(f)) {
      remaining_[static_cast<size_t>(r)] -= a * f.rate;
      if (f.bottleneck < 0 && rate < f.private_cap && !Unsaturated(r, 0)) BindTo(f, r);  // the slack it filled
    }
    fast_flows_.push_back(id);
  } else {
    for (const auto& [r, a] : Shared(f)) changed_.push_back(r);  // its other flows may slow down
    changed_flows_.push_back(id);
  }
  return id;
}

double MaxMinSolver::FairShareOfSlack(int flow) const {
  // With no change pending (every rate and slack current), a new flow may
  // take the slack of its tightest shared resources — those it fills
  // become its bottleneck — as long as no other flow there runs at a
  // higher level: then each of them keeps its own bottleneck elsewhere
  // (a resource where it has the highest level), and the new allocation
  // is max-min. 0 if not.
  if (!Settled()) return 0;
  const Flow& f = flows_[static_cast<size_t>(flow)];
  double rate = f.private_cap;
  for (const auto& [r, a] : Shared(f)) rate = std::min(rate, remaining_[static_cast<size_t>(r)] / a);
  if (!(rate > 0) || rate == std::numeric_limits<double>::infinity()) return 0;
  const double level = rate / f.weight;
  for (const auto& [r, a] : Shared(f)) {
    if (Unsaturated(r, a * rate)) continue;  // it does not fill this one
    for (int h : users_[static_cast<size_t>(r)]) {
      const Flow& other = flows_[static_cast<size_t>(h)];
      if (h != flow && other.rate / other.weight > level * (1 + kSlack)) return 0;
    }
  }
  return rate;
}

bool MaxMinSolver::NoneBoundBy(int flow, int r) const {
  // Resource r is full. It bounds another flow only if that flow has the
  // highest level there; if every other flow's level is below the leaving
  // flow's, their bottlenecks are elsewhere and they keep their rates.
  const Flow& f = flows_[static_cast<size_t>(flow)];
  const double level = f.rate / f.weight;
  for (int h : users_[static_cast<size_t>(r)]) {
    const Flow& other = flows_[static_cast<size_t>(h)];
    if (h != flow && other.rate / other.weight >= level * (1 - kSlack)) return false;
  }
  return true;
}

bool MaxMinSolver::Unsaturated(int r, double more) const {
  const size_t ru = static_cast<size_t>(r);
  return remaining_[ru] - more > kSlack * capacity_[ru];
}

uint32_t MaxMinSolver::IndexOf(const Flow& f, int r) const {
  const std::span<const int> rs = Resources(f);
  const auto it = std::lower_bound(rs.begin(), rs.end(), r);
  assert(it != rs.end() && *it == r);
  return static_cast<uint32_t>(it - rs.begin());
}

void MaxMinSolver::AppendShared(Flow& f, uint32_t k) {
  const uint32_t pos = f.shared_size++;
  shared_pool_[f.block + pos] = {resource_pool_[f.block + k], coefficient_pool_[f.block + k]};
  shared_index_pool_[f.block + pos] = k;
  shared_position_pool_[f.block + k] = pos;
}

void MaxMinSolver::TakeBlock(Flow& f, uint32_t size) {
  uint8_t k = 0;
  while ((uint32_t{1} << k) < size) ++k;
  f.block_class = k;
  if (free_blocks_.size() <= k) free_blocks_.resize(k + 1u);
  std::vector<uint32_t>& free = free_blocks_[k];
  if (!free.empty()) {
    f.block = free.back();
    free.pop_back();
    return;
  }
  f.block = static_cast<uint32_t>(pool_used_);
  pool_used_ += size_t{1} << k;
  if (pool_used_ > resource_pool_.size()) {  // grown by doubling: rare
    const size_t grown = std::max(pool_used_, 2 * resource_pool_.size());
    resource_pool_.resize(grown);
    coefficient_pool_.resize(grown);
    shared_pool_.resize(grown);
    shared_index_pool_.resize(grown);
    shared_position_pool_.resize(grown);
  }
}

void MaxMinSolver::ReleaseBlock(const Flow& f) { free_blocks_[f.block_class].push_back(f.block); }

void MaxMinSolver::RecomputePrivateCap(Flow& f) {
  f.private_cap = std::numeric_limits<double>::infinity();
  f.private_ties = 0;
  const std::span<const int> rs = Resources(f);
  const std::span<const double> cs = Coefficients(f);
  for (size_t k = 0; k < rs.size(); ++k) {
    const size_t r = static_cast<size_t>(rs[k]);
    if (users_[r].size() != 1) continue;
    const double cap = capacity_[r] / cs[k];
    if (cap < f.private_cap) {
      f.private_cap = cap;
      f.private_ties = 1;
    } else if (cap == f.private_cap) {
      ++f.private_ties;
    }
  }
}

void MaxMinSolver::MakeShared(int flow, int r) {
  Flow& f = flows_[static_cast<size_t>(flow)];
  const uint32_t k = IndexOf(f, r);
  const double a = coefficient_pool_[f.block + k];
  AppendShared(f, k);
  remaining_[static_cast<size_t>(r)] = capacity_[static_cast<size_t>(r)] - a * f.rate;  // its slack so far
  // A flow held by its private cap on r is held by r now (full, and the
  // newcomer has no rate yet).
  if (f.bottleneck < 0 && !Unsaturated(r, 0)) BindTo(f, r);
  // Its tightest private resource is private no more: recount without it.
  if (capacity_[static_cast<size_t>(r)] / a == f.private_cap && --f.private_ties == 0) RecomputePrivateCap(f);
}

void MaxMinSolver::MakePrivate(int flow, int r) {
  Flow& f = flows_[static_cast<size_t>(flow)];
  const uint32_t k = IndexOf(f, r);
  const double cap = capacity_[static_cast<size_t>(r)] / coefficient_pool_[f.block + k];
  // The last shared entry takes its place.
  const uint32_t pos = shared_position_pool_[f.block + k];
  const uint32_t last = f.block + --f.shared_size;
  shared_pool_[f.block + pos] = shared_pool_[last];
  shared_index_pool_[f.block + pos] = shared_index_pool_[last];
  shared_position_pool_[f.block + shared_index_pool_[f.block + pos]] = pos;
  if (cap < f.private_cap) {
    f.private_cap = cap;
    f.private_ties = 1;
  } else if (cap == f.private_cap) {
    ++f.private_ties;
  }
}

void MaxMinSolver::RemoveFlow(int flow) {
  Flow& f = flows_[static_cast<size_t>(flow)];
  assert(f.active);
  f.active = false;
  BindTo(f, -1);
  // A flow whose shared resources all had slack bound no other flow: the
  // others keep their rates and only the slack grows. (One still waiting
  // for its first solve may have left stale slack figures: re-solve.)
  bool quiet = f.rate > 0;
  for (const auto& [r, a] : Shared(f)) {
    if (!quiet) break;
    quiet = Unsaturated(r, 0) || (Settled() && NoneBoundBy(flow, r));
  }
  for (const auto& [r, a] : Shared(f)) remaining_[static_cast<size_t>(r)] += a * f.rate;
  for (int r : Resources(f)) {
    ResourceUsers& u = users_[static_cast<size_t>(r)];
    u.erase_value(flow);
    if (u.empty()) continue;
    if (!quiet) changed_.push_back(r);  // the flows left on it may speed up
    if (u.size() == 1) MakePrivate(u.front(), r);
  }
  f.rate = 0;
  ReleaseBlock(f);
  f.size = f.shared_size = 0;
  free_ids_.push_back(flow);
  --active_;
}

void MaxMinSolver::BindTo(Flow& f, int r) {
  if (f.bottleneck >= 0) --bound_[static_cast<size_t>(f.bottleneck)];
  f.bottleneck = r;
  if (r >= 0) ++bound_[static_cast<size_t>(r)];
}

void MaxMinSolver::JoinSolve(int fid) {
  const size_t f = static_cast<size_t>(fid);
  if (flow_seen_[f] >= solve_epoch_ || !flows_[f].active) return;
  flow_seen_[f] = epoch_;
  solved_flows_.push_back(fid);
  old_rates_.push_back(flows_[f].rate);
}

void MaxMinSolver::JoinComponent() {
  // Every active flow reachable from the set through shared resources
  // (breadth first): nothing outside it shares a resource with it.
  ++epoch_;
  for (size_t i = 0; i < solved_flows_.size(); ++i) {
    for (const auto& [r, a] : Shared(flows_[static_cast<size_t>(solved_flows_[i])])) {
      if (resource_seen_[static_cast<size_t>(r)] == epoch_) continue;
      resource_seen_[static_cast<size_t>(r)] = epoch_;
      for (int fid : users_[static_cast<size_t>(r)]) JoinSolve(fid);
    }
  }
}

void MaxMinSolver::FillSet() {
  // The set's shared resources, each with what the flows outside the set
  // leave of it (remaining_ less the set's own old rates; the capacity
  // itself when the set holds every flow there, which also clears any
  // rounding the running slack gathered).
  ++epoch_;
  component_resources_.clear();
  for (size_t i = 0; i < solved_flows_.size(); ++i) {
    const Flow& f = flows_[static_cast<size_t>(solved_flows_[i])];
    for (const auto& [r, a] : Shared(f)) {
      const size_t ru = static_cast<size_t>(r);
      if (resource_seen_[ru] != epoch_) {
        resource_seen_[ru] = epoch_;
        component_resources_.push_back(r);
        weight_sum_[ru] = 0;
        set_users_[ru] = 0;
      }
      remaining_[ru] += a * old_rates_[i];
      weight_sum_[ru] += f.weight * a;
      ++set_users_[ru];
    }
  }
  heap_.clear();
  for (int r : component_resources_) {
    const size_t ru = static_cast<size_t>(r);
    if (set_users_[ru] == users_[ru].size()) remaining_[ru] = capacity_[ru];
    if (weight_sum_[ru] > 0) heap_.push_back(HeapEntry{Level(ru), r});
  }
  for (int fid : solved_flows_) {
    const Flow& f = flows_[static_cast<size_t>(fid)];
    if (f.private_ties > 0) heap_.push_back(HeapEntry{f.private_cap / f.weight, -1 - fid});
  }
  // Progressive filling over the set. Min-heap of (level, key), key a
  // shared resource's id or -1 - a flow's (its private cap); ties by key.
  // Levels only rise while flows freeze, so a resource's key may lag behind
  // its level: on pop it is recomputed and pushed back if it has risen, and
  // only a resource popped at its current level is a bottleneck (every
  // other key, hence every other level, is at least as high). One push per
  // resource and per lag, not per change. A private cap never changes.
  auto later = [](const HeapEntry& a, const HeapEntry& b) {
    return a.level > b.level || (a.level == b.level && a.resource > b.resource);
  };
  auto freeze = [&](int fid, double s, int bottleneck) {
    Flow& f = flows_[static_cast<size_t>(fid)];
    frozen_[static_cast<size_t>(fid)] = epoch_;
    f.rate = f.weight * s;
    BindTo(f, bottleneck);
    for (const auto& [r, a] : Shared(f)) {
      const size_t o = static_cast<size_t>(r);
      remaining_[o] -= a * f.rate;
      weight_sum_[o] -= a * f.weight;
      if (weight_sum_[o] < 1e-12) weight_sum_[o] = 0;
    }
  };
  std::make_heap(heap_.begin(), heap_.end(), later);
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const HeapEntry top = heap_.back();
    heap_.pop_back();
    if (top.resource < 0) {
      const int fid = -1 - top.resource;
      if (frozen_[static_cast<size_t>(fid)] != epoch_) freeze(fid, top.level, -1);
      continue;
    }
    const size_t ru = static_cast<size_t>(top.resource);
    if (weight_sum_[ru] <= 0) continue;  // all its flows froze elsewhere
    const double s = Level(ru);
    if (s != top.level) {
      heap_.push_back(HeapEntry{s, top.resource});
      std::push_heap(heap_.begin(), heap_.end(), later);
      continue;
    }
    for (int fid : users_[ru]) {
      if (flow_seen_[static_cast<size_t>(fid)] >= solve_epoch_ && frozen_[static_cast<size_t>(fid)] != epoch_) {
        freeze(fid, s, top.resource);
      }
    }
  }
}

bool MaxMinSolver::JoinOutsidersItWronged() {
  // The set's new rates are max-min for the whole problem when every flow
  // keeps a bottleneck: a full resource where no flow runs at a higher
  // level. A set flow frozen on a resource where an outsider runs higher
  // must take from it: the outsider joins. An outsider whose bottleneck a
  // set flow crosses at a changed rate may have lost it (the resource is
  // no longer full, or someone now runs higher there): it joins. Every
  // other outsider's bottleneck carries the rates it had, so it holds.
  const size_t before = solved_flows_.size();
  for (size_t i = 0; i < before; ++i) {
    const int fid = solved_flows_[i];
    const Flow& f = flows_[static_cast<size_t>(fid)];
    if (f.bottleneck >= 0) {
      const double level = f.rate / f.weight;
      for (int h : users_[static_cast<size_t>(f.bottleneck)]) {
        const Flow& other = flows_[static_cast<size_t>(h)];
        if (other.rate / other.weight > level * (1 + kSlack)) JoinSolve(h);
      }
    }
    if (std::abs(f.rate - old_rates_[i]) <= kSlack * std::max(f.rate, old_rates_[i])) continue;
    for (const auto& [r, a] : Shared(f)) {
      if (bound_[static_cast<size_t>(r)] == 0) continue;  // no flow's bottleneck
      for (int h : users_[static_cast<size_t>(r)]) {
        if (flows_[static_cast<size_t>(h)].bottleneck == r) JoinSolve(h);
      }
    }
  }
  return solved_flows_.size() > before;
}

void MaxMinSolver::Solve() {
  // The flows to re-rate start as the added ones and those bound by a
  // resource a change touched; the set is solved with every other flow's
  // rate held, then grows by the outsiders that allocation wrongs, until
  // none is (JoinOutsidersItWronged). After kLocalRounds rounds it takes
  // the whole component of the changes, which has no outsiders. Each
  // round's solve starts from the rates before this Solve.
  ++epoch_;
  solve_epoch_ = epoch_;
  solved_flows_.clear();
  old_rates_.clear();
  if (flow_seen_.size() < flows_.size()) {
    flow_seen_.resize(flows_.size(), 0);
    frozen_.resize(flows_.size(), 0);
  }
  for (int fid : changed_flows_) JoinSolve(fid);
  std::swap(fast_flows_, fast_scratch_);  // published after the set's (below)
  fast_flows_.clear();
  for (int r : changed_) {
    if (bound_[static_cast<size_t>(r)] == 0) continue;
    for (int fid : users_[static_cast<size_t>(r)]) {
      if (flows_[static_cast<size_t>(fid)].bottleneck == r) JoinSolve(fid);
    }
  }
  changed_.clear();
  changed_flows_.clear();
  for (int round = 0; !solved_flows_.empty(); ++round) {
    if (round == kLocalRounds) JoinComponent();
    const size_t size = solved_flows_.size();
    FillSet();
    if (!JoinOutsidersItWronged()) break;
    // The set grew: undo this round's rates (each round starts from the
    // rates before the Solve).
    for (size_t i = 0; i < size; ++i) {
      Flow& f = flows_[static_cast<size_t>(solved_flows_[i])];
      for (const auto& [r, a] : Shared(f)) remaining_[static_cast<size_t>(r)] += a * (f.rate - old_rates_[i]);
      f.rate = old_rates_[i];
    }
  }
  // Flows that took their rate on arrival (AddFlow) and that no round
  // re-rated since: they are new rates too.
  for (int fid : fast_scratch_) JoinSolve(fid);
  fast_scratch_.clear();
}

double MaxMinSolver::load(int resource) const {
  double sum = 0;
  for (int fid : users_[static_cast<size_t>(resource)]) {
    const Flow& f = flows_[static_cast<size_t>(fid)];
    sum += coefficient_pool_[f.block + IndexOf(f, resource)] * f.rate;
  }
  return sum;
}

void MaxMinSolver::SetCapacity(int resource, double capacity) {
  assert(capacity >= 0);
  const size_t r = static_cast<size_t>(resource);
  const double old = capacity_[r];
  if (capacity == old) return;
  capacity_[r] = capacity;
  const ResourceUsers& u = users_[r];
  if (u.empty()) return;
  if (u.size() == 1) {
    // Private: it caps its one flow, which the next Solve re-rates.
    RecomputePrivateCap(flows_[static_cast<size_t>(u.front())]);
    changed_flows_.push_back(u.front());
    return;
  }
  remaining_[r] += capacity - old;
  if (capacity > old) {
    changed_.push_back(resource);  // the flows bound here may speed up
  } else {
    for (int fid : u) changed_flows_.push_back(fid);  // it may bind flows it did not
  }
}

}  // namespace aifabric
