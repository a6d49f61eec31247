// EgressPort is one direction of a link as its sender sees it: eight priority
// queues, a scheduler (strict priority, then deficit-weighted round robin),
// and a transmitter that serializes one packet at a time at line rate and
// hands it to the receiving node after the propagation delay plus the
// receiver's forwarding latency. It schedules an event only when it must
// wake up: a packet that finds the port idle starts at once.
// Owned by PacketNetwork; not thread-safe.
#pragma once

#include <array>
#include <cstdint>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "packet/packet.h"
#include "packet/packet_config.h"
#include "packet/port_counters.h"
#include "packet/shared_buffer.h"

namespace aifabric {

// Supplies packets to an idle port whose queues are empty (a host NIC pulls
// from its flows this way, so sending hosts hold no queue of their own).
class PacketSource {
 public:
  // Returns the next packet to put on `port`, or nullptr if none can go now.
  virtual Packet* Pull(PortId port) = 0;

 protected:
  ~PacketSource() = default;
};

class EgressPort final : public EventHandler {
 public:
  struct Wiring {
    PortId id = kNoPort;
    DataRate rate;
    Time propagation;            // cable delay
    Time receiver_latency;       // forwarding latency of the node at the far end (0 for hosts)
    EventHandler* receiver = nullptr;  // gets (tag = Packet*) when the packet arrives
    PortId receiver_in_port = kNoPort; // the same link seen from the receiver
    SharedBuffer* buffer = nullptr;    // the sender's shared buffer (switches), or null
    PacketSource* source = nullptr;    // pulled when the queues are empty (hosts), or null
  };

  EgressPort(Simulator& sim, const PacketConfig& config, const Wiring& wiring);
  EgressPort(const EgressPort&) = delete;
  EgressPort& operator=(const EgressPort&) = delete;

  // Queues a packet (already admitted to the buffer, if any) and starts
  // sending if the port is idle.
  void Enqueue(Packet* p);
  // Tells an idle port that its source may have a packet now.
  void Kick();

  uint64_t queue_bytes(int priority) const { return queues_[priority].bytes(); }
  uint64_t queue_bytes() const { return queued_bytes_; }
  const PortCounters& counters() const { return counters_; }
  PortCounters& counters() { return counters_; }
  DataRate rate() const { return wiring_.rate; }
  PortId id() const { return wiring_.id; }

  // Transmission done: the transmitter is free.
  void OnEvent(uint64_t tag) override;

 private:
  // Picks the next packet by strict priority, then DWRR; nullptr if none.
  Packet* Dequeue();
  Packet* DequeueDwrr();
  void Transmit(Packet* p);
  void TrySend();
  // DataRate::TransmitTime, without its 128-bit division when the rate is
  // a whole number of picoseconds per byte (100G: 80, 400G: 20, 800G: 10).
  Time SerializationTime(uint32_t bytes) const {
    return ps_per_byte_ != 0 ? Time::FromPs(static_cast<int64_t>(bytes * ps_per_byte_))
                             : wiring_.rate.TransmitTime(bytes);
  }

  // Fixed at construction.
  Simulator& sim_;
  const Wiring wiring_;
  const bool cut_through_;
  const uint64_t ps_per_byte_;                  // 0 when not a whole number
  uint8_t strict_mask_ = 0;                     // bit p set: priority p is strict
  std::array<uint32_t, kNumPriorities> quantum_{};  // DWRR bytes per visit

  std::array<PacketQueue, kNumPriorities> queues_;
  std::array<int64_t, kNumPriorities> deficit_{};
  uint8_t nonempty_mask_ = 0;
  int dwrr_cursor_ = 0;
  uint64_t queued_bytes_ = 0;
  Time busy_until_;          // the transmitter is serializing until then
  bool wakeup_pending_ = false;
  PortCounters counters_;
};

}  // namespace aifabric
