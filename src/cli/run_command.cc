#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "api/outputs.h"
#include "api/run.h"
#include "api/scenario_loader.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"

namespace aifabric {

int RunCommand(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (!options.model.empty()) overrides.push_back("simulation.model=" + options.model);
  Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) {
    std::fprintf(stderr, "aifabric: error: %s\n", scenario.error().message.c_str());
    return kExitBadInput;
  }
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  if (!run.ok()) {
    std::fprintf(stderr, "aifabric: error: %s: %s\n", options.scenario.c_str(), run.error().message.c_str());
    return kExitBadInput;
  }
  (*run)->Execute();
  const std::string out_dir = options.out_dir.empty() ? "out/" + scenario->name : options.out_dir;
  Status written = WriteOutputs(**run, out_dir);
  if (!written.ok()) {
    std::fprintf(stderr, "aifabric: error: %s\n", written.error().message.c_str());
    return kExitBadInput;
  }
  if (!options.quiet) std::fputs(FormatRunSummary(**run, out_dir).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
