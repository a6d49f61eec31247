#include "transport/rc_sender.h"

#include <algorithm>

namespace aifabric {

RcSender::RcSender(const FlowContext& flow, TransportHost& host, const TransportConfig& config,
                   std::unique_ptr<RateControl> rate_control)
    : flow_(flow), host_(host), config_(config), rate_control_(std::move(rate_control)) {}

Time RcSender::NextSendTime() const {
  if (resend_.empty()) {
    if (next_ >= flow_.bytes) return Time::Infinite();
    const uint64_t window = rate_control_ ? rate_control_->window_bytes() : 0;
    if (window != 0 && next_ - acked_ >= window) return Time::Infinite();
  }
  return next_send_at_;
}

uint32_t RcSender::NextPayloadBytes() const {
  // FillNext's choice: a packet to send again first, else the next new one.
  const uint64_t offset = resend_.empty() ? next_ : resend_.back();
  return static_cast<uint32_t>(std::min<uint64_t>(flow_.mtu_bytes, flow_.bytes - offset));
}

void RcSender::FillNext(Packet& p) {
  uint64_t offset;
  if (!resend_.empty()) {
    offset = resend_.back();
    resend_.pop_back();
  } else {
    offset = next_;
  }
  const uint32_t n = static_cast<uint32_t>(std::min<uint64_t>(flow_.mtu_bytes, flow_.bytes - offset));
  p.offset = offset;
  p.payload_bytes = n;
  if (offset < highest_sent_) host_.counters(flow_.flow_index).retransmitted_bytes += n;
  if (offset == next_) next_ += n;
  highest_sent_ = std::max(highest_sent_, offset + n);
  if (rate_control_) {
    rate_control_->OnSent(offset, n);
    const DataRate rate = rate_control_->rate();
    if (rate < flow_.line_rate) next_send_at_ = host_.sim().Now() + rate.TransmitTime(n + flow_.wire_overhead_bytes);
  }
  ArmTimer();
}

void RcSender::ArmTimer() {
  if (timer_pending_) return;
  timer_pending_ = true;
  timer_deadline_ = host_.sim().Now() + config_.rto;
  host_.sim().Schedule(timer_deadline_, this, 0);
}

void RcSender::GoBackTo(uint64_t offset) {
  next_ = std::max(offset, acked_);
  resend_.clear();
}

void RcSender::OnFeedback(const Packet& feedback) {
  const Time now = host_.sim().Now();
  switch (feedback.kind) {
    case PacketKind::kAck:
      if (feedback.ack_offset > acked_) {
        acked_ = feedback.ack_offset;
        timer_deadline_ = now + config_.rto;  // progress: restart the clock
        if (next_ < acked_) next_ = acked_;
      }
      if (rate_control_) rate_control_->OnAck(feedback);
      break;
    case PacketKind::kNak:
      if (feedback.ack_offset > acked_) acked_ = feedback.ack_offset;
      timer_deadline_ = now + config_.rto;
      if (config_.recovery == LossRecovery::kGoBackN) {
        GoBackTo(feedback.ack_offset);
      } else if (feedback.ack_offset < highest_sent_ &&
                 std::find(resend_.begin(), resend_.end(), feedback.ack_offset) == resend_.end()) {
        resend_.push_back(feedback.ack_offset);
      }
      break;
    case PacketKind::kCnp:
      if (rate_control_) rate_control_->OnCnp();
      break;
    case PacketKind::kData:
      break;
  }
  if (Finished()) {
    if (rate_control_) rate_control_->OnFinished();
    return;
  }
  host_.WakeSender(flow_.flow_index);
}

void RcSender::OnEvent(uint64_t) {
  if (Finished()) {
    timer_pending_ = false;
    return;
  }
  const Time now = host_.sim().Now();
  if (now < timer_deadline_) {
    host_.sim().Schedule(timer_deadline_, this, 0);
    return;
  }
  // No progress for a whole timeout: resend everything not acknowledged.
  host_.counters(flow_.flow_index).timeouts++;
  GoBackTo(acked_);
  timer_deadline_ = now + config_.rto;
  host_.sim().Schedule(timer_deadline_, this, 0);
  host_.WakeSender(flow_.flow_index);
}

}  // namespace aifabric
