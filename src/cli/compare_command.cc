// `aifabric compare`: one scenario under several network models, its
// headline figures side by side with their differences.
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "report/comparison.h"
#include "report/output_folder.h"
#include "scenario/scenario_loader.h"

namespace aifabric {

int CompareCommand(const CompareOptions& options) {
  std::vector<std::string> models;
  std::stringstream list(options.models);
  for (std::string m; std::getline(list, m, ',');) {
    if (!ModelKindNamed(m)) {
      return ReportBadInput(Error{"--models: unknown model '" + m + "' (expected packet, flow, analytic)"});
    }
    models.push_back(m);
  }
  if (models.empty()) return ReportBadInput(Error{"--models: give at least one of packet, flow, analytic"});
  Result<CostBounds> bounds = options.cost.Bounds();
  if (!bounds.ok()) return ReportBadInput(bounds.error());
  // Every model's run is held to the bounds before the first one starts.
  for (const std::string& model : models) {
    std::vector<std::string> overrides = options.overrides;
    overrides.push_back("simulation.model=" + model);
    Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
    if (!scenario.ok()) return ReportBadInput(scenario.error());
    if (int code = options.cost.Check(EstimateRunCost(*scenario, *bounds), options.scenario); code != kExitOk) {
      return code;
    }
  }
  std::vector<nlohmann::ordered_json> summaries;
  std::vector<double> walls;
  std::string name;
  for (const std::string& model : models) {
    std::vector<std::string> overrides = options.overrides;
    overrides.push_back("simulation.model=" + model);
    Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
    if (!scenario.ok()) return ReportBadInput(scenario.error());
    if (&model == &models.front()) PrintScenarioWarnings(ScenarioWarnings(*scenario));
    name = scenario->name;
    const auto start = std::chrono::steady_clock::now();
    Result<nlohmann::ordered_json> summary = SummaryOf(*scenario);
    if (!summary.ok()) return ReportBadInput(Error{options.scenario + ": " + summary.error().message});
    walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    summaries.push_back(std::move(summary).value());
  }
  const std::vector<ComparedMetric> metrics = HeadlineMetrics(summaries);
  std::printf("aifabric compare — %s\n%s", name.c_str(), FormatComparison(models, metrics, walls).c_str());
  if (!options.json_file.empty()) {
    Status written = WriteFileAtomically(options.json_file, ComparisonJson(name, models, metrics, walls).dump(2) + "\n");
    if (!written.ok()) return ReportBadInput(written.error());
  }
  return kExitOk;
}

}  // namespace aifabric
