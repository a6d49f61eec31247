// What a run says of training memory: the warning line of a `training`
// entry whose worst stage does not fit the GPU's HBM (on stderr, from
// `aifabric run` and `aifabric validate`; the run still proceeds), and the
// `memory` object of its summary.json entry. Pure functions; thread-safe.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "run/training_fit.h"
#include "scenario/scenario.h"

namespace aifabric {

// "warning: workload.0.training: gpt3-175b needs 412.3 GiB per GPU on
// stage 0 (weights ..., gradients ..., optimizer ..., activations ... GiB),
// more than the H100's 74.5 GiB (80 GB)"; empty when the plan fits.
std::string MemoryWarning(const Scenario& scenario, const Scenario::Training& training, const TrainingMemory& memory);

// The warnings of every training entry, in order; an error when an entry
// cannot be sized (an auto search with no split that fits: the entry's
// error names the closest miss). Entries whose split the memory model
// cannot take are skipped: the run reports them.
Result<std::vector<std::string>> TrainingMemoryWarnings(const Scenario& scenario);

// summary.json's `memory`: weights_bytes, gradients_bytes,
// optimizer_bytes, activations_bytes, total_bytes, hbm_bytes, fits, stage
// (the worst stage, whose figures these are).
nlohmann::ordered_json MemoryJson(const TrainingMemory& memory);

}  // namespace aifabric
