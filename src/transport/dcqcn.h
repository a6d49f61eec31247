// Dcqcn is the DCQCN reaction point (Zhu et al., SIGCOMM 2015) of one
// packet-level flow: the rate rules (cut on each CNP, alpha's update and
// decay, fast recovery, additive and hyper increase from a timer T and a
// byte counter B) are DcqcnReactionPoint's (fabric/dcqcn_reaction_point.h,
// shared with the flow level); this class runs its timers in the
// Simulator and hears the sender's packets and CNPs. The notification point
// (CNP pacing) is in the receiver. Lives in one Simulator; not thread-safe.
#pragma once

#include <cstdint>

#include "core/data_rate.h"
#include "engine/simulator.h"
#include "fabric/dcqcn_reaction_point.h"
#include "transport/rate_control.h"
#include "transport/transport_config.h"

namespace aifabric {

class Dcqcn final : public RateControl, public EventHandler {
 public:
  Dcqcn(Simulator& sim, DataRate line_rate, const DcqcnConfig& config);
  Dcqcn(const Dcqcn&) = delete;
  Dcqcn& operator=(const Dcqcn&) = delete;

  DataRate rate() const override { return DataRate::BitsPerSecond(static_cast<uint64_t>(rp_.current_bps())); }
  void OnSent(uint64_t offset, uint32_t payload_bytes) override;
  void OnCnp() override;
  // Timers: tag kAlphaTimer or kIncreaseTimer.
  void OnEvent(uint64_t tag) override;

  // The flow is done: let the timers lapse.
  void OnFinished() override { stopped_ = true; }
  double alpha() const { return rp_.alpha(); }
  double target_bps() const { return rp_.target_bps(); }

 private:
  static constexpr uint64_t kAlphaTimer = 1;
  static constexpr uint64_t kIncreaseTimer = 2;
  bool Throttled() const { return !stopped_ && rp_.throttled(); }

  Simulator& sim_;
  DcqcnReactionPoint rp_;
  Time increase_due_;            // next increase-timer expiry (lazy timer)
  bool alpha_timer_pending_ = false;
  bool increase_timer_pending_ = false;
  bool stopped_ = false;
};

}  // namespace aifabric
