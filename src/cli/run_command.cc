// `aifabric run`: runs a scenario — its flows in one simulation, or each of
// its jobs (training steps, Chakra traces, inference services) in its own —
// and writes its outputs; with --metrics-port, serves the counters live
// (and, with --metrics-linger, the final ones for a while after the end).
#include <algorithm>
#include <atomic>
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
  const Result<RunCost> cost = EstimateRunCost(*scenario, *bounds);
  if (int code = options.cost.Check(cost, options.scenario); code != kExitOk) return code;
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
  // --max-events holds while the run goes, too: the estimate is an order of
  // magnitude and does not count a tenant's `duration` repeats
  // (run/run_cost.h), so a simulation that processes more events than the
  // bound stops the run there (within a heartbeat, 1,024 events; with
  // --metrics-port, within its publishing interval), and nothing is written.
  std::atomic<bool> stop{false};
  RunProgress over;  // where the bound was passed; events 0: it was not
  if (bounds->max_events > 0) {
    hooks.cancel = &stop;
    if (!live) hooks.publish_every = std::chrono::milliseconds(0);
    hooks.on_progress = [previous = hooks.on_progress, &stop, &over,
                         limit = bounds->max_events](const RunProgress& p) {
      if (previous) previous(p);
      if (p.events > limit && over.events == 0) {
        over = p;
        stop = true;
      }
    };
  }
  const std::string out_dir = options.out_dir.empty() ? "out/" + scenario->name : options.out_dir;
  Result<ScenarioOutputs> outputs = RunScenarioOutputs(*scenario, options.scenario, out_dir, hooks, PrintScenarioWarnings);
  if (over.events > 0) {
    return ReportBadInput(Error{
        options.scenario + ": a simulation had processed " + FormatEstimate(static_cast<double>(over.events)) +
        " events by " + FormatTime(over.sim_time) + " simulated, over --max-events " +
        FormatEstimate(static_cast<double>(bounds->max_events)) + " (estimated before the run: " +
        (cost.ok() ? FormatEstimate(cost->events) : std::string("unknown")) +
        ", which does not count a tenant's `duration` repeats); stopped, nothing written. Raise --max-events, "
        "or give a repeating tenant `steps` instead of `duration`"});
  }
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
