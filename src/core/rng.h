// Rng is the simulation's only source of randomness: xoshiro256** seeded by
// splitmix64 from the scenario seed. Its output and every draw helper below
// are defined here bit for bit, so a seed gives the same stream on every
// platform and compiler (std:: distributions do not promise that).
// Not thread-safe; each simulation owns its own.
#pragma once

#include <cstdint>

namespace aifabric {

class Rng {
 public:
  explicit Rng(uint64_t seed) { Seed(seed); }

  void Seed(uint64_t seed) {
    uint64_t x = seed;
    for (auto& s : s_) s = SplitMix64(x);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1), 53 bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n). REQUIRES: n > 0. Lemire's multiply-shift
  // with rejection, so the result is exactly uniform.
  uint64_t Below(uint64_t n) {
    unsigned __int128 m = static_cast<unsigned __int128>(Next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      const uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(Next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Exponential with the given mean, by inversion.
  double Exponential(double mean);

  // Derives an independent generator for a named sub-stream (e.g. one per
  // traffic generator), so adding one stream does not shift another.
  Rng Fork(uint64_t stream) const {
    uint64_t x = s_[0] ^ (stream * 0x9E3779B97F4A7C15ull);
    return Rng(SplitMix64(x));
  }

  static uint64_t SplitMix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

}  // namespace aifabric
