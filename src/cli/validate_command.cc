#include <cstdio>
#include <string>

#include "api/outputs.h"
#include "api/run.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"
#include "fabric/dot_writer.h"
#include "fabric/ibsim_netfile_writer.h"

namespace aifabric {

int ValidateCommand(const ValidateOptions& options) {
  // Preparing builds the topology and every flow, so all input is checked.
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::PrepareFile(options.scenario, options.overrides);
  if (!run.ok()) return ReportBadInput(run.error());
  if (!options.dot_file.empty()) {
    Status written = WriteFileAtomically(options.dot_file, ToDot((*run)->topology()));
    if (!written.ok()) return ReportBadInput(Error{"--dot: " + written.error().message});
  }
  if (!options.ibsim_file.empty()) {
    Status written = WriteFileAtomically(options.ibsim_file, WriteIbsimNetFile((*run)->topology()));
    if (!written.ok()) return ReportBadInput(Error{"--ibsim: " + written.error().message});
  }
  std::fputs(FormatValidation(**run).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
