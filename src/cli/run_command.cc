#include <cstdio>
#include <filesystem>
#include <string>

#include "api/outputs.h"
#include "api/run.h"
#include "api/scenario_loader.h"
#include "api/compare.h"
#include "api/inference_run.h"
#include "api/job_outputs.h"
#include "api/training_run.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"
#include "telemetry/metrics_server.h"
#include "telemetry/progress_reporter.h"

namespace aifabric {
namespace {

// A scenario whose workload is jobs (training steps, Chakra traces,
// inference serving): each runs in its own simulation of the fabric.
int RunJobScenario(const Scenario& scenario, const RunOptions& options, MetricsServer* server) {
  Result<JobRuns> runs = RunJobs(scenario, LiveHooks{server, !options.quiet});
  if (!runs.ok()) return ReportBadInput(Error{options.scenario + ": " + runs.error().message});
  const std::string out_dir = options.out_dir.empty() ? "out/" + scenario.name : options.out_dir;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return ReportBadInput(Error{"cannot create " + out_dir + ": " + ec.message()});
  // requests.csv: the first serving entry's requests (one entry per scenario
  // is the common case).
  if (!runs->inference.empty()) {
    Status csv = WriteFileAtomically(out_dir + "/requests.csv", InferenceRequestsCsv(runs->inference.front().result));
    if (!csv.ok()) return ReportBadInput(csv.error());
  }
  // The observability files of each job run: the first's as named, a later
  // one's with its index before the extension (trace.1.json).
  std::vector<const std::vector<std::pair<std::string, std::string>>*> telemetry;
  for (const TrainingRunResult& t : runs->training) telemetry.push_back(&t.telemetry_files);
  for (const ChakraRunResult& c : runs->chakra) telemetry.push_back(&c.run.telemetry_files);
  for (const InferenceRunResult& i : runs->inference) telemetry.push_back(&i.telemetry_files);
  for (size_t k = 0; k < telemetry.size(); ++k) {
    for (const auto& [name, contents] : *telemetry[k]) {
      std::string file = name;
      if (k > 0) {
        std::string index = ".";  // appended, not "." + string (GCC 12 -Wrestrict)
        index += std::to_string(k);
        file.insert(file.rfind('.'), index);
      }
      Status st = WriteFileAtomically(out_dir + "/" + file, contents);
      if (!st.ok()) return ReportBadInput(st.error());
    }
  }
  const nlohmann::ordered_json summary = JobsSummary(scenario, runs->training, runs->chakra, runs->inference);
  Status written = WriteFileAtomically(out_dir + "/summary.json", summary.dump(2) + "\n");
  if (!written.ok()) return ReportBadInput(written.error());
  if (!options.quiet) {
    std::fputs(FormatJobsSummary(scenario, runs->training, runs->chakra, runs->inference, out_dir).c_str(), stdout);
  }
  return kExitOk;
}

}  // namespace

int RunCommand(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  if (!options.model.empty()) overrides.push_back("simulation.model=" + options.model);
  if (!options.collectives.empty()) overrides.push_back("simulation.collectives=" + options.collectives);
  if (options.no_telemetry) overrides.push_back("simulation.telemetry.enabled=false");
  Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  std::unique_ptr<MetricsServer> server;
  if (options.metrics_port >= 0) {
    if (!scenario->telemetry.enabled) {
      return ReportBadInput(Error{"--metrics-port needs telemetry (drop --no-telemetry / simulation.telemetry.enabled: false)"});
    }
    Result<std::unique_ptr<MetricsServer>> started = MetricsServer::Start(options.metrics_port);
    if (!started.ok()) return ReportBadInput(Error{"--metrics-port: " + started.error().message});
    server = std::move(started).value();
    if (!options.quiet) std::fprintf(stderr, "aifabric: metrics on http://127.0.0.1:%d/metrics\n", server->port());
  }
  if (HasJobs(*scenario)) return RunJobScenario(*scenario, options, server.get());
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*scenario);
  if (!run.ok()) return ReportBadInput(Error{options.scenario + ": " + run.error().message});
  if (server) (*run)->ServeMetrics(server.get());
  {
    std::unique_ptr<ProgressReporter> progress;
    if (!options.quiet) progress = std::make_unique<ProgressReporter>((*run)->mutable_sim(), (*run)->ProgressOptionsFor());
    (*run)->Execute();
    if (progress) progress->Finish();
  }
  const std::string out_dir = options.out_dir.empty() ? "out/" + (*run)->scenario().name : options.out_dir;
  const nlohmann::ordered_json summary = BuildSummary(**run);
  Status written = WriteOutputs(**run, summary, out_dir);
  if (!written.ok()) return ReportBadInput(written.error());
  if (!options.quiet) std::fputs(FormatRunSummary(**run, summary, out_dir).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
