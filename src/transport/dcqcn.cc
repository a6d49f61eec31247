#include "transport/dcqcn.h"

namespace aifabric {

Dcqcn::Dcqcn(Simulator& sim, DataRate line_rate, const DcqcnConfig& config) : sim_(sim), rp_(line_rate, config) {}

void Dcqcn::OnCnp() {
  if (stopped_) return;
  const Time now = sim_.Now();
  if (!rp_.OnCnp(now)) return;
  increase_due_ = now + rp_.config().increase_period;
  if (!increase_timer_pending_) {
    increase_timer_pending_ = true;
    sim_.Schedule(increase_due_, this, kIncreaseTimer);
  }
  if (!alpha_timer_pending_) {
    alpha_timer_pending_ = true;
    rp_.StartAlphaTimer();
    sim_.ScheduleIn(rp_.config().alpha_period, this, kAlphaTimer);
  }
}

void Dcqcn::OnSent(uint64_t /*offset*/, uint32_t payload_bytes) {
  if (stopped_) return;
  rp_.OnSent(payload_bytes);
}

void Dcqcn::OnEvent(uint64_t tag) {
  const Time now = sim_.Now();
  if (tag == kAlphaTimer) {
    rp_.OnAlphaTimer();
    // Keep decaying while throttled; at line rate alpha no longer matters
    // until the next CNP, which restarts the timer.
    alpha_timer_pending_ = Throttled();
    if (alpha_timer_pending_) sim_.ScheduleIn(rp_.config().alpha_period, this, kAlphaTimer);
    return;
  }
  // Increase timer; a CNP since it was set pushed its expiry back.
  if (now < increase_due_) {
    sim_.Schedule(increase_due_, this, kIncreaseTimer);
    return;
  }
  rp_.OnIncreaseTimer();
  increase_timer_pending_ = Throttled();
  if (increase_timer_pending_) {
    increase_due_ = now + rp_.config().increase_period;
    sim_.Schedule(increase_due_, this, kIncreaseTimer);
  }
}

}  // namespace aifabric
