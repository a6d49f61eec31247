#include "flow/fluid_network.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace aifabric {
namespace {
// A transfer whose remainder is below this many bytes has drained (the
// rates are doubles; their rounding leaves crumbs).
constexpr double kDrainedBytes = 1e-6;
// Finish times are rounded up to the next picosecond, less this much of a
// picosecond, so that a figure a few ulps above a whole picosecond (double
// rounding of an exact quotient) is not pushed to the next one. OnEvent
// accepts a transfer up to half a picosecond short of drained.
constexpr double kRoundingSlackPs = 1e-3;
}  // namespace

FluidNetwork::FluidNetwork(Simulator& sim, DoneCallback done) : sim_(sim), done_(std::move(done)) {}

int FluidNetwork::AddResource(DataRate capacity) {
  assert(capacity.bps() > 0);
  return AddResource(static_cast<double>(capacity.bps()));
}

int FluidNetwork::AddResource(double capacity_bps) {
  assert(capacity_bps > 0);
  carried_done_.push_back(0.0);
  return solver_.AddResource(capacity_bps);
}

void FluidNetwork::Start(uint64_t id, uint64_t bytes, std::span<const int> resources, Time latency, double weight) {
  if (bytes == 0) {
    const Time at = sim_.Now() + latency;
    sim_.ScheduleCallback(at, [this, id, at] { done_(id, at); });
    return;
  }
  Advance();
  const int flow = solver_.AddFlow(resources, weight);
  const double b = static_cast<double>(bytes);
  active_.push_back(Active{id, flow, b, b, latency});
  if (!solve_pending_) {
    solve_pending_ = true;
    sim_.Schedule(sim_.Now(), this, kSolveTag);
  }
}

double FluidNetwork::rate_bps(uint64_t id) {
  if (solve_pending_) Reschedule();
  for (const Active& a : active_) {
    if (a.id == id) return solver_.rate(a.flow);
  }
  return 0;
}

double FluidNetwork::bytes_carried(int resource) const {
  // Active transfers: what they had moved at the last update, plus their
  // current rate since then.
  const double seconds = static_cast<double>((sim_.Now() - last_update_).ps()) * 1e-12;
  double sum = carried_done_[static_cast<size_t>(resource)];
  for (const Active& a : active_) {
    const std::span<const int> rs = solver_.resources(a.flow);
    if (std::find(rs.begin(), rs.end(), resource) == rs.end()) continue;
    const double since = solve_pending_ ? 0 : std::min(a.remaining_bytes, solver_.rate(a.flow) / 8 * seconds);
    sum += a.bytes - a.remaining_bytes + since;
  }
  return sum;
}

void FluidNetwork::Advance() {
  const Time now = sim_.Now();
  const double seconds = static_cast<double>((now - last_update_).ps()) * 1e-12;
  last_update_ = now;
  if (seconds <= 0) return;
  for (Active& a : active_) {
    a.remaining_bytes -= std::min(a.remaining_bytes, solver_.rate(a.flow) / 8 * seconds);
  }
}

void FluidNetwork::Reschedule() {
  solver_.Solve();
  ++solves_;
  solve_pending_ = false;
  ++generation_;
  double earliest_s = std::numeric_limits<double>::infinity();
  for (const Active& a : active_) {
    const double r = solver_.rate(a.flow);
    if (r > 0) earliest_s = std::min(earliest_s, a.remaining_bytes * 8 / r);
  }
  if (!std::isfinite(earliest_s)) return;
  // Round up to the next picosecond so the transfer has drained when the
  // event fires.
  const double ps = std::max(0.0, std::ceil(earliest_s * 1e12 - kRoundingSlackPs));
  sim_.Schedule(sim_.Now() + Time::FromPs(static_cast<int64_t>(ps)), this, generation_);
}

void FluidNetwork::OnEvent(uint64_t tag) {
  if (tag == kSolveTag) {
    if (solve_pending_) Reschedule();  // else a finish at this instant solved already
    return;
  }
  if (tag != generation_) return;  // superseded by a later start or finish
  Advance();
  // Finish every drained transfer (ties finish together, in start order).
  std::vector<Active> done;
  size_t kept = 0;
  for (size_t i = 0; i < active_.size(); ++i) {
    const Active& a = active_[i];
    const double r = solver_.rate(a.flow);
    if (a.remaining_bytes <= kDrainedBytes || (r > 0 && a.remaining_bytes * 8 / r < 0.5e-12)) {
      done.push_back(a);
    } else {
      active_[kept++] = a;
    }
  }
  active_.resize(kept);
  for (const Active& a : done) {
    for (int r : solver_.resources(a.flow)) carried_done_[static_cast<size_t>(r)] += a.bytes;
    solver_.RemoveFlow(a.flow);
  }
  Reschedule();
  for (const Active& a : done) Finish(a);
}

void FluidNetwork::Finish(const Active& a) {
  const Time at = sim_.Now() + a.latency;
  if (a.latency == Time::Zero()) {
    done_(a.id, at);
    return;
  }
  const uint64_t id = a.id;
  sim_.ScheduleCallback(at, [this, id, at] { done_(id, at); });
}

}  // namespace aifabric
