// RcSender is the source side of an RDMA reliable connection (one queue
// pair): it segments the message into MTU packets, paces them at its
// RateControl's rate (line rate without one), keeps at most the control's
// window in flight, and recovers losses: go-back-N (restart from the
// acknowledged offset on a NAK or a timeout), or selective repeat (resend
// only the packet a NAK names, IRN-style). Lives in one Simulator; not
// thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "engine/simulator.h"
#include "packet/packet_sender.h"
#include "packet/transport_hooks.h"
#include "transport/rate_control.h"
#include "transport/transport_config.h"

namespace aifabric {

class RcSender final : public PacketSender, public EventHandler {
 public:
  RcSender(const FlowContext& flow, TransportHost& host, const TransportConfig& config,
           std::unique_ptr<RateControl> rate_control);
  RcSender(const RcSender&) = delete;
  RcSender& operator=(const RcSender&) = delete;

  Time NextSendTime() const override;
  void FillNext(Packet& p) override;
  uint32_t NextPayloadBytes() const override;
  bool Finished() const override { return acked_ >= flow_.bytes; }
  void OnFeedback(const Packet& feedback) override;
  // The retransmission timer.
  void OnEvent(uint64_t tag) override;

  const RateControl* rate_control() const { return rate_control_.get(); }

 private:
  void ArmTimer();
  void GoBackTo(uint64_t offset);

  // Fixed at construction.
  const FlowContext flow_;
  TransportHost& host_;
  const TransportConfig& config_;
  const std::unique_ptr<RateControl> rate_control_;

  uint64_t acked_ = 0;          // cumulative: the receiver holds [0, acked_)
  uint64_t next_ = 0;           // next new or go-back-N offset to send
  uint64_t highest_sent_ = 0;   // end of the furthest byte ever sent
  std::vector<uint64_t> resend_;  // selective repeat: offsets to send again first
  Time next_send_at_;           // pacing
  Time timer_deadline_;
  bool timer_pending_ = false;
};

}  // namespace aifabric
