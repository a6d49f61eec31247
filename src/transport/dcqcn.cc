#include "transport/dcqcn.h"

#include <algorithm>

namespace aifabric {

Dcqcn::Dcqcn(Simulator& sim, DataRate line_rate, const DcqcnConfig& config)
    : sim_(sim),
      config_(config),
      line_bps_(static_cast<double>(line_rate.bps())),
      additive_bps_(config.additive_increase.IsZero() ? line_bps_ / 20
                                                       : static_cast<double>(config.additive_increase.bps())),
      hyper_bps_(config.hyper_increase.IsZero() ? line_bps_ / 10 : static_cast<double>(config.hyper_increase.bps())),
      current_bps_(line_bps_),
      target_bps_(line_bps_) {}

void Dcqcn::OnCnp() {
  if (stopped_) return;
  const Time now = sim_.Now();
  cnp_since_alpha_update_ = true;
  if (now - last_decrease_ < config_.min_decrease_interval) return;
  last_decrease_ = now;
  target_bps_ = current_bps_;
  current_bps_ = std::max(static_cast<double>(config_.min_rate.bps()), current_bps_ * (1 - alpha_ / 2));
  alpha_ = (1 - config_.g) * alpha_ + config_.g;
  timer_count_ = 0;
  byte_count_ = 0;
  bytes_since_increase_ = 0;
  increase_due_ = now + config_.increase_period;
  if (!increase_timer_pending_) {
    increase_timer_pending_ = true;
    sim_.Schedule(increase_due_, this, kIncreaseTimer);
  }
  if (!alpha_timer_pending_) {
    alpha_timer_pending_ = true;
    cnp_since_alpha_update_ = false;  // this CNP already updated alpha
    sim_.ScheduleIn(config_.alpha_period, this, kAlphaTimer);
  }
}

void Dcqcn::OnSent(uint64_t /*offset*/, uint32_t payload_bytes) {
  if (!Throttled()) return;
  bytes_since_increase_ += payload_bytes;
  if (bytes_since_increase_ >= config_.increase_bytes) {
    bytes_since_increase_ -= config_.increase_bytes;
    ++byte_count_;
    Increase();
  }
}

void Dcqcn::OnEvent(uint64_t tag) {
  const Time now = sim_.Now();
  if (tag == kAlphaTimer) {
    if (!cnp_since_alpha_update_) alpha_ *= 1 - config_.g;
    cnp_since_alpha_update_ = false;
    // Keep decaying while throttled; at line rate alpha no longer matters
    // until the next CNP, which restarts the timer.
    alpha_timer_pending_ = Throttled();
    if (alpha_timer_pending_) sim_.ScheduleIn(config_.alpha_period, this, kAlphaTimer);
    return;
  }
  // Increase timer; a CNP since it was set pushed its expiry back.
  if (now < increase_due_) {
    sim_.Schedule(increase_due_, this, kIncreaseTimer);
    return;
  }
  ++timer_count_;
  Increase();
  increase_timer_pending_ = Throttled();
  if (increase_timer_pending_) {
    increase_due_ = now + config_.increase_period;
    sim_.Schedule(increase_due_, this, kIncreaseTimer);
  }
}

void Dcqcn::Increase() {
  const int f = config_.fast_recovery_steps;
  if (std::max(timer_count_, byte_count_) <= f) {
    // Fast recovery (the first F events after a cut): R_T stays.
  } else if (std::min(timer_count_, byte_count_) > f) {
    // Hyper increase, i = min(T, BC) - F steps of R_HAI (as htsim does).
    target_bps_ += hyper_bps_ * (std::min(timer_count_, byte_count_) - f);
  } else {
    target_bps_ += additive_bps_;
  }
  target_bps_ = std::min(target_bps_, line_bps_);
  current_bps_ = std::min(line_bps_, (target_bps_ + current_bps_) / 2);
  // Within a millionth of line rate is line rate: the halving steps would
  // otherwise approach it forever.
  if (current_bps_ > line_bps_ * (1 - 1e-6)) current_bps_ = line_bps_;
}

}  // namespace aifabric
