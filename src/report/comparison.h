// One scenario under several network models, side by side (`aifabric
// compare`): each model's run, its headline figures (flows: completion
// times, slowdown, utilization; training: step time, MFU, utilization,
// exposed communication; inference: TTFT, TPOT, goodput; traces: job time)
// and their differences from the first model. Not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "scenario/scenario.h"

namespace aifabric {

// What `aifabric run` writes as summary.json, without writing anything.
Result<nlohmann::ordered_json> SummaryOf(const Scenario& scenario);

struct ComparedMetric {
  std::string name;                         // e.g. "flows.fct_ns.p99"
  std::vector<std::optional<double>> values;  // per model; empty where a summary lacks it
};
// The headline metrics present in the first summary, read from each.
std::vector<ComparedMetric> HeadlineMetrics(const std::vector<nlohmann::ordered_json>& summaries);

// The table `aifabric compare` prints: a metric per line, a value per model
// and, after the first, its difference from the first in percent.
std::string FormatComparison(const std::vector<std::string>& models, const std::vector<ComparedMetric>& metrics,
                             const std::vector<double>& wall_seconds);
nlohmann::ordered_json ComparisonJson(const std::string& scenario, const std::vector<std::string>& models,
                                      const std::vector<ComparedMetric>& metrics,
                                      const std::vector<double>& wall_seconds);

}  // namespace aifabric
