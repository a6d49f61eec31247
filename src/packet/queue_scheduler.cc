#include "packet/queue_scheduler.h"

namespace aifabric {

QueueScheduler::QueueScheduler(const PacketConfig& config)
    : strict_mask_(StrictMask(config)),
      weighted_high_(config.weighted_high),
      high_limit_bytes_(config.high_limit_bytes),
      quantum_(Quanta(config)) {}

std::array<uint32_t, kNumPriorities> QueueScheduler::Quanta(const PacketConfig& config) {
  // A quantum of at least one full packet per weight unit guarantees that
  // every visit to a backlogged queue sends at least one packet.
  const uint32_t max_wire = config.mtu_bytes + config.wire_overhead_bytes;
  std::array<uint32_t, kNumPriorities> quanta{};
  for (size_t p = 0; p < kNumPriorities; ++p) {
    quanta[p] = max_wire * (config.queues[p].dwrr_weight == 0 ? 1 : config.queues[p].dwrr_weight);
  }
  return quanta;
}

uint8_t QueueScheduler::StrictMask(const PacketConfig& config) {
  uint8_t mask = 0;
  for (size_t p = 0; p < kNumPriorities; ++p) {
    if (config.queues[p].strict) mask |= static_cast<uint8_t>(1u << p);
  }
  return mask;
}

}  // namespace aifabric
