// RcTransport makes the RDMA reliable-connection endpoints of every flow
// (RcSender at the source, RcReceiver at the destination) with the
// congestion control the config names. It is the Transport the run layer wires
// into the packet model. Not thread-safe.
#pragma once

#include <memory>

#include "packet/transport_hooks.h"
#include "transport/transport_config.h"

namespace aifabric {

// Feedback packets on the wire. RoCEv2 ACK/NAK: Ethernet 14 + IPv4 20 +
// UDP 8 + BTH 12 + AETH 4 + ICRC 4 + FCS 4 = 66, plus preamble and
// inter-frame gap 20 = 86. RoCEv2 CNP: BTH + 16 reserved bytes instead of
// AETH = 78 + 20 = 98. InfiniBand ACK: LRH 8 + BTH 12 + AETH 4 + ICRC 4 +
// VCRC 2 = 30.
constexpr uint32_t kRoceAckWireBytes = 86;
constexpr uint32_t kRoceCnpWireBytes = 98;
constexpr uint32_t kIbAckWireBytes = 30;

class RcTransport final : public Transport {
 public:
  explicit RcTransport(const TransportConfig& config) : config_(config) {}

  std::unique_ptr<PacketSender> MakeSender(const FlowContext& flow, TransportHost& host) override;
  std::unique_ptr<FlowReceiver> MakeReceiver(const FlowContext& flow, TransportHost& host) override;
  uint32_t FeedbackWireBytes(PacketKind kind) const override;
  uint8_t FeedbackPriority(PacketKind kind, uint8_t flow_priority) const override;

 private:
  const TransportConfig config_;
};

}  // namespace aifabric
