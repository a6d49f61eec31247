// FlowConfig holds the knobs of the flow-level model (FlowNetwork): what a
// packet costs on the wire (so link capacities are payload rates), how ECMP
// hashes, and how traffic classes share a link. Plain struct with defaults;
// filled from the scenario in src/api, from the same fields as the packet
// model's PacketConfig so both models see the same fabric.
#pragma once

#include <array>
#include <cstdint>

namespace aifabric {

struct FlowConfig {
  // Payload bytes per packet and the bytes each packet adds on the wire
  // (RoCEv2: 82, InfiniBand: 26 — see packet/packet_config.h). A link of
  // rate R carries payload at R * mtu / (mtu + overhead).
  uint32_t mtu_bytes = 4096;
  uint32_t wire_overhead_bytes = 82;
  // Seed of the per-switch ECMP hash (fabric/ecmp_path.h), as the packet
  // model's PacketConfig::ecmp_seed.
  uint64_t ecmp_seed = 0;
  // Queue pairs a transfer is split over, each its own 5-tuple and path
  // (PacketConfig::qps_per_transfer).
  uint32_t qps_per_transfer = 1;
  // Weight of each traffic class (TransferRequest::priority) in weighted
  // max-min sharing: on a shared bottleneck, flows get rates in proportion
  // to their weights (the packet model's DWRR weights). Strict priority is
  // not modelled: give strict classes their weight here. All 1 = plain
  // max-min fairness regardless of class.
  std::array<double, 8> priority_weight = {1, 1, 1, 1, 1, 1, 1, 1};
};

}  // namespace aifabric
