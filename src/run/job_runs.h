// The job entries of a scenario (workload `training`, `chakra` and
// `inference` items), each run in a simulation of its own, in that order;
// the results as data (report/job_outputs.h writes summary.json from them).
// Not thread-safe.
#pragma once

#include <vector>

#include "core/result.h"
#include "run/chakra_run.h"
#include "run/inference_run.h"
#include "run/run_hooks.h"
#include "run/training_run.h"
#include "scenario/scenario.h"

namespace aifabric {

struct JobRuns {
  std::vector<TrainingRunResult> training;
  std::vector<ChakraRunResult> chakra;
  std::vector<InferenceRunResult> inference;
};

bool HasJobs(const Scenario& scenario);

// Errors name the entry. REQUIRES: HasJobs(scenario), no flows workload.
Result<JobRuns> RunJobs(const Scenario& scenario, const RunHooks& hooks = {});

}  // namespace aifabric
