// Writers of a run's output folder: summary.json, flows.csv, links.csv and
// fct.txt (the HPCC ns-3 simulator's format). Every file is written to a
// temporary name and renamed into place, so a reader never sees half a
// file. Formats are documented in docs/outputs.md.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/run.h"
#include "core/result.h"

namespace aifabric {

// The figures of summary.json (also printed by `aifabric run`).
nlohmann::ordered_json BuildSummary(const ScenarioRun& run);

// The observability files (docs/observability.md): timeseries.csv (when
// the run was sampled), metrics.prom, trace.json, diagnosis.json and
// report.html, as (name, contents).
Result<std::vector<std::pair<std::string, std::string>>> TelemetryFiles(const ScenarioRun& run,
                                                                         const nlohmann::ordered_json& summary);

// Writes all output files into `dir` (created if needed): the telemetry
// files too unless simulation.telemetry.enabled is false; `summary` is
// BuildSummary(run), built once by the caller, which also prints it.
Status WriteOutputs(const ScenarioRun& run, const nlohmann::ordered_json& summary, const std::string& dir);

// HPCC numbers host n as IP 0x0b000001 + (n / 256) * 0x10000 + (n % 256) * 0x100.
uint32_t HpccIp(int node_id);

// Writes `contents` to `path` atomically (temporary file, then rename).
Status WriteFileAtomically(const std::string& path, const std::string& contents);

}  // namespace aifabric
