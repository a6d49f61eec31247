// The outputs of a flows run (ScenarioRun): summary.json, flows.csv,
// links.csv and fct.txt (the HPCC ns-3 simulator's format) and, unless
// telemetry is off, the observability files (report/telemetry_outputs.h),
// written into an OutputFolder. Formats are documented in docs/outputs.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "report/output_folder.h"
#include "run/scenario_run.h"

namespace aifabric {

// The figures of summary.json (also printed by `aifabric run`).
nlohmann::ordered_json BuildSummary(const ScenarioRun& run);

// summary.json's `warnings`: [{trap, field, message}, ...], empty when none.
nlohmann::ordered_json WarningsJson(const std::vector<ScenarioWarning>& warnings);

// Writes every output file into `out` (committed by the caller): the
// telemetry files too unless simulation.telemetry.enabled is false;
// `summary` is BuildSummary(run), built once by the caller, which also
// prints it.
Status WriteOutputs(const ScenarioRun& run, const nlohmann::ordered_json& summary, OutputFolder& out);

// HPCC numbers host n as IP 0x0b000001 + (n / 256) * 0x10000 + (n % 256) * 0x100.
uint32_t HpccIp(int node_id);

}  // namespace aifabric
