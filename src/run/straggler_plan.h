// The scenario's `straggler` faults resolved against its cluster: each
// becomes the SlowWindow of the GPU it names (workload/compute_slowdown.h),
// which the job runs hand their JobExecutors. A straggler slows compute
// kernels only, so a run without any (flows, a collective sweep, whose
// collectives are pure communication) refuses one rather than ignore it.
// Errors name the item's field. Pure functions.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/link_fault.h"
#include "scenario/scenario.h"
#include "workload/compute_slowdown.h"

namespace aifabric {

// "faults.2.gpu: GPU 99 is beyond the cluster's 16 GPUs (0..15)".
Result<ComputeSlowdowns> ResolveStragglers(const Scenario& scenario, const ClusterLayout& layout);

// Every fault of the scenario, in its order: the link faults as the
// model saw them (`link_outcomes`, FabricNetwork::FaultOutcomes: one per
// fault ResolveFaults returned, or none when the model plays none) and each
// straggler as it was written (nothing detected, routed or lost).
std::vector<FaultOutcome> FaultOutcomesOf(const Scenario& scenario, const std::vector<FaultOutcome>& link_outcomes);

// Ok when the scenario has no straggler; else an error naming the first:
// "faults.1.kind: a straggler slows a GPU's compute kernels and RUN has
// none", with `run` saying what runs (e.g. "a flows run").
Status RefuseStragglers(const Scenario& scenario, const std::string& run);

}  // namespace aifabric
