#include "flow/fluid_network.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace aifabric {
namespace {
// Drain times are rounded up to the next picosecond, less this much of a
// picosecond, so that a figure a few ulps above a whole picosecond (double
// rounding of an exact quotient) is not pushed to the next one.
constexpr double kRoundingSlackPs = 1e-3;

bool Later(const auto& a, const auto& b) { return a.at_ps > b.at_ps || (a.at_ps == b.at_ps && a.seq > b.seq); }
}  // namespace

FluidNetwork::FluidNetwork(Simulator& sim, DoneCallback done)
    : sim_(sim), done_(std::move(done)), completions_(*this) {}

void FluidNetwork::Completions::Schedule(uint64_t id, Time at) {
  uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
    pending_[slot] = {id, at};
  } else {
    slot = static_cast<uint32_t>(pending_.size());
    pending_.push_back({id, at});
  }
  net_.sim_.Schedule(at, this, slot);
}

void FluidNetwork::Completions::OnEvent(uint64_t tag) {
  const auto [id, at] = pending_[tag];
  free_.push_back(static_cast<uint32_t>(tag));
  net_.done_(id, at);
}

int FluidNetwork::AddResource(DataRate capacity) {
  assert(capacity.bps() > 0);
  return AddResource(static_cast<double>(capacity.bps()));
}

int FluidNetwork::AddResource(double capacity_bps) {
  assert(capacity_bps > 0);
  carried_done_.push_back(0.0);
  return solver_.AddResource(capacity_bps);
}

void FluidNetwork::Start(uint64_t id, uint64_t bytes, std::span<const int> resources, Time latency, double weight,
                         int traffic_class) {
  if (bytes == 0) {
    const Time at = sim_.Now() + latency;
    completions_.Schedule(id, at);
    return;
  }
  CoflowTiming timing;
  timing.latency = latency;
  Add(solver_.AddFlow(resources, weight, traffic_class), id, bytes, timing, weight, traffic_class);
}

void FluidNetwork::Start(uint64_t id, uint64_t bytes, std::span<const int> resources,
                         std::span<const double> coefficients, Time latency, double weight, int traffic_class) {
  if (bytes == 0) {
    completions_.Schedule(id, sim_.Now() + latency);
    return;
  }
  CoflowTiming timing;
  timing.latency = latency;
  Add(solver_.AddFlow(resources, coefficients, weight, traffic_class), id, bytes, timing, weight, traffic_class);
}

void FluidNetwork::StartCoflow(uint64_t id, uint64_t bytes, std::span<const int> resources,
                               std::span<const double> coefficients, const CoflowTiming& timing, double weight,
                               int traffic_class) {
  if (bytes == 0) {
    const Time at = sim_.Now() + Max(timing.chain, timing.fill) + timing.latency;
    completions_.Schedule(id, at);
    return;
  }
  Add(solver_.AddFlow(resources, coefficients, weight, traffic_class), id, bytes, timing, weight, traffic_class);
}

void FluidNetwork::Add(int flow, uint64_t id, uint64_t bytes, const CoflowTiming& timing, double weight,
                       int traffic_class) {
  if (flows_.size() <= static_cast<size_t>(flow)) flows_.resize(static_cast<size_t>(flow) + 1);
  Active& a = flows_[static_cast<size_t>(flow)];
  a = Active{};
  a.id = id;
  a.seq = next_seq_++;
  a.bytes = a.remaining_bytes = static_cast<double>(bytes);
  a.updated = sim_.Now();
  a.start = sim_.Now();
  a.timing = timing;
  a.weight = weight;
  a.traffic_class = traffic_class;
  a.active = true;
  SolveSoon();
}

void FluidNetwork::SolveSoon() {
  if (solve_pending_) return;
  solve_pending_ = true;
  sim_.Schedule(sim_.Now(), this, kSolveTag);
}

void FluidNetwork::SetCapacity(int resource, double capacity_bps) {
  solver_.SetCapacity(resource, capacity_bps);
  SolveSoon();
}

