// QueueScheduler decides which of a sender's eight priority queues sends
// next when more than one may: strict queues first (the highest number
// first, or, for InfiniBand's high table, by weight among themselves, with
// LimitOfHighPriority letting a low packet through), then deficit-weighted
// round robin among the rest (PacketConfig::queues). A switch egress port
// and a host NIC each hold one, so a host's classes share its link as a
// switch's do. It knows nothing of packets: the caller says which queues
// may send and what each one's next packet costs on the wire. Not
// thread-safe.
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>

#include "packet/packet_config.h"

namespace aifabric {

class QueueScheduler {
 public:
  explicit QueueScheduler(const PacketConfig& config);

  // Bit p set: priority p is strict.
  uint8_t strict_mask() const { return strict_mask_; }
  static uint8_t StrictMask(const PacketConfig& config);

  // The queue of `ready` (bit p: queue p has a packet and may send) whose
  // next packet goes, its cost already charged. head_bytes(q) gives the
  // wire bytes of queue q's next packet. `dirty` is the caller's mask of
  // queues whose deficit may be non-zero (kept by the caller, beside what
  // it reads per packet): a queue that empties must Forfeit then.
  // REQUIRES: ready != 0.
  template <typename HeadBytes>
  int Pick(uint8_t ready, uint8_t& dirty, const HeadBytes& head_bytes) {
    assert(ready != 0);
    if ((ready & (ready - 1)) == 0 && (ready & strict_mask_) == 0) {
      // One queue, not strict: it gets the link; its deficit is moot.
      NoteLowSent();
      return std::countr_zero(ready);
    }
    return Arbitrate(ready, dirty, head_bytes);
  }
  // Pick when several queues are ready or a strict one is.
  template <typename HeadBytes>
  int Arbitrate(uint8_t ready, uint8_t& dirty, const HeadBytes& head_bytes) {
    const uint8_t strict_ready = ready & strict_mask_;
    const uint8_t low_ready = ready & static_cast<uint8_t>(~strict_mask_);
    int q;
    if (strict_ready != 0 && (low_ready == 0 || high_run_bytes_ <= high_limit_bytes_)) {
      if (weighted_high_ && (strict_ready & (strict_ready - 1)) != 0) {
        q = DwrrPick(strict_ready, high_cursor_, dirty, head_bytes);
      } else {
        q = 31 - std::countl_zero(static_cast<uint32_t>(strict_ready));
      }
      high_run_bytes_ += head_bytes(q);
    } else {
      q = (low_ready & (low_ready - 1)) == 0 ? std::countr_zero(low_ready)
                                             : DwrrPick(low_ready, dwrr_cursor_, dirty, head_bytes);
      NoteLowSent();
    }
    return q;
  }
  // A queue outside the strict set sent without arbitration: the high
  // table's run (only VL arbitration reads it) starts again.
  void NoteLowSent() {
    if (strict_mask_ != 0) RestartHighRun();
  }
  void RestartHighRun() { high_run_bytes_ = 0; }
  // Queue q emptied: it loses what is left of its deficit (DRR).
  void Forfeit(int q) { deficit_[static_cast<size_t>(q)] = 0; }

 private:
  // Classic DWRR (Shreedhar & Varghese): on arriving at a backlogged queue
  // add its quantum; send while the deficit covers the head packet; then
  // move on. Quanta are at least one packet, so this terminates.
  template <typename HeadBytes>
  int DwrrPick(uint8_t set, int& cursor, uint8_t& dirty, const HeadBytes& head_bytes) {
    assert(set != 0);
    while (true) {
      const int q = cursor;
      if (set & (1u << q)) {
        const uint32_t head = head_bytes(q);
        if (deficit_[static_cast<size_t>(q)] >= static_cast<int64_t>(head)) {
          deficit_[static_cast<size_t>(q)] -= head;
          return q;
        }
      }
      cursor = (cursor + 1) % kNumPriorities;
      if (set & (1u << cursor)) {
        deficit_[static_cast<size_t>(cursor)] += quantum_[static_cast<size_t>(cursor)];
        dirty |= static_cast<uint8_t>(1u << cursor);
      }
    }
  }

  static std::array<uint32_t, kNumPriorities> Quanta(const PacketConfig& config);

  // Fixed at construction (but high_run_bytes_, beside the mask read
  // before it changes).
  const uint8_t strict_mask_;
  const bool weighted_high_;
  uint64_t high_run_bytes_ = 0;  // high-table bytes since the last low packet
  const uint64_t high_limit_bytes_;
  const std::array<uint32_t, kNumPriorities> quantum_;  // DWRR bytes per visit

  std::array<int64_t, kNumPriorities> deficit_{};
  int dwrr_cursor_ = 0;
  int high_cursor_ = 0;  // weighted high table (InfiniBand)
};

}  // namespace aifabric
