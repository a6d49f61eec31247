// FirstFitPolicy, "first_fit": the baseline most like Slurm's default
// linear selection. A small job takes the lowest-numbered server with
// enough free GPUs and its lowest free GPUs; a multi-server job takes the
// lowest-numbered whole free servers, wherever they sit in the fabric.
// Stateless; not thread-safe only by the PlacementPolicy contract.
#pragma once

#include "sched/placement_policy.h"

namespace aifabric {

class FirstFitPolicy final : public PlacementPolicy {
 public:
  std::string_view name() const override { return "first_fit"; }
  std::optional<std::vector<GpuId>> Place(const PlacementRequest& request,
                                          const GpuAllocation& allocation) override;
};

}  // namespace aifabric