void FluidNetwork::Revise(const ReviseFn& revise) {
  if (solve_pending_) Reschedule();
  const Time now = sim_.Now();
  // Start order; a rerouted flow may land in another solver id.
  std::vector<int> order;
  for (size_t f = 0; f < flows_.size(); ++f) {
    if (flows_[f].active) order.push_back(static_cast<int>(f));
  }
  std::sort(order.begin(), order.end(), [this](int a, int b) {
    return flows_[static_cast<size_t>(a)].seq < flows_[static_cast<size_t>(b)].seq;
  });
  Revision change;
  for (int f : order) {
    change = Revision{};
    Active& a = flows_[static_cast<size_t>(f)];
    const std::span<const int> rs = solver_.resources(f);
    const std::span<const double> cs = solver_.coefficients(f);
    if (!revise(a.id, a.rate_bps, rs, cs, change)) continue;
    a.remaining_bytes = RemainingAt(a, now);
    a.updated = now;
    a.version = 0;  // its drain is predicted again at the next solve
    int at = f;
    if (change.reroute) {
      // What it carried stays with the resources it crossed; from now it
      // counts afresh on the new ones.
      const double sent = a.bytes - a.remaining_bytes;
      for (size_t k = 0; k < rs.size(); ++k) carried_done_[static_cast<size_t>(rs[k])] += cs[k] * sent;
      a.bytes = a.remaining_bytes;
      if (change.latency) a.timing.latency = *change.latency;
      solver_.RemoveFlow(f);
      at = change.coefficients.empty()
               ? solver_.AddFlow(change.resources, a.weight, a.traffic_class)
               : solver_.AddFlow(change.resources, change.coefficients, a.weight, a.traffic_class);
      if (at != f) {  // (a reference into flows_ no more once it grows)
        const Active copy = a;
        if (flows_.size() <= static_cast<size_t>(at)) flows_.resize(static_cast<size_t>(at) + 1);
        flows_[static_cast<size_t>(at)] = copy;
        flows_[static_cast<size_t>(f)].active = false;
      }
    }
    Active& moved = flows_[static_cast<size_t>(at)];
    moved.bytes += change.extra_bytes;
    moved.remaining_bytes += change.extra_bytes;
    revised_.push_back(at);
  }
  if (!revised_.empty()) SolveSoon();
}

double FluidNetwork::RemainingAt(const Active& a, Time now) const {
  const double seconds = static_cast<double>((now - a.updated).ps()) * 1e-12;
  return a.remaining_bytes - std::min(a.remaining_bytes, a.rate_bps / 8 * seconds);
}

double FluidNetwork::rate_bps(uint64_t id) {
  if (solve_pending_) Reschedule();
  for (const Active& a : flows_) {
    if (a.active && a.id == id) return a.rate_bps;
  }
  return 0;
}

double FluidNetwork::remaining_bytes(uint64_t id) {
  if (solve_pending_) Reschedule();
  for (const Active& a : flows_) {
    if (a.active && a.id == id) return RemainingAt(a, sim_.Now());
  }
  return 0;
}

double FluidNetwork::bytes_carried(int resource) const {
  double sum = carried_done_[static_cast<size_t>(resource)];
  for (size_t f = 0; f < flows_.size(); ++f) {
    const Active& a = flows_[f];
    if (!a.active) continue;
    const std::span<const int> rs = solver_.resources(static_cast<int>(f));
    const auto it = std::find(rs.begin(), rs.end(), resource);  // distinct, in no order
    if (it == rs.end()) continue;
    const double coefficient = solver_.coefficients(static_cast<int>(f))[static_cast<size_t>(it - rs.begin())];
    sum += coefficient * (a.bytes - RemainingAt(a, sim_.Now()));
  }
  return sum;
}

void FluidNetwork::BytesCarried(std::span<double> out) const {
  assert(out.size() <= carried_done_.size());
  std::copy(carried_done_.begin(), carried_done_.begin() + static_cast<std::ptrdiff_t>(out.size()), out.begin());
  const Time now = sim_.Now();
  for (size_t f = 0; f < flows_.size(); ++f) {
    const Active& a = flows_[f];
    if (!a.active) continue;
    const double sent = a.bytes - RemainingAt(a, now);
    if (sent <= 0) continue;
    const std::span<const int> rs = solver_.resources(static_cast<int>(f));
    const std::span<const double> cs = solver_.coefficients(static_cast<int>(f));
    for (size_t k = 0; k < rs.size(); ++k) {
      if (static_cast<size_t>(rs[k]) < out.size()) out[static_cast<size_t>(rs[k])] += cs[k] * sent;
    }
  }
}

