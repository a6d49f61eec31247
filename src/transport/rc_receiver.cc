#include "transport/rc_receiver.h"

namespace aifabric {

RcReceiver::RcReceiver(const FlowContext& flow, TransportHost& host, const TransportConfig& config)
    : flow_(flow), host_(host), config_(config) {
  if (config_.recovery == LossRecovery::kSelectiveRepeat) {
    held_.assign((flow_.bytes + flow_.mtu_bytes - 1) / flow_.mtu_bytes, false);
  }
}

namespace {
// HPCC's sender reads the telemetry (INT) of the data packet behind each
// ACK, so with HPCC an ACK echoes the packet that triggered it.
const Packet* EchoFor(const TransportConfig& config, const Packet& trigger) {
  return config.cc == CongestionControl::kHpcc ? &trigger : nullptr;
}
}  // namespace

void RcReceiver::Feedback(PacketKind kind, const Packet* trigger) {
  host_.counters(flow_.flow_index).acks++;
  host_.SendFeedback(flow_.flow_index, kind, expected_, trigger ? EchoFor(config_, *trigger) : nullptr);
}

void RcReceiver::NotifyCongestion() {
  TransportCounters& c = host_.counters(flow_.flow_index);
  c.ecn_marked_packets++;
  if (config_.cc == CongestionControl::kIb) {
    // InfiniBand: every FECN is answered with a BECN (the switches already
    // thin the marks by their Marking_Rate).
    c.cnps++;
    host_.SendFeedback(flow_.flow_index, PacketKind::kCnp, expected_);
    return;
  }
  if (config_.cc != CongestionControl::kDcqcn) return;
  const Time now = host_.sim().Now();
  if (sent_cnp_ && now - last_cnp_ < config_.dcqcn.cnp_interval) return;
  sent_cnp_ = true;
  last_cnp_ = now;
  c.cnps++;
  host_.SendFeedback(flow_.flow_index, PacketKind::kCnp, expected_);
}

uint64_t RcReceiver::OnData(const Packet& p) {
  if (p.ecn_ce) NotifyCongestion();
  TransportCounters& c = host_.counters(flow_.flow_index);
  if (p.offset == expected_) {
    const uint64_t before = expected_;
    expected_ += p.payload_bytes;
    if (!held_.empty()) {
      // Packets held past the gap now join the prefix.
      size_t i = expected_ / flow_.mtu_bytes;
      while (i < held_.size() && held_[i] && expected_ < flow_.bytes) {
        expected_ = std::min<uint64_t>(flow_.bytes, (i + 1) * static_cast<uint64_t>(flow_.mtu_bytes));
        ++i;
        --held_past_gap_;
      }
    }
    if (++unacked_packets_ >= config_.ack_interval || expected_ == flow_.bytes) {
      unacked_packets_ = 0;
      Feedback(PacketKind::kAck, &p);
    }
    return expected_ - before;
  }
  if (p.offset > expected_) {
    c.out_of_order_packets++;
    if (!held_.empty()) return AcceptOutOfOrder(p);
    c.discarded_bytes += p.payload_bytes;
    if (nak_for_ != expected_) {
      nak_for_ = expected_;
      Feedback(PacketKind::kNak);
    }
    return 0;
  }
  // A duplicate of data already held: tell the sender where we are.
  c.discarded_bytes += p.payload_bytes;
  Feedback(PacketKind::kAck, &p);
  return 0;
}

uint64_t RcReceiver::AcceptOutOfOrder(const Packet& p) {
  const size_t i = p.offset / flow_.mtu_bytes;
  if (held_[i]) {
    host_.counters(flow_.flow_index).discarded_bytes += p.payload_bytes;
  } else {
    held_[i] = true;
    ++held_past_gap_;
  }
  // Reordering is expected with per-packet load balancing: only a gap that
  // many packets have overtaken is taken for a loss.
  if (held_past_gap_ >= config_.reorder_threshold && nak_for_ != expected_) {
    nak_for_ = expected_;
    Feedback(PacketKind::kNak);
  }
  return 0;
}

}  // namespace aifabric
