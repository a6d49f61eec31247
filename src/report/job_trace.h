// AddJobTrace puts a finished job's timeline into a Perfetto trace: one
// process per GPU ("rank g"), with its compute kernels on a "compute"
// track and the collectives and transfers it takes part in on a
// "communication" track (overlapping ones on extra lanes, as
// telemetry/chrome_trace.h splits them). Only the first `max_ranks` GPUs
// are traced, so a 16k-GPU job gives a trace a viewer can open.
#pragma once

#include <span>

#include "core/time.h"
#include "telemetry/chrome_trace.h"
#include "workload/job_graph.h"

namespace aifabric {

inline constexpr int32_t kTracedRanks = 64;

// REQUIRES: node_start and node_finish have one entry per node of `graph`
// (JobExecutor::node_start/node_finish of a finished run).
void AddJobTrace(const JobGraph& graph, std::span<const Time> node_start, std::span<const Time> node_finish,
                 ChromeTrace& trace, int32_t max_ranks = kTracedRanks);

}  // namespace aifabric