void FluidNetwork::Reschedule() {
  solver_.Solve();
  ++solves_;
  solve_pending_ = false;
  const Time now = sim_.Now();
  for (int f : solver_.solved_flows()) {
    Active& a = flows_[static_cast<size_t>(f)];
    const double rate = solver_.rate(f);
    if (rate == a.rate_bps && a.version != 0) continue;  // its drain stands
    a.remaining_bytes = RemainingAt(a, now);
    a.updated = now;
    // Time at rate 0 (a dead link) is a stall, not transmission: kept
    // apart, so a coflow's pipeline terms do not scale it (Finish).
    if (rate <= 0 && a.stalled_since.IsInfinite()) a.stalled_since = now;
    if (rate > 0 && !a.stalled_since.IsInfinite()) {
      a.stalled += now - a.stalled_since;
      a.stalled_since = Time::Infinite();
    }
    a.rate_bps = rate;
    PredictDrain(a, f, now);
    if (rate_observer_) rate_observer_(a.id, rate, a.remaining_bytes);
  }
  // Revised flows the solve did not re-rate: the same rate, new bytes.
  for (int f : revised_) {
    Active& a = flows_[static_cast<size_t>(f)];
    if (!a.active || a.version != 0) continue;
    a.rate_bps = solver_.rate(f);
    PredictDrain(a, f, now);
    if (rate_observer_) rate_observer_(a.id, a.rate_bps, a.remaining_bytes);
  }
  revised_.clear();
  ScheduleEarliest();
}

void FluidNetwork::PredictDrain(Active& a, int flow, Time now) {
  a.version = 0;
  if (a.rate_bps <= 0) return;  // stalled: no drain until its rate changes
  a.version = next_version_++;
  const double ps = std::max(0.0, std::ceil(a.remaining_bytes * 8 / a.rate_bps * 1e12 - kRoundingSlackPs));
  drains_.push_back(Drain{(now + Time::FromPs(static_cast<int64_t>(ps))).ps(), a.seq, flow, a.version});
  std::push_heap(drains_.begin(), drains_.end(), [](const Drain& x, const Drain& y) { return Later(x, y); });
}

void FluidNetwork::ScheduleEarliest() {
  const auto later = [](const Drain& x, const Drain& y) { return Later(x, y); };
  while (!drains_.empty()) {
    const Drain& top = drains_.front();
    const Active& a = flows_[static_cast<size_t>(top.flow)];
    if (a.active && a.version == top.version) break;
    std::pop_heap(drains_.begin(), drains_.end(), later);
    drains_.pop_back();
  }
  ++generation_;
  if (!drains_.empty()) sim_.Schedule(Time::FromPs(drains_.front().at_ps), this, generation_);
}

void FluidNetwork::OnEvent(uint64_t tag) {
  if (tag == kSolveTag) {
    if (solve_pending_) Reschedule();  // else a finish at this instant solved already
    return;
  }
  if (tag != generation_) return;  // superseded by a later start or finish
  // Finish every transfer drained by now (ties together, in start order).
  const auto later = [](const Drain& x, const Drain& y) { return Later(x, y); };
  const int64_t now = sim_.Now().ps();
  std::vector<Active> done;
  while (!drains_.empty() && drains_.front().at_ps <= now) {
    const Drain top = drains_.front();
    std::pop_heap(drains_.begin(), drains_.end(), later);
    drains_.pop_back();
    Active& a = flows_[static_cast<size_t>(top.flow)];
    if (!a.active || a.version != top.version) continue;
    const std::span<const int> rs = solver_.resources(top.flow);
    const std::span<const double> cs = solver_.coefficients(top.flow);
    for (size_t k = 0; k < rs.size(); ++k) carried_done_[static_cast<size_t>(rs[k])] += cs[k] * a.bytes;
    solver_.RemoveFlow(top.flow);
    a.active = false;
    done.push_back(a);
  }
  Reschedule();
  for (const Active& a : done) Finish(a);
}

void FluidNetwork::Finish(const Active& a) {
  const CoflowTiming& t = a.timing;
  Time at = sim_.Now();
  if (t.chain > Time::Zero() || t.fill > Time::Zero() || t.depth > 0 || t.fill_depth > 0) {
    const double drain_ps = static_cast<double>((sim_.Now() - a.start - a.stalled).ps());
    const auto scaled = [&](double k) { return Time::FromPs(static_cast<int64_t>(std::llround(k * drain_ps))); };
    at = Max(a.start + a.stalled + t.chain + scaled(t.depth), sim_.Now() + scaled(t.fill_depth) + t.fill);
  }
  at += t.latency;
  if (at == sim_.Now()) {
    done_(a.id, at);
    return;
  }
  const uint64_t id = a.id;
  completions_.Schedule(id, at);
}

}  // namespace aifabric
