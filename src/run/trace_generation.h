// `aifabric trace`: a synthetic job trace for a cluster (sched/
// synthetic_trace.h: Poisson arrivals, job sizes and run times from the
// Philly, Helios or PAI tables), its iterations set from the replay's own
// step estimate on that cluster, so that a job's run time alone on an idle
// fabric is the sampled duration. Pure function of its inputs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "core/result.h"
#include "sched/job_trace.h"

namespace aifabric {

struct TraceGenerationOptions {
  size_t jobs = 5000;
  double arrivals_per_hour = 28;
  std::string source = "philly";  // "philly", "helios" or "pai"
  int32_t max_gpus = 256;         // no job asks for more (nor for more than the cluster has)
  uint64_t seed = 1;
  // Small to large, the list splitting log2 of the job size evenly (bigger
  // jobs, bigger models); a name may repeat to widen its share.
  std::vector<std::string> models = {"llama3-8b", "llama3-8b", "llama3-8b", "llama3-70b", "deepseek-v3"};
};

// The trace's jobs, in submission order (sched/job_trace.h's WriteJobTrace
// writes them as the trace CSV). Builds the cluster's fabric for
// its GPUs (no job asks for more than the schedulable ones) and its NIC
// rate; the step estimate is the job model's iteration (scheduling.jobs)
// with every byte at that rate. Errors name the option ("--models: ...",
// "--max-gpus: ..."), the fabric's field or the generator's.
Result<std::vector<TraceJob>> GenerateTrace(const Scenario& cluster, const TraceGenerationOptions& options);

}  // namespace aifabric
