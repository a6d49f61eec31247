// EcnConfig is ECN marking at switch egress queues (RoCEv2's WRED/RED
// profile) and EcnMarkProbability its rule: the one place both models
// read it, the packet level per packet leaving a queue, the flow level on
// its fluid queues (flow/flow_dcqcn.h). Plain struct and a pure function.
#pragma once

#include <cstdint>

namespace aifabric {

// WRED style on the instantaneous queue of the packet's priority:
// probability 0 up to kmin, rising linearly to pmax at kmax, 1 above.
struct EcnConfig {
  bool enabled = false;
  uint8_t marked_mask = 0xff;   // priorities whose data packets may be marked
  // 0 means "scale with the port rate": 2 KB and 8 KB per Gbps (SimAI's
  // 400G setting, 800 KB / 3,200 KB, scaled linearly).
  uint64_t kmin_bytes = 0;
  uint64_t kmax_bytes = 0;
  double pmax = 0.2;
  // The thresholds in force at a port of `gbps` Gb/s.
  uint64_t KminAt(double gbps) const { return kmin_bytes != 0 ? kmin_bytes : static_cast<uint64_t>(2000.0 * gbps); }
  uint64_t KmaxAt(double gbps) const { return kmax_bytes != 0 ? kmax_bytes : static_cast<uint64_t>(8000.0 * gbps); }
};

// The probability that a packet leaving a queue of `queue_bytes` (wire
// bytes, itself included) is marked: 0 at or below kmin,
// pmax (q - kmin) / (kmax - kmin) up to kmax, 1 above.
// REQUIRES: kmax > kmin.
inline double EcnMarkProbability(double queue_bytes, uint64_t kmin, uint64_t kmax, double pmax) {
  if (queue_bytes <= static_cast<double>(kmin)) return 0;
  if (queue_bytes > static_cast<double>(kmax)) return 1;
  return pmax * (queue_bytes - static_cast<double>(kmin)) / static_cast<double>(kmax - kmin);
}

}  // namespace aifabric
