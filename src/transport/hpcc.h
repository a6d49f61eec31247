// Hpcc is the HPCC sender (Li et al., "HPCC: High Precision Congestion
// Control", SIGCOMM 2019) of one flow: a window of bytes in flight W, paced
// at R = W / T, set from the in-band telemetry (INT) each switch egress
// stamps on the flow's data and the receiver echoes in every ACK. It reacts
// on every ACK (the HPCC simulator's FAST_REACT) but commits the reference
// window W_c only once per RTT. Lives in one Simulator; not thread-safe.
//
// Per ACK carrying n hop records {qlen, tx_bytes, ts, B}, each hop j is
// compared with the record of the same hop the previous ACK carried:
//   tau_j    = ts_j - ts'_j
//   txRate_j = (tx_bytes_j - tx_bytes'_j) * 8 / tau_j
//   u_j      = 8 min(qlen_j, qlen'_j) / (B_j * T) + txRate_j / B_j
// with qlen and tx_bytes in wire bytes, B_j and txRate_j in bits per
// second. The queue term is the queue's drain time in RTTs; the smaller of
// the two queues filters a one-packet spike, as the paper and simulator do.
// The bottleneck is the hop with the largest u_j:
//   U   = max_j u_j,  tau = its tau_j, capped at T
//   U_est <- (1 - tau/T) U_est + (tau/T) U            (U_est starts at 1)
// then, with k = U_est / eta:
//   k >= 1 or inc_stage >= max_stage:  W = W_c / k + W_AI,  stage' = 0
//   otherwise:                         W = W_c + W_AI,      stage' = stage + 1
// clamped to [min_rate * T, BDP] with BDP = line_rate * T, the initial W
// and W_c. W_AI = R_AI * T. An ACK that acknowledges data sent after the
// last commit (ack_offset > lastUpdateSeq) commits: W_c <- W,
// inc_stage <- stage', lastUpdateSeq <- the next byte to send. Other ACKs
// only set W from the uncommitted W_c, so within an RTT the window follows
// the latest telemetry without compounding. The first ACK with telemetry
// only records it. ACKs without telemetry change nothing.
//
// T is the flow's idle round trip (FlowContext::base_rtt); the simulator's
// GLOBAL_T uses the largest one in the fabric instead.
#pragma once

#include <array>
#include <cstdint>

#include "core/data_rate.h"
#include "packet/packet.h"
#include "packet/transport_hooks.h"
#include "transport/rate_control.h"
#include "transport/transport_config.h"

namespace aifabric {

class Hpcc final : public RateControl {
 public:
  // REQUIRES: flow.base_rtt > 0, flow.line_rate > 0, 0 < config.eta
  Hpcc(const FlowContext& flow, const HpccConfig& config);
  Hpcc(const Hpcc&) = delete;
  Hpcc& operator=(const Hpcc&) = delete;

  // R = W / T; exactly the line rate at W = BDP, so the sender does not pace.
  DataRate rate() const override;
  uint64_t window_bytes() const override;
  void OnSent(uint64_t offset, uint32_t payload_bytes) override {
    next_seq_ = std::max(next_seq_, offset + payload_bytes);
  }
  void OnAck(const Packet& ack) override;

  double window() const { return window_; }                      // W, bytes
  double committed_window() const { return committed_window_; }  // W_c, bytes
  double utilization() const { return u_est_; }                  // U_est
  int inc_stage() const { return inc_stage_; }
  double bdp_bytes() const { return bdp_; }
  double additive_bytes() const { return additive_; }            // W_AI

 private:
  // The paper's "next sequence to send": the end of the furthest byte sent
  // (resends do not move it back).
  uint64_t NextSeq() const;

  // Fixed at construction.
  const HpccConfig config_;
  const DataRate line_rate_;
  const double line_bps_;
  const double t_seconds_;    // T
  const int64_t t_ps_;
  const double bdp_;          // line_rate * T, bytes
  const double min_window_;   // min_rate * T, bytes
  const double additive_;     // W_AI = R_AI * T, bytes

  double window_;             // W
  double committed_window_;   // W_c
  double u_est_ = 1.0;        // U_est (the simulator starts it at 1)
  int inc_stage_ = 0;
  uint64_t next_seq_ = 0;     // end of the furthest byte sent
  uint64_t last_update_seq_ = 0;
  bool have_hops_ = false;    // the first ACK with telemetry came
  std::array<IntHop, kMaxIntHops> hops_{};  // the previous ACK's records
  int num_hops_ = 0;
};

}  // namespace aifabric
