// `aifabric run`: runs a scenario — its flows in one simulation, or each of
// its jobs (training steps, Chakra traces, inference services) in its own —
// and writes its outputs; with --metrics-port, serves the counters live
// (and, with --metrics-linger, the final ones for a while after the end).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "cli/commands.h"
#include "core/units.h"
#include "report/live_metrics.h"
#include "report/scenario_outputs.h"
#include "report/training_memory_text.h"
#include "scenario/scenario_loader.h"

namespace aifabric {

int RunCommand(const RunOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  options.model.AppendOverrides(overrides);
  if (options.no_telemetry) overrides.push_back("simulation.telemetry.enabled=false");
  if (options.no_fault_baseline) overrides.push_back("simulation.fault_baseline=false");
  Result<Scenario> scenario = LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  // Refused before anything runs or is written when its estimated cost is
  // over --max-events or --max-memory.
  Result<CostBounds> bounds = options.cost.Bounds();
  if (!bounds.ok()) return ReportBadInput(bounds.error());
  if (int code = options.cost.Check(EstimateRunCost(*scenario, *bounds), options.scenario); code != kExitOk) {
    return code;
  }
  // A training plan that does not fit in HBM is warned about and still runs.
  Result<std::vector<std::string>> warnings = TrainingMemoryWarnings(*scenario);
  if (!warnings.ok()) return ReportBadInput(Error{options.scenario + ": " + warnings.error().message});
  PrintWarnings(*warnings);
  std::unique_ptr<LiveMetrics> live;
  RunHooks hooks;
  hooks.progress = !options.quiet;
  Result<Time> linger = ParseTime(options.metrics_linger);
  if (!linger.ok()) return ReportBadInput(Error{"--metrics-linger: " + linger.error().message});
  if (*linger > Time::Zero() && options.metrics_port < 0) {
    return ReportBadInput(Error{"--metrics-linger needs --metrics-port (there is nothing to serve without it)"});
  }
  if (*linger > Time::FromSeconds(86400)) {
    return ReportBadInput(Error{"--metrics-linger: at most 1 day (86400s), got '" + options.metrics_linger + "'"});
  }
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
  hooks.threads = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const std::string out_dir = options.out_dir.empty() ? "out/" + scenario->name : options.out_dir;
  Result<ScenarioOutputs> outputs = RunScenarioOutputs(*scenario, options.scenario, out_dir, hooks, PrintScenarioWarnings);
  if (!outputs.ok()) return ReportBadInput(outputs.error());
  if (!options.quiet) std::fputs(outputs->summary_text.c_str(), stdout);
  if (live && *linger > Time::Zero()) {
    if (!options.quiet) {
      std::fprintf(stderr, "aifabric: serving the final metrics for %s more\n", options.metrics_linger.c_str());
    }
    std::fflush(stdout);
    std::this_thread::sleep_for(std::chrono::nanoseconds(linger->ps() / 1000));
  }
  return kExitOk;
}

}  // namespace aifabric
