#include <cstdio>
#include <string>

#include "api/outputs.h"
#include "api/run.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"

namespace aifabric {

int RunCommand(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (!options.model.empty()) overrides.push_back("simulation.model=" + options.model);
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::PrepareFile(options.scenario, overrides);
  if (!run.ok()) return ReportBadInput(run.error());
  (*run)->Execute();
  const std::string out_dir = options.out_dir.empty() ? "out/" + (*run)->scenario().name : options.out_dir;
  const nlohmann::ordered_json summary = BuildSummary(**run);
  Status written = WriteOutputs(**run, summary, out_dir);
  if (!written.ok()) return ReportBadInput(written.error());
  if (!options.quiet) std::fputs(FormatRunSummary(**run, summary, out_dir).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
