// The outputs of a job run (`aifabric run` with `training`, `chakra` or
// `inference` workload entries): summary.json's fields and the printed summary.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/chakra_run.h"
#include "api/inference_run.h"
#include "api/scenario.h"
#include "api/training_run.h"

namespace aifabric {

// summary.json: scenario, model, seed, sim_time_ns, wall_s, events, one
// `training` entry per step run and one `chakra` entry per trace set
// (docs/outputs.md).
nlohmann::ordered_json JobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                                   const std::vector<ChakraRunResult>& traces,
                                   const std::vector<InferenceRunResult>& serving);

// The lines `aifabric run` prints for a job run.
std::string FormatJobsSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                              const std::vector<ChakraRunResult>& traces,
                              const std::vector<InferenceRunResult>& serving, const std::string& out_dir);

}  // namespace aifabric
