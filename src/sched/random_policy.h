// RandomPolicy, "random": the other baseline. A small job goes to a server
// drawn uniformly among those with enough free GPUs, on a uniformly random
// subset of its free GPUs; a multi-server job takes a uniformly random set
// of whole free servers. Draws only from its own Rng seeded by the caller,
// so a seed and the same sequence of calls give the same placements.
// Holds the generator's state; not thread-safe.
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "sched/placement_policy.h"

namespace aifabric {

class RandomPolicy final : public PlacementPolicy {
 public:
  explicit RandomPolicy(uint64_t seed) : rng_(seed) {}
  std::string_view name() const override { return "random"; }
  // Draws from the generator only when the job can be placed.
  std::optional<std::vector<GpuId>> Place(const PlacementRequest& request,
                                          const GpuAllocation& allocation) override;

 private:
  Rng rng_;
};

}  // namespace aifabric
