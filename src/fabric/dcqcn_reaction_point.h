// DcqcnReactionPoint is the rate state of one flow's DCQCN reaction point
// (Zhu et al., SIGCOMM 2015) and its rules, as functions of the signals and
// the time they come at: no timers of its own, no Simulator. The
// packet-level sender (transport/dcqcn.h) and the flow level
// (flow/flow_dcqcn.h) both drive it, each with its own clock, so the two
// models cut and recover by the same rules:
//   on a CNP, at most one cut per min_decrease_interval:
//     R_T <- R_C; R_C <- max(min_rate, R_C (1 - alpha/2)); alpha <- (1-g) alpha + g;
//   every K (alpha timer) without a CNP: alpha <- (1-g) alpha;
//   rate increase events from a timer T and a byte counter B, counted since
//   the last cut: fast recovery while both counts are at most F (R_T stays),
//   additive increase (R_T += R_AI) once one passes F, hyper increase
//   (R_T += (min(T, BC) - F) R_HAI) once both do; then R_C <- (R_T + R_C)/2,
//   both capped at the line rate.
// Rates are wire rates (the sender paces wire bytes) in bit/s, as doubles.
// Plain value; not thread-safe.
#pragma once

#include <cstdint>

#include "core/data_rate.h"
#include "core/time.h"

namespace aifabric {

// DCQCN with the paper's timer and gain parameters; rate steps scale with
// the line rate as htsim sets them (R_AI = line/20, R_HAI = line/10), since
// the paper's 40 Mb/s step was for 40G links. Filled from fabric.roce.dcqcn.
struct DcqcnConfig {
  double g = 1.0 / 256;                       // alpha gain
  Time alpha_period = Time::FromUs(55);       // K: alpha decays when no CNP came for this long
  Time increase_period = Time::FromUs(55);    // T: rate-increase timer
  uint64_t increase_bytes = 10'000'000;       // B: rate-increase byte counter
  int fast_recovery_steps = 5;                // F
  DataRate additive_increase;                 // R_AI; zero means line rate / 20
  DataRate hyper_increase;                    // R_HAI; zero means line rate / 10
  DataRate min_rate = DataRate::Mbps(100);
  Time min_decrease_interval = Time::FromUs(4);        // at most one cut per this (NIC rate_reduce_monitor_period)
  Time cnp_interval = Time::FromUs(50);       // N: at most one CNP per flow per this, at the receiver
};

class DcqcnReactionPoint {
 public:
  // Starts at the line rate with alpha 1 (the NIC's initial_alpha 1023/1024).
  DcqcnReactionPoint(DataRate line_rate, const DcqcnConfig& config);

  double current_bps() const { return current_bps_; }
  double target_bps() const { return target_bps_; }
  double line_bps() const { return line_bps_; }
  double alpha() const { return alpha_; }
  // Below the line rate: the timers run and the byte counter counts.
  bool throttled() const { return current_bps_ < line_bps_; }
  const DcqcnConfig& config() const { return config_; }

  // A CNP at `now`: returns whether it cut (none within
  // min_decrease_interval of the last cut). Either way alpha's timer hears
  // of it. After a cut the caller's increase timer restarts at now + T.
  bool OnCnp(Time now);
  // The alpha timer (every K while throttled) expired: alpha decays unless
  // a CNP came since it last did.
  void OnAlphaTimer();
  // The alpha timer starts (at a cut, if it was not running): the CNP that
  // started it already updated alpha.
  void StartAlphaTimer() { cnp_since_alpha_update_ = false; }
  // The increase timer (T after a cut, then every T while throttled) expired.
  void OnIncreaseTimer();
  // `bytes` went out: counted towards B while throttled, at most one
  // byte-counter event per call (the NIC counts packet by packet).
  void OnSent(uint64_t bytes);

 private:
  void Increase();

  // Fixed at construction.
  DcqcnConfig config_;
  double line_bps_;
  double additive_bps_;
  double hyper_bps_;

  double current_bps_;
  double target_bps_;
  double alpha_ = 1.0;
  bool cnp_since_alpha_update_ = false;
  int timer_count_ = 0;          // T events since the last cut
  int byte_count_ = 0;           // B events since the last cut
  uint64_t bytes_since_increase_ = 0;
  Time last_decrease_ = Time::FromPs(-1'000'000'000'000);
};

}  // namespace aifabric
