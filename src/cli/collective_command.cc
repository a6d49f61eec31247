// `aifabric collective`: an nccl-tests compatible sweep on a simulated
// cluster. Prints nccl-tests' table; -J writes its JSON.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "report/collective_outputs.h"
#include "report/collective_request.h"
#include "report/output_folder.h"
#include "run/collective_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {

int CollectiveCommand(const CollectiveCommandOptions& options) {
  Result<CollectiveRequest> request = CollectiveRequestFrom(options);
  if (!request.ok()) return ReportBadInput(request.error());
  std::vector<std::string> overrides = options.overrides;
  options.model.AppendOverrides(overrides);
  Result<Scenario> scenario = options.scenario.empty()
                                  ? LoadScenarioText(DefaultCollectiveScenarioText(), "default collective cluster",
                                                     ".", overrides)
                                  : LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  Result<CostBounds> bounds = options.cost.Bounds();
  if (!bounds.ok()) return ReportBadInput(bounds.error());
  const std::string origin = options.scenario.empty() ? "default collective cluster" : options.scenario;
  if (int code = options.cost.Check(EstimateCollectiveCost(*scenario, *request, *bounds), origin); code != kExitOk) {
    return code;
  }
  PrintScenarioWarnings(ScenarioWarnings(*scenario));
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(*scenario, *request);
  if (!sweep.ok()) return ReportBadInput(sweep.error());
  const CollectiveLabels labels = options.labels();
  std::fputs(FormatCollectiveSweep(*scenario, *request, *sweep, labels).c_str(), stdout);
  if (!options.json_file.empty()) {
    const nlohmann::json json = CollectiveSweepFileJson(*scenario, *request, *sweep, labels);
    Status written = WriteFileAtomically(options.json_file, json.dump(2) + "\n");
    if (!written.ok()) return ReportBadInput(written.error());
  }
  return kExitOk;
}

}  // namespace aifabric
