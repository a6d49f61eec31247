// `aifabric run`: runs a scenario — its flows in one simulation, or each of
// its jobs (training steps, Chakra traces, inference services) in its own —
// and writes its outputs; with --metrics-port, serves the counters live.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "report/job_outputs.h"
#include "report/live_metrics.h"
#include "report/output_folder.h"
#include "report/run_outputs.h"
#include "report/run_summary_text.h"
#include "report/training_memory_text.h"
#include "run/job_runs.h"
#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// A scenario whose workload is jobs: each runs in its own simulation of the
// fabric, and its files are written as soon as it is done.
int RunJobScenario(const Scenario& scenario, const RunOptions& options, RunHooks hooks) {
  OutputFolder out(options.out_dir.empty() ? "out/" + scenario.name : options.out_dir);
  JobFilesWriter writer(scenario, out);
  hooks.report = &writer;
  Result<JobRuns> runs = RunJobs(scenario, hooks);
  if (!runs.ok()) return ReportBadInput(Error{options.scenario + ": " + runs.error().message});
  const nlohmann::ordered_json summary = JobsSummary(scenario, runs->training, runs->chakra, runs->inference);
  if (Status st = out.Write("summary.json", summary.dump(2) + "\n"); !st.ok()) return ReportBadInput(st.error());
  if (Status st = out.Commit(); !st.ok()) return ReportBadInput(st.error());
  if (!options.quiet) {
    std::fputs(
        FormatJobsSummary(scenario, runs->training, runs->chakra, runs->inference, out.dir(), writer.written()).c_str(),
        stdout);
  }
  return kExitOk;
}

}  // namespace

int RunCommand(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  options.model.AppendOverrides(overrides);
  if (options.no_telemetry) overrides.push_back("simulation.telemetry.enabled=false");
  Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  // A training plan that does not fit in HBM is warned about and still runs.
  Result<std::vector<std::string>> warnings = TrainingMemoryWarnings(*scenario);
  if (!warnings.ok()) return ReportBadInput(Error{options.scenario + ": " + warnings.error().message});
  PrintWarnings(*warnings);
  std::unique_ptr<LiveMetrics> live;
  RunHooks hooks;
  hooks.progress = !options.quiet;
  if (options.metrics_port >= 0) {
    if (!scenario->telemetry.enabled) {
      return ReportBadInput(Error{"--metrics-port needs telemetry (drop --no-telemetry / simulation.telemetry.enabled: false)"});
    }
    Result<std::unique_ptr<LiveMetrics>> started = LiveMetrics::Start(options.metrics_port);
    if (!started.ok()) return ReportBadInput(Error{"--metrics-port: " + started.error().message});
    live = std::move(started).value();
    hooks = live->Hooks(!options.quiet);
    if (!options.quiet) std::fprintf(stderr, "aifabric: metrics on http://127.0.0.1:%d/metrics\n", live->port());
  }
  if (HasJobs(*scenario)) {
    PrintScenarioWarnings(ScenarioWarnings(*scenario));
    return RunJobScenario(*scenario, options, hooks);
  }
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  if (!run.ok()) return ReportBadInput(Error{options.scenario + ": " + run.error().message});
  PrintScenarioWarnings((*run)->warnings());
  (*run)->Execute(hooks);
  OutputFolder out(options.out_dir.empty() ? "out/" + (*run)->scenario().name : options.out_dir);
  const nlohmann::ordered_json summary = BuildSummary(**run);
  if (Status st = WriteOutputs(**run, summary, out); !st.ok()) return ReportBadInput(st.error());
  if (Status st = out.Commit(); !st.ok()) return ReportBadInput(st.error());
  if (!options.quiet) std::fputs(FormatRunSummary(**run, summary, out.dir()).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
