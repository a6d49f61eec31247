#include "transport/hpcc.h"

#include <algorithm>
#include <cassert>

namespace aifabric {
namespace {
// The HPCC simulator's additive step: 10 Mb/s per 25 Gb/s of line rate.
constexpr double kDefaultAdditiveFraction = 1.0 / 2500;
}  // namespace

Hpcc::Hpcc(const FlowContext& flow, const HpccConfig& config)
    : config_(config),
      line_rate_(flow.line_rate),
      line_bps_(static_cast<double>(flow.line_rate.bps())),
      t_seconds_(flow.base_rtt.seconds()),
      t_ps_(flow.base_rtt.ps()),
      bdp_(line_bps_ * t_seconds_ / 8),
      min_window_(std::min(bdp_, static_cast<double>(config.min_rate.bps()) * t_seconds_ / 8)),
      additive_((config.additive_increase.IsZero() ? line_bps_ * kDefaultAdditiveFraction
                                                   : static_cast<double>(config.additive_increase.bps())) *
                t_seconds_ / 8),
      window_(bdp_),
      committed_window_(bdp_) {
  assert(t_ps_ > 0);
  assert(line_bps_ > 0);
  assert(config_.eta > 0);
}

DataRate Hpcc::rate() const {
  if (window_ >= bdp_) return line_rate_;
  return DataRate::BitsPerSecond(static_cast<uint64_t>(line_bps_ * window_ / bdp_));
}

uint64_t Hpcc::window_bytes() const {
  // At least one byte: zero would mean "no window" to the sender.
  return std::max<uint64_t>(1, static_cast<uint64_t>(window_));
}

uint64_t Hpcc::NextSeq() const { return next_seq_; }

void Hpcc::OnAck(const Packet& ack) {
  if (ack.int_hops == 0 || ack.int_ == nullptr) return;
  const int n = std::min<int>(ack.int_hops, kMaxIntHops);
  if (!have_hops_) {
    // First feedback: nothing to compare with yet.
    have_hops_ = true;
    std::copy(ack.int_, ack.int_ + n, hops_.begin());
    num_hops_ = n;
    last_update_seq_ = NextSeq();
    return;
  }
  const bool commit = ack.ack_offset > last_update_seq_;

  // U = max_j u_j over the hops both this ACK and the previous one report.
  double u_max = 0;
  int64_t tau_ps = 0;
  bool measured = false;
  for (int j = 0; j < n; ++j) {
    const IntHop& hop = ack.int_[j];
    const IntHop& prev = hops_[static_cast<size_t>(j)];
    if (j < num_hops_ && hop.ts > prev.ts && hop.tx_bytes >= prev.tx_bytes && hop.rate_bps > 0) {
      const int64_t tau = (hop.ts - prev.ts).ps();
      const double b = static_cast<double>(hop.rate_bps);
      const double tx_bps = static_cast<double>(hop.tx_bytes - prev.tx_bytes) * 8e12 / static_cast<double>(tau);
      const double qlen = static_cast<double>(std::min(hop.queue_bytes, prev.queue_bytes));
      const double u = qlen * 8 / (b * t_seconds_) + tx_bps / b;
      if (!measured || u > u_max) {
        u_max = u;
        tau_ps = tau;
        measured = true;
      }
    }
    hops_[static_cast<size_t>(j)] = hop;
  }
  num_hops_ = n;

  if (measured) {
    // EWMA over the bottleneck's sampling interval: tau/T of the weight.
    const double w = static_cast<double>(std::min(tau_ps, t_ps_)) / static_cast<double>(t_ps_);
    u_est_ = (1 - w) * u_est_ + w * u_max;
    const double k = u_est_ / config_.eta;
    double window;
    int stage;
    if (k >= 1 || inc_stage_ >= config_.max_stage) {
      // Multiplicative: towards the window that makes U_est = eta (k < 1,
      // after max_stage additive steps, grows it).
      window = k > 0 ? committed_window_ / k + additive_ : bdp_;
      stage = 0;
    } else {
      window = committed_window_ + additive_;
      stage = inc_stage_ + 1;
    }
    window_ = std::clamp(window, min_window_, bdp_);
    if (commit) {
      committed_window_ = window_;
      inc_stage_ = stage;
    }
  }
  if (commit) last_update_seq_ = std::max(last_update_seq_, NextSeq());
}

}  // namespace aifabric
