// RunScenarioOutputs is what `aifabric run` does once its scenario is
// loaded, and what the server does for a run of kind `run`: it runs the
// scenario — its flows in one simulation, or each of its jobs (training
// steps, Chakra traces, inference services) in its own — writes every
// output file into `out_dir` (report/output_folder.h: all committed at the
// end, none left on failure) and returns the summary the terminal shows.
// One copy for both callers, so the files they write are the same bytes.
// Not thread-safe per call; calls on different scenarios may run at once.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/result.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "scenario/scenario_warnings.h"

namespace aifabric {

// What a run wrote: the terminal summary (FormatRunSummary or
// FormatJobsSummary), and summary.json's text.
struct ScenarioOutputs {
  std::string summary_text;
  std::string summary_json;
};

// `origin` prefixes the errors the run itself finds (the scenario file's
// name, as the CLI was given it). When hooks.cancel is set by the end, the
// run's files are not committed and the Error is "cancelled". `warn` hears
// the traps the scenario walks into (scenario/scenario_warnings.h) before
// it runs, so they show before a long run (summary.json carries them too).
using WarningsHook = std::function<void(const std::vector<ScenarioWarning>&)>;
Result<ScenarioOutputs> RunScenarioOutputs(const Scenario& scenario, const std::string& origin,
                                           const std::string& out_dir, RunHooks hooks, const WarningsHook& warn = {});

}  // namespace aifabric
