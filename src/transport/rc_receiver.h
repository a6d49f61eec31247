// RcReceiver is the destination side of an RDMA reliable connection. It
// acknowledges the in-order prefix it holds (one ACK per `ack_interval`
// packets, and at the end of the message), answers a gap with one NAK
// naming the offset it expects, and acts as DCQCN's notification point: for
// data marked ECN-CE it sends a CNP, at most one per `cnp_interval`.
// Go-back-N discards data that arrives ahead of a gap (as RoCE NICs without
// out-of-order placement do); selective repeat keeps it and NAKs each new
// gap once (IRN). Out-of-order arrivals are counted either way.
// Lives in one Simulator; not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "packet/transport_hooks.h"
#include "transport/transport_config.h"

namespace aifabric {

class RcReceiver final : public FlowReceiver {
 public:
  RcReceiver(const FlowContext& flow, TransportHost& host, const TransportConfig& config);

  uint64_t OnData(const Packet& p) override;

 private:
  // ACK or NAK with the in-order offset; an ACK triggered by a data packet
  // echoes its telemetry when HPCC needs it.
  void Feedback(PacketKind kind, const Packet* trigger = nullptr);
  void NotifyCongestion();
  uint64_t AcceptOutOfOrder(const Packet& p);

  // Fixed at construction.
  const FlowContext flow_;
  TransportHost& host_;
  const TransportConfig& config_;

  uint64_t expected_ = 0;          // the in-order prefix [0, expected_) is held
  uint32_t unacked_packets_ = 0;   // in-order packets since the last ACK
  uint64_t nak_for_ = UINT64_MAX;  // the gap last NAKed (one NAK per gap)
  Time last_cnp_;
  bool sent_cnp_ = false;
  std::vector<bool> held_;         // selective repeat: packets held past the prefix
  uint32_t held_past_gap_ = 0;     // how many of them
};

}  // namespace aifabric
