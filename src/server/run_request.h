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
#include "server/serve_limits.h"

namespace aifabric {

// One kind's work, prepared. Execute runs on a worker thread, once.
class RunTask {
 public:
  virtual ~RunTask() = default;
  // Runs it with `hooks`, writing its files (and its inputs, as received)
  // into `out_dir`; returns the text of its summary file (summary.json, or
  // plan.json for a plan), or an Error. A cancelled run (hooks.cancel set)
  // may return anything; the caller throws it away.
  virtual Result<std::string> Execute(const std::string& out_dir, const RunHooks& hooks) = 0;
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
};

// Errors are the 400 answers: an unknown kind or parameter, the CLI's
// message for a bad scenario or option, or a refused limit.
Result<ParsedRun> ParseRunRequest(const QueryParams& params, const RequestBody& body, const ServeLimits& limits);

}  // namespace aifabric
