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
  Add(solver_.AddFlow(resources, weight, traffic_class), id, bytes, timing);
}

void FluidNetwork::Start(uint64_t id, uint64_t bytes, std::span<const int> resources,
                         std::span<const double> coefficients, Time latency, double weight, int traffic_class) {
  if (bytes == 0) {
    completions_.Schedule(id, sim_.Now() + latency);
    return;
  }
  CoflowTiming timing;
  timing.latency = latency;
  Add(solver_.AddFlow(resources, coefficients, weight, traffic_class), id, bytes, timing);
}

void FluidNetwork::StartCoflow(uint64_t id, uint64_t bytes, std::span<const int> resources,
                               std::span<const double> coefficients, const CoflowTiming& timing, double weight,
                               int traffic_class) {
  if (bytes == 0) {
    const Time at = sim_.Now() + Max(timing.chain, timing.fill) + timing.latency;
    completions_.Schedule(id, at);
    return;
  }
  Add(solver_.AddFlow(resources, coefficients, weight, traffic_class), id, bytes, timing);
}

void FluidNetwork::Add(int flow, uint64_t id, uint64_t bytes, const CoflowTiming& timing) {
  if (flows_.size() <= static_cast<size_t>(flow)) flows_.resize(static_cast<size_t>(flow) + 1);
  Active& a = flows_[static_cast<size_t>(flow)];
  a = Active{};
  a.id = id;
  a.seq = next_seq_++;
  a.bytes = a.remaining_bytes = static_cast<double>(bytes);
  a.updated = sim_.Now();
  a.start = sim_.Now();
  a.timing = timing;
  a.active = true;
  if (!solve_pending_) {
    solve_pending_ = true;
    sim_.Schedule(sim_.Now(), this, kSolveTag);
  }
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
  assert(out.size() == carried_done_.size());
  std::copy(carried_done_.begin(), carried_done_.end(), out.begin());
  const Time now = sim_.Now();
  for (size_t f = 0; f < flows_.size(); ++f) {
    const Active& a = flows_[f];
    if (!a.active) continue;
    const double sent = a.bytes - RemainingAt(a, now);
    if (sent <= 0) continue;
    const std::span<const int> rs = solver_.resources(static_cast<int>(f));
    const std::span<const double> cs = solver_.coefficients(static_cast<int>(f));
    for (size_t k = 0; k < rs.size(); ++k) out[static_cast<size_t>(rs[k])] += cs[k] * sent;
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
    a.rate_bps = rate;
    a.version = 0;
    if (rate <= 0) continue;
    a.version = next_version_++;
    const double ps = std::max(0.0, std::ceil(a.remaining_bytes * 8 / rate * 1e12 - kRoundingSlackPs));
    drains_.push_back(Drain{(now + Time::FromPs(static_cast<int64_t>(ps))).ps(), a.seq, f, a.version});
    std::push_heap(drains_.begin(), drains_.end(), [](const Drain& x, const Drain& y) { return Later(x, y); });
  }
  ScheduleEarliest();
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
    const double drain_ps = static_cast<double>((sim_.Now() - a.start).ps());
    const auto scaled = [&](double k) { return Time::FromPs(static_cast<int64_t>(std::llround(k * drain_ps))); };
    at = Max(a.start + t.chain + scaled(t.depth), sim_.Now() + scaled(t.fill_depth) + t.fill);
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
