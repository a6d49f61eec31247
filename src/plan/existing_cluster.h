// `aifabric plan --existing SCENARIO --models FILE`: can the network one
// has carry the next models? Each future model runs alone on the existing
// scenario's cluster and fabric (its workload replaced by the model's
// training entry, at flow level): does it fit in GPU memory, with which
// split (parallelism: auto searches), at what step time and effective GPU
// utilization, and which traffic holds it back. Below the models file's
// threshold, the cheapest design of its design space whose utilization for
// that model reaches the threshold (plan_run.h) is the upgrade. Not
// thread-safe across calls sharing options; each call owns its runs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/catalog.h"
#include "plan/plan_requirements.h"
#include "plan/plan_run.h"

namespace aifabric {

struct FutureModelOutcome {
  std::string name;
  bool fits = true;
  std::string note;               // why it does not fit (the numbers), or ""
  std::string parallelism;        // "tp8 pp4 dp32", or "" when it does not fit
  uint64_t memory_per_gpu_bytes = 0;
  double step_time_s = 0;
  double mfu = 0;
  double effective_gpu_utilization = 0;  // of the job's own GPUs
  std::string bottleneck;         // "data-parallel traffic over the network; busiest links: leaf-spine (...)"
  std::string bottleneck_tier;    // the busiest fabric link's tier ("leaf-spine"), "" if none
  std::string bottleneck_link;    // "leaf3 -> spine1"
  double bottleneck_link_busy = 0;
  double exposed_comm_s = 0;
  // The cheapest design reaching the threshold, when below it and a design
  // space was given; upgrade_note says why there is none otherwise.
  std::optional<DesignOutcome> upgrade;
  std::string upgrade_note;
};

struct ExistingPlan {
  std::string existing;           // the scenario's name
  std::string scenario_file;
  double threshold = 0;
  std::vector<FutureModelOutcome> models;
  std::string recommendation;
};

// `existing_text` is the scenario file's text (its workload and
// simulation sections are replaced per model).
Result<ExistingPlan> PlanExisting(const std::string& scenario_file, const std::string& existing_text,
                                  const FutureModels& models, const Catalog& catalog, const PlanRunOptions& options);

// The cluster of an existing scenario, for ReadFutureModelsFile.
Result<ExistingCluster> ExistingClusterOf(const std::string& scenario_file);

}  // namespace aifabric
