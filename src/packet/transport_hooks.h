// The seams between the packet model and the transport layer (src/transport):
// a Transport makes, per flow, the PacketSender that runs at the source and
// the FlowReceiver that runs at the destination; both reach back into the
// network through TransportHost. Without a Transport the network sends each
// message once at line rate and nothing comes back (LineRateSender).
#pragma once

#include <cstdint>
#include <memory>

#include "core/data_rate.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "packet/packet.h"
#include "packet/packet_sender.h"

namespace aifabric {

// Counters a transport keeps per flow, reported in outputs.
struct TransportCounters {
  uint64_t retransmitted_bytes = 0;   // payload sent again (go-back-N or selective)
  uint64_t timeouts = 0;              // retransmission timeouts that fired
  uint64_t out_of_order_packets = 0;  // data that arrived ahead of the expected offset
  uint64_t discarded_bytes = 0;       // payload the receiver threw away (out of order, duplicate)
  uint64_t ecn_marked_packets = 0;    // data that arrived with ECN CE set
  uint64_t cnps = 0;                  // CNPs the receiver sent
  uint64_t acks = 0;                  // ACK and NAK packets the receiver sent
};

// What a transport endpoint knows about its flow when it is made.
struct FlowContext {
  uint32_t flow_index = 0;
  uint64_t bytes = 0;
  uint32_t mtu_bytes = 0;
  uint32_t wire_overhead_bytes = 0;
  DataRate line_rate;          // the source host's link
  Time base_rtt;               // idle round trip of one MTU packet and its ACK
};

// What a transport endpoint may ask of the network it runs in.
class TransportHost {
 public:
  virtual Simulator& sim() = 0;
  // Sends feedback for a flow from its destination back to its source;
  // with `echo`, the feedback carries that data packet's telemetry (INT).
  virtual void SendFeedback(uint32_t flow_index, PacketKind kind, uint64_t ack_offset,
                            const Packet* echo = nullptr) = 0;
  // The flow's sender may be able to send now: wake its NIC port.
  virtual void WakeSender(uint32_t flow_index) = 0;
  virtual TransportCounters& counters(uint32_t flow_index) = 0;

 protected:
  ~TransportHost() = default;
};

// The destination side of a flow.
class FlowReceiver {
 public:
  virtual ~FlowReceiver() = default;
  // A data packet arrived; returns how many payload bytes it newly adds to
  // the in-order prefix the application can consume (0 if it was dropped as
  // out of order or duplicate, or only filled a hole ahead of that prefix).
  virtual uint64_t OnData(const Packet& p) = 0;
};

class Transport {
 public:
  virtual ~Transport() = default;
  virtual std::unique_ptr<PacketSender> MakeSender(const FlowContext& flow, TransportHost& host) = 0;
  virtual std::unique_ptr<FlowReceiver> MakeReceiver(const FlowContext& flow, TransportHost& host) = 0;
  // Wire bytes of a feedback packet of this kind (headers included).
  virtual uint32_t FeedbackWireBytes(PacketKind kind) const = 0;
  // Priority feedback of this kind travels at, given the flow's priority.
  virtual uint8_t FeedbackPriority(PacketKind kind, uint8_t flow_priority) const = 0;
};

}  // namespace aifabric
