#include "transport/rc_transport.h"

#include "transport/dcqcn.h"
#include "transport/hpcc.h"
#include "transport/ib_cc.h"
#include "transport/rc_receiver.h"
#include "transport/rc_sender.h"

namespace aifabric {

std::unique_ptr<PacketSender> RcTransport::MakeSender(const FlowContext& flow, TransportHost& host) {
  std::unique_ptr<RateControl> rate;
  if (config_.cc == CongestionControl::kDcqcn) {
    rate = std::make_unique<Dcqcn>(host.sim(), flow.line_rate, config_.dcqcn);
  } else if (config_.cc == CongestionControl::kHpcc) {
    rate = std::make_unique<Hpcc>(flow, config_.hpcc);
  } else if (config_.cc == CongestionControl::kIb) {
    rate = std::make_unique<IbCongestionControl>(host.sim(), flow.line_rate, flow.mtu_bytes + flow.wire_overhead_bytes,
                                                 config_.ib_cc);
  }
  return std::make_unique<RcSender>(flow, host, config_, std::move(rate));
}

std::unique_ptr<FlowReceiver> RcTransport::MakeReceiver(const FlowContext& flow, TransportHost& host) {
  return std::make_unique<RcReceiver>(flow, host, config_);
}

uint32_t RcTransport::FeedbackWireBytes(PacketKind kind) const {
  if (config_.fabric == FabricKind::kIb) return kIbAckWireBytes;
  return kind == PacketKind::kCnp ? kRoceCnpWireBytes : kRoceAckWireBytes;
}

uint8_t RcTransport::FeedbackPriority(PacketKind kind, uint8_t flow_priority) const {
  // InfiniBand returns BECNs on the flow's own service level.
  if (config_.fabric == FabricKind::kIb) return flow_priority;
  return kind == PacketKind::kCnp ? config_.cnp_priority : flow_priority;
}

}  // namespace aifabric
