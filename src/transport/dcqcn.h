// Dcqcn is the DCQCN reaction point (Zhu et al., SIGCOMM 2015) of one flow:
// a current rate R_C and target rate R_T, cut on each CNP
// (R_T <- R_C; R_C <- R_C (1 - alpha/2); alpha <- (1-g) alpha + g), alpha
// decaying by (1-g) every K without a CNP, and rate increase events from a
// timer T and a byte counter B: fast recovery while both counts are at most
// F (R_C <- (R_T + R_C)/2), additive increase (R_T += R_AI) once one passes
// F, hyper increase (R_T += (min(T, BC) - F) R_HAI) once both do. The notification point
// (CNP pacing) is in the receiver. Lives in one Simulator; not thread-safe.
#pragma once

#include <cstdint>

#include "core/data_rate.h"
#include "engine/simulator.h"
#include "transport/rate_control.h"
#include "transport/transport_config.h"

namespace aifabric {

class Dcqcn final : public RateControl, public EventHandler {
 public:
  Dcqcn(Simulator& sim, DataRate line_rate, const DcqcnConfig& config);
  Dcqcn(const Dcqcn&) = delete;
  Dcqcn& operator=(const Dcqcn&) = delete;

  DataRate rate() const override { return DataRate::BitsPerSecond(static_cast<uint64_t>(current_bps_)); }
  void OnSent(uint64_t offset, uint32_t payload_bytes) override;
  void OnCnp() override;
  // Timers: tag kAlphaTimer or kIncreaseTimer.
  void OnEvent(uint64_t tag) override;

  // The flow is done: let the timers lapse.
  void OnFinished() override { stopped_ = true; }
  double alpha() const { return alpha_; }
  double target_bps() const { return target_bps_; }

 private:
  static constexpr uint64_t kAlphaTimer = 1;
  static constexpr uint64_t kIncreaseTimer = 2;
  void Increase();
  bool Throttled() const { return !stopped_ && current_bps_ < line_bps_; }

  // Fixed at construction.
  Simulator& sim_;
  const DcqcnConfig config_;
  const double line_bps_;
  const double additive_bps_;
  const double hyper_bps_;

  double current_bps_;
  double target_bps_;
  double alpha_ = 1.0;           // NIC default initial_alpha 1023/1024
  bool cnp_since_alpha_update_ = false;
  int timer_count_ = 0;          // T events since the last cut
  int byte_count_ = 0;           // B events since the last cut
  uint64_t bytes_since_increase_ = 0;
  Time last_decrease_ = Time::FromPs(-1'000'000'000'000);
  Time increase_due_;            // next increase-timer expiry (lazy timer)
  bool alpha_timer_pending_ = false;
  bool increase_timer_pending_ = false;
  bool stopped_ = false;
};

}  // namespace aifabric
