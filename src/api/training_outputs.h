// The outputs of a training run (`aifabric run` with `training` workload
// entries): summary.json's fields and the printed summary.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/scenario.h"
#include "api/training_run.h"

namespace aifabric {

// summary.json: scenario, model, seed, sim_time_ns, wall_s, events and one
// `training` entry per step run (docs/outputs.md).
nlohmann::ordered_json TrainingSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs);

// The lines `aifabric run` prints for a training run.
std::string FormatTrainingSummary(const Scenario& scenario, const std::vector<TrainingRunResult>& runs,
                                  const std::string& out_dir);

}  // namespace aifabric
