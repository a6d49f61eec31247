// A POST /api/runs request made into a run the server can queue:
// ParseRunRequest reads the kind (run | collective | schedule | plan), the
// body (a scenario, YAML or JSON; for plan a requirements file; for
// schedule the scenario and the job trace as multipart/form-data parts
// `scenario` and `trace`) and that command's options as query parameters,
// loads and checks it all as the CLI would (the same messages: file,
// line, field), holds it to the ServeLimits, and returns a RunTask that
// runs it later through the same run/report functions as the CLI
// (docs/serve.md lists the parameters). Nothing runs and nothing is
// written before Execute. Stateless; thread-safe.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "server/live_feed.h"
#include "server/serve_limits.h"

namespace aifabric {

// Relative paths inside a posted scenario (a run's or a what-if's) resolve
// against the server's working directory.
inline constexpr const char* kPostedScenarioBaseDir = ".";

// One kind's work, prepared. Execute runs on a worker thread, once.
class RunTask {
 public:
  virtual ~RunTask() = default;
  // Runs it with `hooks`, writing its files (and its inputs, as received)
  // into `out_dir`; returns the text of its summary file (summary.json, or
  // plan.json for a plan), or an Error. A cancelled run (hooks.cancel set)
  // may return anything; the caller throws it away. A task that publishes
  // more than the hooks carry (an attached fabric's passes) pushes its
  // events to `feed` itself.
  virtual Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks, LiveFeed& feed) = 0;
  // Whether it watches something until it is stopped (an attached fabric,
  // server/observe_task.h) rather than working to an end: it runs on a
  // thread of its own, not a worker, and a cancel or the server stopping
  // ends it done, keeping its files and returning its summary.
  virtual bool RunsUntilStopped() const { return false; }
};

using QueryParams = std::vector<std::pair<std::string, std::string>>;

// The body as received, and its parts when it was multipart/form-data.
struct RequestBody {
  std::string text;
  std::vector<std::pair<std::string, std::string>> parts;  // name -> content
};

struct ParsedRun {
  std::string kind;
  std::string input_sha256;  // of the scenario (or requirements) text
  std::unique_ptr<RunTask> task;
  std::string name;          // an attached fabric's name; "" otherwise
  std::string whatif_of;     // a what-if: the attached fabric's run id; "" otherwise
};

// Errors are the 400 answers: an unknown kind or parameter, the CLI's
// message for a bad scenario or option, or a refused limit. kind=observe
// attaches a real fabric (server/attach_request.h; no other parameter).
Result<ParsedRun> ParseRunRequest(const QueryParams& params, const RequestBody& body, const ServeLimits& limits);

// `name` when it is a plain file name ending in .yaml, .yml or .json
// (letters, digits, . _ -; not starting with a dot): the name a posted file
// is read and kept under (input/NAME). The error names the query
// parameter `name`.
Result<std::string> CheckInputName(const std::string& name);

// A posted scenario loaded as `aifabric run` loads it (with `overrides`,
// each KEY=VALUE as --set takes it), checked for the training memory and
// held to the limits; relative paths resolve against `base_dir`.
Result<Scenario> LoadPostedScenario(const std::string& text, const std::string& origin, const std::string& base_dir,
                                    const std::vector<std::string>& overrides, const ServeLimits& limits);
// The task of kind=run for a scenario so loaded; `text` is kept as
// input/ORIGIN.
std::unique_ptr<RunTask> ScenarioRunTask(Scenario scenario, std::string origin, std::string text);

}  // namespace aifabric
