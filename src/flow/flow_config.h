// FlowConfig holds the knobs of the flow-level model (FlowNetwork): what a
// packet costs on the wire (so link capacities are payload rates), how ECMP
// hashes, how traffic classes share a link, and DCQCN. Plain struct with defaults;
// filled from the scenario in src/run, from the same fields as the packet
// model's PacketConfig so both models see the same fabric.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "core/time.h"
#include "fabric/dcqcn_reaction_point.h"
#include "fabric/ecn_marking.h"
#include "fabric/port_counters.h"
#include "flow/qos_solver.h"

namespace aifabric {

// How the flow level spreads a transfer over its equal-cost paths
// (fabric.load_balancing; docs/models.md, "Load balancing at flow level").
enum class FlowBalancing {
  kEcmp,      // one path per queue pair, by the packet model's 5-tuple hash
  kSpray,     // every shortest path, split equally at every node (per-packet spraying)
  kAdaptive,  // every shortest path, split at every node to even out the load on its next hops
};

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
  // Path choice. Flowlets (packet level) become kEcmp: a fluid never pauses,
  // so it never starts a new flowlet.
  FlowBalancing balancing = FlowBalancing::kEcmp;
  // How each traffic class (TransferRequest::priority) is served on a
  // port, as the packet model's egress scheduler (QosSolver): higher tiers
  // first (strict priority), the classes of one tier by their weights
  // (DWRR, per class), the flows of one class max-min. All alike (the
  // default) = plain max-min fairness regardless of class.
  std::array<ClassScheduling, 8> priority_classes{};
  // DCQCN on every queue pair (not coflows), as the packet level's RoCEv2
  // senders run it (fabric.roce.cc: dcqcn), with switch ports marking
  // their fluid queues by `ecn` (flow/flow_dcqcn.h). Off: no queues, no
  // congestion control, rates are the max-min shares alone.
  bool dcqcn = false;
  DcqcnConfig dcqcn_config;
  EcnConfig ecn;
  // The step of DCQCN's control loop while some queue pair is congested or
  // throttled: queues, marks and rates move once per step (the reaction
  // point's own events keep their exact times within it). A numerical
  // step, well below the loop's time constants (4 us between cuts, 50 us
  // between CNPs, 55 us between increases).
  Time dcqcn_step = Time::FromUs(1);
};

// The counters of a port of a fluid model that carried `payload_bytes`:
// the payload (rounded to a byte) and the whole packets it took, each with
// its wire overhead. No drops, marks, pauses or queues.
inline PortCounters FluidPortCounters(double payload_bytes, const FlowConfig& config) {
  PortCounters c;
  c.tx_payload_bytes = static_cast<uint64_t>(payload_bytes + 0.5);
  c.tx_packets = static_cast<uint64_t>(std::ceil(payload_bytes / config.mtu_bytes));
  c.tx_bytes = c.tx_payload_bytes + c.tx_packets * config.wire_overhead_bytes;
  return c;
}

}  // namespace aifabric
