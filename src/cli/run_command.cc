#include <cstdio>
#include <filesystem>
#include <string>

#include "api/outputs.h"
#include "api/run.h"
#include "api/scenario_loader.h"
#include "api/chakra_run.h"
#include "api/inference_run.h"
#include "api/training_outputs.h"
#include "api/training_run.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"

namespace aifabric {
namespace {

// A scenario whose workload is jobs (training steps, Chakra traces): each
// runs in its own simulation of the scenario's fabric.
int RunJobs(const Scenario& scenario, const RunOptions& options) {
  if (!scenario.workload.empty()) {
    return ReportBadInput(Error{options.scenario +
                                ": workload: jobs (training, chakra) and flows in one run are not supported yet; "
                                "give them in separate scenarios"});
  }
  std::vector<TrainingRunResult> runs;
  for (const Scenario::Training& t : scenario.trainings) {
    Result<TrainingRunResult> r = RunTrainingStep(scenario, t);
    if (!r.ok()) return ReportBadInput(Error{options.scenario + ": " + r.error().message});
    runs.push_back(std::move(r).value());
  }
  std::vector<ChakraRunResult> traces;
  for (const Scenario::ChakraJob& job : scenario.chakras) {
    Result<ChakraRunResult> r = RunChakraJob(scenario, job);
    if (!r.ok()) return ReportBadInput(Error{options.scenario + ": " + r.error().message});
    traces.push_back(std::move(r).value());
  }
  std::vector<InferenceRunResult> serving;
  for (const Scenario::Inference& inf : scenario.inferences) {
    Result<InferenceRunResult> r = RunInferenceService(scenario, inf);
    if (!r.ok()) return ReportBadInput(Error{options.scenario + ": " + r.error().message});
    serving.push_back(std::move(r).value());
  }
  const std::string out_dir = options.out_dir.empty() ? "out/" + scenario.name : options.out_dir;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return ReportBadInput(Error{"cannot create " + out_dir + ": " + ec.message()});
  // requests.csv: the first serving entry's requests (one entry per scenario
  // is the common case).
  if (!serving.empty()) {
    Status csv = WriteFileAtomically(out_dir + "/requests.csv", InferenceRequestsCsv(serving.front().result));
    if (!csv.ok()) return ReportBadInput(csv.error());
  }
  Status written =
      WriteFileAtomically(out_dir + "/summary.json", JobsSummary(scenario, runs, traces, serving).dump(2) + "\n");
  if (!written.ok()) return ReportBadInput(written.error());
  if (!options.quiet) std::fputs(FormatJobsSummary(scenario, runs, traces, serving, out_dir).c_str(), stdout);
  return kExitOk;
}

}  // namespace

int RunCommand(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (!options.model.empty()) overrides.push_back("simulation.model=" + options.model);
  Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  if (!scenario->trainings.empty() || !scenario->chakras.empty() || !scenario->inferences.empty()) {
    return RunJobs(*scenario, options);
  }
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  if (!run.ok()) return ReportBadInput(Error{options.scenario + ": " + run.error().message});
  (*run)->Execute();
  const std::string out_dir = options.out_dir.empty() ? "out/" + (*run)->scenario().name : options.out_dir;
  const nlohmann::ordered_json summary = BuildSummary(**run);
  Status written = WriteOutputs(**run, summary, out_dir);
  if (!written.ok()) return ReportBadInput(written.error());
  if (!options.quiet) std::fputs(FormatRunSummary(**run, summary, out_dir).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
