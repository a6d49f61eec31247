// PacketSender is the seam between a host NIC and the transport that decides
// what a flow sends and when: one per flow, at its source host. The NIC asks
// it for the next packet whenever the wire is free and hands it the feedback
// packets (ACK, NAK, CNP) that come back for its flow. The RDMA transports
// and congestion control (DCQCN, HPCC, IB credits) implement it; this file
// also holds LineRateSender, the baseline with no transport: the message
// goes out as MTU-sized packets back to back, nothing comes back.
#pragma once

#include <cstdint>

#include "core/time.h"
#include "packet/packet.h"

namespace aifabric {

class PacketSender {
 public:
  virtual ~PacketSender() = default;
  // Earliest time the next packet may leave; Time::Infinite() when there is
  // nothing to send now (waiting for feedback, or everything is out).
  virtual Time NextSendTime() const = 0;
  // Fills payload_bytes and offset of the next packet.
  // REQUIRES: NextSendTime() <= now.
  virtual void FillNext(Packet& p) = 0;
  // The payload_bytes FillNext would fill now (a NIC's class scheduler
  // weighs the next packet before it is made).
  // REQUIRES: NextSendTime() <= now.
  virtual uint32_t NextPayloadBytes() const = 0;
  // True once the sender will never send again (all bytes acknowledged or,
  // without a transport, all bytes sent).
  virtual bool Finished() const = 0;
  // A feedback packet for this flow arrived at the source host.
  virtual void OnFeedback(const Packet& /*feedback*/) {}
};

class LineRateSender final : public PacketSender {
 public:
  LineRateSender(uint64_t message_bytes, uint32_t mtu_bytes)
      : remaining_(message_bytes), mtu_(mtu_bytes) {}

  Time NextSendTime() const override { return remaining_ > 0 ? Time::Zero() : Time::Infinite(); }
  uint32_t NextPayloadBytes() const override { return remaining_ < mtu_ ? static_cast<uint32_t>(remaining_) : mtu_; }
  void FillNext(Packet& p) override {
    const uint32_t n = NextPayloadBytes();
    p.payload_bytes = n;
    p.offset = offset_;
    offset_ += n;
    remaining_ -= n;
  }
  bool Finished() const override { return remaining_ == 0; }

 private:
  uint64_t remaining_;
  uint64_t offset_ = 0;
  const uint32_t mtu_;
};

}  // namespace aifabric
