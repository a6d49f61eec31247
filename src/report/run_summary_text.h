// Human-readable text for the terminal: the summary `aifabric run` prints
// after a run, and the cluster description `aifabric validate` prints.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "run/scenario_run.h"

namespace aifabric {

// `summary` is BuildSummary(run).
std::string FormatRunSummary(const ScenarioRun& run, const nlohmann::ordered_json& summary,
                             const std::string& out_dir);
std::string FormatValidation(const ScenarioRun& run);

}  // namespace aifabric
