// RateControl is a flow's congestion control at its sender, as the RC
// sender sees it: a pacing rate, optionally a window of bytes in flight, and
// the signals that move them (bytes sent, CNPs, ACKs). DCQCN (dcqcn.h) and
// HPCC implement it; without one the sender runs at line rate.
#pragma once

#include <cstdint>

#include "core/data_rate.h"
#include "packet/packet.h"

namespace aifabric {

class RateControl {
 public:
  virtual ~RateControl() = default;
  virtual DataRate rate() const = 0;
  // Bytes allowed in flight (sent, not acknowledged); 0 means no window.
  virtual uint64_t window_bytes() const { return 0; }
  // A packet of `payload_bytes` at `offset` went out (a resend too).
  virtual void OnSent(uint64_t /*offset*/, uint32_t /*payload_bytes*/) {}
  virtual void OnCnp() {}
  virtual void OnAck(const Packet& /*ack*/) {}
  // Everything is acknowledged: stop any timers.
  virtual void OnFinished() {}
};

}  // namespace aifabric
