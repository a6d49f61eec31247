// `aifabric schedule`: replays a job trace on a cluster scenario under one
// policy spec, or several side by side (--compare), and writes the
// summaries, per-job tables and the cluster's scheduler topology files;
// with --packet-window, also that window of the replay at packet level.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli/commands.h"
#include "report/output_folder.h"
#include "report/run_outputs.h"
#include "report/run_summary_text.h"
#include "report/schedule_flags.h"
#include "report/schedule_outputs.h"
#include "report/schedule_report.h"
#include "run/schedule_run.h"
#include "run/schedule_window.h"
#include "scenario/scenario_loader.h"

namespace aifabric {

int ScheduleCommand(const ScheduleOptions& options) {
  Result<Scenario> scenario = LoadScenarioFile(options.cluster, options.overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  Result<std::vector<PolicySpec>> specs = PolicySpecsFromFlags(options.policy, options.compare, *scenario);
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
  const ScheduleRunInfo info{scenario->name, options.trace, scenario->seed, ScenarioWarnings(*scenario)};
  PrintScenarioWarnings(info.warnings);
  const bool comparing = !options.compare.empty();
  OutputFolder out(options.out_dir.empty() ? "out/" + scenario->name + "-schedule" : options.out_dir);
  Result<std::vector<std::string>> notes = WriteScheduleFiles(*run, info, comparing, out);
  if (!notes.ok()) return ReportBadInput(notes.error());
  for (const std::string& note : *notes) std::fprintf(stderr, "aifabric: note: %s\n", note.c_str());
  // The window's files go in a folder of their own, written after the rest.
  OutputFolder window_out(out.dir() + "/" + kPacketWindowFolder);
  nlohmann::ordered_json window_summary;
  if (window_run) {
    window_summary = BuildSummary(*window_run);
    if (Status st = WriteOutputs(*window_run, window_summary, window_out); !st.ok()) return ReportBadInput(st.error());
  }
  if (Status st = out.Commit(); !st.ok()) return ReportBadInput(st.error());
  if (Status st = window_out.Commit(); !st.ok()) return ReportBadInput(st.error());
  if (options.quiet) return kExitOk;

  std::string text = FormatScheduleRunText(*run, info, comparing, out.dir(), out.names());
  if (window_run) {
    text += FormatPacketWindowHeading(*window, run->results.front().window_flows.size());
    text += FormatRunSummary(*window_run, window_summary, window_out.dir());
  }
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
