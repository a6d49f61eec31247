// `aifabric schedule`: replays a job trace on a cluster scenario under one
// policy spec, or several side by side (--compare), and writes the
// summaries, per-job tables and the cluster's scheduler topology files;
// with --packet-window, also that window of the replay at packet level.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/outputs.h"
#include "api/scenario_loader.h"
#include "api/schedule_outputs.h"
#include "api/schedule_report.h"
#include "api/schedule_run.h"
#include "api/schedule_window.h"
#include "cli/commands.h"
#include "cli/summary_printer.h"
#include "core/peak_memory.h"

namespace aifabric {
namespace {

using Files = std::vector<std::pair<std::string, std::string>>;

// The specs the flags ask for; "" for --policy means the scenario's.
Result<std::vector<PolicySpec>> SpecsFromFlags(const ScheduleOptions& options, const Scenario& scenario) {
  if (!options.compare.empty()) {
    Result<std::vector<PolicySpec>> specs = ParsePolicySpecList(options.compare);
    if (!specs.ok()) return Error{"--compare: " + specs.error().message};
    return specs;
  }
  if (options.policy.empty()) return std::vector<PolicySpec>{scenario.scheduling.policy};
  Result<PolicySpec> spec = ParsePolicySpec(options.policy);
  if (!spec.ok()) return Error{"--policy: " + spec.error().message};
  return std::vector<PolicySpec>{std::move(spec).value()};
}

Files ReplayFiles(const ReplayResult& result, const ScheduleRunInfo& info, const std::string& prefix) {
  return {{prefix + kScheduleSummaryFile, ScheduleSummaryJson(result, info).dump(2) + "\n"},
          {prefix + kScheduleJobsFile, ScheduleJobsCsv(result)}};
}

std::string FileList(const Files& files) {
  std::string list;
  for (const auto& [name, contents] : files) {
    if (name.find('/') != std::string::npos) continue;  // a spec's own folder, listed as <spec>/
    list += (list.empty() ? "" : ", ") + name;
  }
  return list;
}

}  // namespace

int ScheduleCommand(const ScheduleOptions& options) {
  Result<Scenario> scenario = LoadScenarioFile(options.cluster, options.overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  Result<std::vector<PolicySpec>> specs = SpecsFromFlags(options, *scenario);
  if (!specs.ok()) return ReportBadInput(specs.error());
  std::optional<PacketWindow> window;
  if (!options.packet_window.empty()) {
    Result<PacketWindow> parsed = ParsePacketWindow(options.packet_window);
    if (!parsed.ok()) return ReportBadInput(parsed.error());
    window = *parsed;
  }
  Result<ScheduleRun> run = RunSchedule(*scenario, options.trace, *specs, window ? &*window : nullptr);
  if (!run.ok()) return ReportBadInput(run.error());
  // The window at packet level, run before anything is written.
  std::unique_ptr<ScenarioRun> window_run;
  if (window) {
    Result<std::unique_ptr<ScenarioRun>> ran = RunPacketWindow(*scenario, run->results.front(), *window);
    if (!ran.ok()) return ReportBadInput(ran.error());
    window_run = std::move(*ran);
  }
  SchedulerTopologyOutput scheduler = SchedulerTopologyFiles(run->fabric.topology, run->fabric.layout);
  for (const std::string& note : scheduler.notes) std::fprintf(stderr, "aifabric: note: %s\n", note.c_str());
  Files& files = scheduler.files;

  // Every file is built before the first is written.
  const ScheduleRunInfo info{scenario->name, options.trace, scenario->seed};
  const bool comparing = !options.compare.empty();
  if (comparing) {
    // One folder per spec, named by it ('+' kept: "topology+crux/").
    for (const ReplayResult& r : run->results) {
      for (auto& file : ReplayFiles(r, info, ResultSpecName(r) + "/")) files.push_back(std::move(file));
    }
    files.emplace_back(kScheduleCompareFile, ScheduleCompareCsv(run->results));
  } else {
    Files own = ReplayFiles(run->results.front(), info, "");
    files.insert(files.begin(), own.begin(), own.end());
  }
  const std::string out_dir = options.out_dir.empty() ? "out/" + scenario->name + "-schedule" : options.out_dir;
  Status written = WriteFilesInto(out_dir, files);
  if (!written.ok()) return ReportBadInput(written.error());
  nlohmann::ordered_json window_summary;
  const std::string window_dir = out_dir + "/" + kPacketWindowFolder;
  if (window_run) {
    window_summary = BuildSummary(*window_run);
    Status st = WriteOutputs(*window_run, window_summary, window_dir);
    if (!st.ok()) return ReportBadInput(st.error());
  }
  if (options.quiet) return kExitOk;

  std::string out = comparing ? FormatScheduleComparison(run->results, info)
                              : FormatScheduleSummary(run->results.front(), info);
  uint64_t events = 0, solves = 0;
  for (const ReplayResult& r : run->results) {
    events += r.metrics.events;
    solves += r.metrics.rate_solves;
  }
  const double wall_s = std::accumulate(run->wall_s.begin(), run->wall_s.end(), 0.0);
  out += fmt::format("  replayed    {} in {:.3f} s wall ({} events, {} rate solves), peak memory {:.0f} MiB\n",
                     comparing ? fmt::format("{} specs", run->results.size()) : std::string("the trace"), wall_s,
                     events, solves, PeakMemoryMiB());
  std::string listed = FileList(files);
  if (comparing) listed = "<spec>/ (summary.json, jobs.csv), " + listed;
  out += fmt::format("  outputs     {}/ ({})\n", out_dir, listed);
  if (window_run) {
    out += fmt::format("\npacket window {:.6f} s + {:.3f} ms of the replay: {} flows at packet level\n",
                       window->start.seconds(), window->duration.seconds() * 1e3,
                       run->results.front().window_flows.size());
    out += FormatRunSummary(*window_run, window_summary, window_dir);
  }
  std::fputs(out.c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
