// PacketConfig holds the knobs of the packet-level model: what a packet costs
// on the wire, how switches forward and schedule, and how the shared buffer
// admits packets. Plain struct with defaults; filled by the scenario loader.
#pragma once

#include <array>
#include <cstdint>

namespace aifabric {

enum class FabricKind { kRoce, kIb };
enum class Forwarding { kStoreAndForward, kCutThrough };

// Bytes a packet costs on the wire beyond its payload.
// RoCEv2: Ethernet 14 + FCS 4 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 62 bytes of
// headers, plus 8 bytes of preamble/SFD and a 12-byte inter-frame gap = 82.
// InfiniBand: LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 (no GRH inside a subnet;
// IB's line coding is folded into the data rate, so there is no preamble).
constexpr uint32_t kRoceWireOverheadBytes = 82;
constexpr uint32_t kIbWireOverheadBytes = 26;

constexpr int kNumPriorities = 8;

struct QueueSchedulingConfig {
  bool strict = false;         // strict priority (served before all DWRR queues)
  uint32_t dwrr_weight = 1;    // relative share among the DWRR queues, >= 1
};

struct PacketConfig {
  FabricKind kind = FabricKind::kRoce;
  uint32_t mtu_bytes = 4096;        // payload bytes per packet
  uint32_t wire_overhead_bytes = kRoceWireOverheadBytes;
  Forwarding forwarding = Forwarding::kStoreAndForward;

  // Egress scheduling per priority. Strict queues go first, highest priority
  // number first; the rest share by deficit-weighted round robin.
  std::array<QueueSchedulingConfig, kNumPriorities> queues{};

  // Shared-buffer dynamic threshold (Choudhury-Hahne): a packet is admitted
  // to an egress queue when queue_bytes + size <= alpha * (buffer - used).
  // SONiC's dynamic_th 0 means alpha = 2^0 = 1.
  double buffer_alpha = 1.0;

  // Seed for the per-switch ECMP hash (mixed with the switch id).
  uint64_t ecmp_seed = 0;
};

}  // namespace aifabric
