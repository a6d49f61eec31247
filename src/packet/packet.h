// Packet is one frame on the wire in the packet-level model, and PacketPool
// hands them out from free lists so the steady state allocates nothing.
// Packets are plain structs linked intrusively into queues (`next`).
// Not thread-safe; each PacketNetwork owns one pool.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/ids.h"
#include "core/time.h"

namespace aifabric {

// What a packet carries: payload of a flow, or transport feedback for it
// travelling from the flow's destination back to its source.
enum class PacketKind : uint8_t {
  kData,
  kAck,   // cumulative acknowledgement: ack_offset bytes received in order
  kNak,   // sequence error: the receiver expects ack_offset next
  kCnp,   // congestion notification: a RoCEv2 CNP (DCQCN) or an InfiniBand BECN
};

// In-band network telemetry one switch egress adds to a data packet (HPCC):
// what the port had sent, its queue, when, and its rate.
struct IntHop {
  uint64_t tx_bytes = 0;     // bytes the port had transmitted, this packet included
  uint64_t queue_bytes = 0;  // egress queue (all priorities) as the packet left
  Time ts;                   // when the packet started on the wire
  uint64_t rate_bps = 0;
};
constexpr int kMaxIntHops = 5;

// 64 bytes and aligned to 64 (the pool's chunks are too), so a packet sits
// in exactly one cache line rather than straddling two.
struct alignas(64) Packet {
  // Read at every hop first.
  uint32_t route_offset = 0;  // the flow's path in PacketNetwork's route arena
  uint8_t hop = 0;            // index in that path of the port to take next
  uint8_t priority = 0;
  PacketKind kind = PacketKind::kData;
  bool ecn_ce = false;        // ECN congestion-experienced mark (InfiniBand: FECN)
  bool in_headroom = false;   // at a switch: held in PFC headroom, not the shared pool
  uint8_t int_hops = 0;       // telemetry records in int_ (data: added per switch; ACK: echoed)
  uint32_t wire_bytes = 0;    // payload + per-packet overhead (headers, preamble, IFG)
  PortId in_port = kNoPort;   // at the receiving node: the port it arrived over (peer -> node)
  NodeId dst = kNoNode;
  Time last_bit_at;           // cut-through: when the packet's last bit reaches this node
  // Read at the ends.
  uint32_t payload_bytes = 0;
  uint32_t flow_index = 0;    // dense index of the flow in its PacketNetwork
  union {
    uint64_t offset = 0;      // data: byte offset of the payload within its message
    uint64_t ack_offset;      // ACK/NAK/CNP: bytes the receiver holds in order
  };
  // Clears every field but the telemetry block, which stays paired with
  // this packet (int_hops = 0 makes its contents meaningless). Keep in step
  // with the fields.
  void Reset() {
    flow_index = 0;
    dst = kNoNode;
    payload_bytes = wire_bytes = 0;
    offset = 0;
    kind = PacketKind::kData;
    ecn_ce = in_headroom = false;
    route_offset = 0;
    hop = priority = 0;
    in_port = kNoPort;
    last_bit_at = Time();
    int_hops = 0;
    next = nullptr;
  }
  Packet* next = nullptr;     // intrusive link for queues and the free list
  // HPCC's telemetry: kMaxIntHops records in a block the pool pairs with
  // this packet for good (null unless the network stamps INT), so packets
  // stay small when it is off.
  IntHop* int_ = nullptr;
};
static_assert(sizeof(Packet) == 64, "a packet should fill one cache line");

class PacketPool {
 public:
  // With `with_telemetry`, every packet gets a block of kMaxIntHops records.
  explicit PacketPool(bool with_telemetry = false) : with_telemetry_(with_telemetry) {}
  PacketPool(const PacketPool&) = delete;
  PacketPool& operator=(const PacketPool&) = delete;

  Packet* Allocate() {
    if (free_ == nullptr) Grow();
    Packet* p = free_;
    free_ = p->next;
    p->Reset();
    ++in_use_;
    return p;
  }
  void Free(Packet* p) {
    p->next = free_;
    free_ = p;
    --in_use_;
  }
  size_t in_use() const { return in_use_; }
  size_t capacity() const { return chunks_.size() * kChunk; }

 private:
  static constexpr size_t kChunk = 4096;
  void Grow() {
    chunks_.push_back(std::make_unique<Packet[]>(kChunk));
    Packet* chunk = chunks_.back().get();
    IntHop* telemetry = nullptr;
    if (with_telemetry_) {
      telemetry_.push_back(std::make_unique<IntHop[]>(kChunk * kMaxIntHops));
      telemetry = telemetry_.back().get();
    }
    for (size_t i = 0; i < kChunk; ++i) {
      chunk[i].next = free_;
      if (telemetry != nullptr) chunk[i].int_ = telemetry + i * kMaxIntHops;
      free_ = &chunk[i];
    }
  }

  const bool with_telemetry_;
  Packet* free_ = nullptr;
  size_t in_use_ = 0;
  std::vector<std::unique_ptr<Packet[]>> chunks_;
  std::vector<std::unique_ptr<IntHop[]>> telemetry_;
};

// A FIFO of packets linked through Packet::next, with its byte count.
class PacketQueue {
 public:
  bool empty() const { return head_ == nullptr; }
  uint64_t bytes() const { return bytes_; }
  uint32_t packets() const { return packets_; }
  Packet* head() const { return head_; }
  void Push(Packet* p) {
    p->next = nullptr;
    if (tail_) tail_->next = p; else head_ = p;
    tail_ = p;
    bytes_ += p->wire_bytes;
    ++packets_;
  }
  // REQUIRES: !empty()
  Packet* Pop() {
    Packet* p = head_;
    head_ = p->next;
    if (head_ == nullptr) tail_ = nullptr;
    bytes_ -= p->wire_bytes;
    --packets_;
    p->next = nullptr;
    return p;
  }

 private:
  Packet* head_ = nullptr;
  Packet* tail_ = nullptr;
  uint64_t bytes_ = 0;
  uint32_t packets_ = 0;
};

}  // namespace aifabric
