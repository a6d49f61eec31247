// DataRate is a link or NIC speed in bits per second (integer). It converts a
// byte count into the picoseconds needed to serialize it, rounding up, so a
// transmitter never finishes earlier than the wire allows.
#pragma once

#include <compare>
#include <cstdint>

#include "core/time.h"

namespace aifabric {

class DataRate {
 public:
  constexpr DataRate() = default;
  static constexpr DataRate BitsPerSecond(uint64_t bps) { return DataRate(bps); }
  static constexpr DataRate Mbps(uint64_t v) { return DataRate(v * 1000ull * 1000ull); }
  static constexpr DataRate Gbps(uint64_t v) { return DataRate(v * 1000ull * 1000ull * 1000ull); }

  constexpr uint64_t bps() const { return bps_; }
  constexpr double gbps() const { return static_cast<double>(bps_) / 1e9; }
  constexpr bool IsZero() const { return bps_ == 0; }

  // Time to put `bytes` on the wire: ceil(bytes * 8 * 1e12 / bps) ps.
  // REQUIRES: !IsZero()
  constexpr Time TransmitTime(uint64_t bytes) const {
    unsigned __int128 bits_ps = static_cast<unsigned __int128>(bytes) * 8u * 1000000000000ull;
    return Time::FromPs(static_cast<int64_t>((bits_ps + bps_ - 1) / bps_));
  }
  // Bytes that fit in `t` at this rate, rounded down.
  constexpr uint64_t BytesIn(Time t) const {
    if (t.ps() <= 0) return 0;
    unsigned __int128 v = static_cast<unsigned __int128>(t.ps()) * bps_;
    return static_cast<uint64_t>(v / (8u * 1000000000000ull));
  }

  constexpr auto operator<=>(const DataRate&) const = default;

 private:
  constexpr explicit DataRate(uint64_t bps) : bps_(bps) {}
  uint64_t bps_ = 0;
};

constexpr DataRate Min(DataRate a, DataRate b) { return a < b ? a : b; }

}  // namespace aifabric
