// ConnectionTable maps a connection's 64-bit key (FlowNetwork's mix of
// source, destination and 5-tuple hash) to the index of a queue pair that
// holds its path: an open-addressing table with linear probing, so a
// lookup is a probe or two in one array and an insert allocates only when
// the table doubles (at half full). Keys are never removed. Not
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace aifabric {

class ConnectionTable {
 public:
  std::optional<uint32_t> Find(uint64_t key) const;
  // Sets the value of `key`, adding it if new. REQUIRES: value != kEmpty.
  void Set(uint64_t key, uint32_t value);
  size_t size() const { return size_; }
  // Forgets every key (routes changed: the paths they point to are stale).
  void Clear() { *this = ConnectionTable(); }

  static constexpr uint32_t kEmpty = UINT32_MAX;

 private:
  size_t Slot(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  void Grow();

  std::vector<uint64_t> keys_;
  std::vector<uint32_t> values_;  // kEmpty: a free slot
  size_t size_ = 0;
  int shift_ = 64;  // 64 - log2(capacity)
};

}  // namespace aifabric
