// `aifabric calibrate`: reads nccl-tests logs, fits the collective model's
// figures to them on the named cluster, prints measured against fitted per
// log and size with the cross-validated errors, and writes the fitted
// calibration file.
#include <cstdio>
#include <string>

#include "calibrate/calibration_report.h"
#include "calibrate/collective_fit.h"
#include "calibrate/nccl_tests_log.h"
#include "cli/commands.h"
#include "report/output_folder.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// PATH, or OP=PATH where OP names the collective (all_reduce, alltoall, ...).
Result<NcclTestsLog> ReadLogArgument(const std::string& argument) {
  const size_t eq = argument.find('=');
  if (eq != std::string::npos) {
    Result<CollectiveOp> op = ParseCollectiveOp(argument.substr(0, eq));
    if (op.ok()) return ReadNcclTestsLog(argument.substr(eq + 1), *op);
  }
  return ReadNcclTestsLog(argument);
}

}  // namespace

int CalibrateCommand(const CalibrateOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  ModelOptions model = options.model;
  if (model.model.empty()) model.model = "flow";  // every logged size, many times over: the flow level
  model.AppendOverrides(overrides);
  Result<Scenario> cluster = LoadScenarioFile(options.cluster, overrides);
  if (!cluster.ok()) return ReportBadInput(cluster.error());
  std::vector<NcclTestsLog> logs;
  for (const std::string& argument : options.logs) {
    Result<NcclTestsLog> log = ReadLogArgument(argument);
    if (!log.ok()) return ReportBadInput(log.error());
    logs.push_back(std::move(log).value());
  }
  CalibrationFitOptions fit_options;
  fit_options.cross_validate = !options.no_cross_validation;
  fit_options.max_dag_nodes = options.max_dag_nodes;
  Result<CalibrationFit> fit = FitCollectiveCalibration(*cluster, logs, fit_options);
  if (!fit.ok()) return ReportBadInput(fit.error());
  std::fputs(FormatCalibrationReport(*fit, logs, cluster->name).c_str(), stdout);
  if (!options.out_file.empty()) {
    Status written = WriteFileAtomically(options.out_file, FormatCalibrationFile(*fit, logs, options.cluster));
    if (!written.ok()) return ReportBadInput(written.error());
    std::printf("# wrote %s (name it in a scenario as calibration: %s)\n", options.out_file.c_str(),
                options.out_file.c_str());
  }
  return kExitOk;
}

}  // namespace aifabric
