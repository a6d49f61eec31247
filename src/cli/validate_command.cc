#include <cstdio>
#include <string>

#include "api/outputs.h"
#include "api/run.h"
#include "api/scenario_loader.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"
#include "fabric/dot_writer.h"
#include "fabric/topology_report.h"

namespace aifabric {

int ValidateCommand(const ValidateOptions& options) {
  Result<Scenario> scenario = LoadScenarioFile(options.scenario, options.overrides);
  if (!scenario.ok()) {
    std::fprintf(stderr, "aifabric: error: %s\n", scenario.error().message.c_str());
    return kExitBadInput;
  }
  // Preparing builds the topology and every flow, so all input is checked.
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  if (!run.ok()) {
    std::fprintf(stderr, "aifabric: error: %s: %s\n", options.scenario.c_str(), run.error().message.c_str());
    return kExitBadInput;
  }
  if (!options.dot_file.empty()) {
    Status written = WriteFileAtomically(options.dot_file, ToDot((*run)->topology()));
    if (!written.ok()) {
      std::fprintf(stderr, "aifabric: error: --dot: %s\n", written.error().message.c_str());
      return kExitBadInput;
    }
  }
  std::fputs(FormatValidation(**run).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
