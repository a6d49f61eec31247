// PlaceTenants decides where each job tenant of a shared run goes: an
// explicit placement (servers or GPUs, in the order given) as written, then
// the others in file order by their placement policy (src/sched,
// first_fit when none is named) onto the GPUs still free; a checkpoint's
// storage servers (the cluster's last ones) are never given to a job.
// Deterministic for a scenario and seed. Not thread-safe.
#pragma once

#include <vector>

#include "core/result.h"
#include "run/fabric_setup.h"
#include "scenario/scenario.h"

namespace aifabric {

// `needs[i]`: the GPUs tenant i (scenario.tenants[i]) uses, 0 for flows.
// Returns each tenant's GPUs (empty for flows). Errors name the item.
Result<std::vector<std::vector<GpuId>>> PlaceTenants(const Scenario& scenario, const BuiltFabric& fabric,
                                                     const std::vector<int>& needs, int storage_servers);

}  // namespace aifabric
