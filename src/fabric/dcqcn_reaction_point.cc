#include "fabric/dcqcn_reaction_point.h"

#include <algorithm>

namespace aifabric {

DcqcnReactionPoint::DcqcnReactionPoint(DataRate line_rate, const DcqcnConfig& config)
    : config_(config),
      line_bps_(static_cast<double>(line_rate.bps())),
      additive_bps_(config.additive_increase.IsZero() ? line_bps_ / 20
                                                       : static_cast<double>(config.additive_increase.bps())),
      hyper_bps_(config.hyper_increase.IsZero() ? line_bps_ / 10 : static_cast<double>(config.hyper_increase.bps())),
      current_bps_(line_bps_),
      target_bps_(line_bps_) {}

bool DcqcnReactionPoint::OnCnp(Time now) {
  cnp_since_alpha_update_ = true;
  if (now - last_decrease_ < config_.min_decrease_interval) return false;
  last_decrease_ = now;
  target_bps_ = current_bps_;
  current_bps_ = std::max(static_cast<double>(config_.min_rate.bps()), current_bps_ * (1 - alpha_ / 2));
  alpha_ = (1 - config_.g) * alpha_ + config_.g;
  timer_count_ = 0;
  byte_count_ = 0;
  bytes_since_increase_ = 0;
  return true;
}

void DcqcnReactionPoint::OnAlphaTimer() {
  if (!cnp_since_alpha_update_) alpha_ *= 1 - config_.g;
  cnp_since_alpha_update_ = false;
}

void DcqcnReactionPoint::OnIncreaseTimer() {
  ++timer_count_;
  Increase();
}

void DcqcnReactionPoint::OnSent(uint64_t bytes) {
  if (!throttled()) return;
  bytes_since_increase_ += bytes;
  if (bytes_since_increase_ >= config_.increase_bytes) {
    bytes_since_increase_ -= config_.increase_bytes;
    ++byte_count_;
    Increase();
  }
}

void DcqcnReactionPoint::Increase() {
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
