// RemapJobGraph places a JobGraph on other GPUs: GPU g < gpus.size() of the
// graph becomes gpus[g], and a GPU the map does not cover (g >= gpus.size(),
// e.g. a checkpoint's storage GPU, already a cluster id) stays as it is.
// Node indices, labels, dependencies, folds and priorities are kept, so
// metrics of the original graph read the remapped run's node times. A
// collective's group keeps its rank order (the caller keeps it
// server-major by mapping whole servers in order). Pure function.
#pragma once

#include <span>

#include "core/result.h"
#include "workload/job_graph.h"

namespace aifabric {

// Errors if two GPUs of the graph land on one (gpus must not repeat nor
// hit an unmapped GPU the graph uses).
Result<JobGraph> RemapJobGraph(const JobGraph& graph, std::span<const GpuId> gpus);

}  // namespace aifabric
