// SharedBuffer is a switch's packet memory, shared by all its egress queues
// and admitted by dynamic threshold (Choudhury & Hahne, 1998): a packet may
// join a queue only while queue_bytes + size <= alpha * (capacity - used).
// Tail drop otherwise. One per switch; not thread-safe.
#pragma once

#include <cstdint>

namespace aifabric {

class SharedBuffer {
 public:
  SharedBuffer(uint64_t capacity_bytes, double alpha)
      : capacity_bytes_(capacity_bytes), alpha_(alpha) {}

  // Admits `size` bytes to a queue now holding `queue_bytes`, or refuses.
  bool TryAdmit(uint64_t queue_bytes, uint32_t size) {
    const uint64_t free_bytes = capacity_bytes_ - used_bytes_;
    if (size > free_bytes) return false;
    if (static_cast<double>(queue_bytes + size) > alpha_ * static_cast<double>(free_bytes)) return false;
    used_bytes_ += size;
    if (used_bytes_ > peak_bytes_) peak_bytes_ = used_bytes_;
    return true;
  }
  // Admits `size` bytes if they fit at all, with no per-queue threshold
  // (lossless traffic: PFC, not the threshold, bounds each ingress).
  bool TryAdmitAny(uint32_t size) {
    if (size > capacity_bytes_ - used_bytes_) return false;
    used_bytes_ += size;
    if (used_bytes_ > peak_bytes_) peak_bytes_ = used_bytes_;
    return true;
  }
  // Counts `size` bytes as held whether or not they fit (InfiniBand: the
  // credits, not this buffer, bound what arrives).
  void Charge(uint32_t size) {
    used_bytes_ += size;
    if (used_bytes_ > peak_bytes_) peak_bytes_ = used_bytes_;
  }
  void Release(uint32_t size) { used_bytes_ -= size; }
  uint64_t free_bytes() const { return capacity_bytes_ - used_bytes_; }
  double alpha() const { return alpha_; }

  uint64_t used_bytes() const { return used_bytes_; }
  uint64_t peak_bytes() const { return peak_bytes_; }
  uint64_t capacity_bytes() const { return capacity_bytes_; }

 private:
  // Fixed at construction.
  const uint64_t capacity_bytes_;
  const double alpha_;

  uint64_t used_bytes_ = 0;
  uint64_t peak_bytes_ = 0;
};

}  // namespace aifabric
