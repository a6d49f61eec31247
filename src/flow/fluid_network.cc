#include "flow/fluid_network.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace aifabric {
namespace {
// A transfer whose remainder is below this many bytes has drained (the
// rates are doubles; their rounding leaves crumbs).
constexpr double kDrainedBytes = 1e-6;
}  // namespace

FluidNetwork::FluidNetwork(Simulator& sim, DoneCallback done) : sim_(sim), done_(std::move(done)) {}

int FluidNetwork::AddResource(DataRate capacity) {
  assert(capacity.bps() > 0);
  carried_.push_back(0.0);
  return solver_.AddResource(static_cast<double>(capacity.bps()));
}

void FluidNetwork::Start(uint64_t id, uint64_t bytes, std::span<const int> resources, Time latency, double weight) {
  if (bytes == 0) {
    const Time at = sim_.Now() + latency;
    sim_.ScheduleCallback(at, [this, id, at] { done_(id, at); });
    return;
  }
  Advance();
  const int flow = solver_.AddFlow(resources, weight);
  active_.push_back(Active{id, flow, static_cast<double>(bytes), latency});
  Reschedule();
}

double FluidNetwork::rate_bps(uint64_t id) const {
  for (const Active& a : active_) {
    if (a.id == id) return solver_.rate(a.flow);
  }
  return 0;
}

void FluidNetwork::Advance() {
  const Time now = sim_.Now();
  const double seconds = static_cast<double>((now - last_update_).ps()) * 1e-12;
  last_update_ = now;
  if (seconds <= 0) return;
  for (Active& a : active_) {
    const double moved = std::min(a.remaining_bytes, solver_.rate(a.flow) / 8 * seconds);
    a.remaining_bytes -= moved;
    for (int r : solver_.resources(a.flow)) carried_[static_cast<size_t>(r)] += moved;
  }
}

void FluidNetwork::Reschedule() {
  solver_.Solve();
  ++generation_;
  double earliest_s = std::numeric_limits<double>::infinity();
  for (const Active& a : active_) {
    const double r = solver_.rate(a.flow);
    if (r > 0) earliest_s = std::min(earliest_s, a.remaining_bytes * 8 / r);
  }
  if (!std::isfinite(earliest_s)) return;
  // Round up to the next picosecond so the transfer has drained when the
  // event fires.
  const Time at = sim_.Now() + Time::FromPs(static_cast<int64_t>(std::ceil(earliest_s * 1e12)));
  sim_.Schedule(at, this, generation_);
}

void FluidNetwork::OnEvent(uint64_t tag) {
  if (tag != generation_) return;  // superseded by a later start or finish
  Advance();
  // Finish every drained transfer (ties finish together, in start order).
  std::vector<Active> done;
  for (size_t i = 0; i < active_.size();) {
    const double r = solver_.rate(active_[i].flow);
    if (active_[i].remaining_bytes <= kDrainedBytes || active_[i].remaining_bytes * 8 / r < 0.5e-12) {
      done.push_back(active_[i]);
      active_.erase(active_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  for (const Active& a : done) solver_.RemoveFlow(a.flow);
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
