// RunChakraJob replays a Chakra execution trace set (workload `chakra`,
// ASTRA-sim's input format) on a scenario's cluster and fabric: the traces
// read into a JobGraph (chakra/chakra_reader.h), which runs like a training
// step. Not thread-safe.
#pragma once

#include "run/job_run.h"
#include "scenario/scenario.h"
#include "core/result.h"

namespace aifabric {

struct ChakraRunResult {
  JobRunResult run;
  int ranks = 0;
  size_t nodes = 0;
};

// The trace set as a JobGraph (and how many rank files it read). Errors
// name the workload entry and the trace file and node at fault.
Result<JobGraph> ReadChakraJob(const Scenario& scenario, const Scenario::ChakraJob& job, int* ranks = nullptr);

// Errors name the workload entry and the trace file and node at fault.
Result<ChakraRunResult> RunChakraJob(const Scenario& scenario, const Scenario::ChakraJob& job, const RunHooks& hooks = {});

}  // namespace aifabric
