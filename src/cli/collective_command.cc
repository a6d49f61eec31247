// `aifabric collective`: an nccl-tests compatible sweep on a simulated
// cluster. Prints nccl-tests' table; -J writes its JSON.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "report/collective_outputs.h"
#include "report/output_folder.h"
#include "run/collective_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

Result<uint64_t> SizeArgument(const char* flag, const std::string& text) {
  Result<uint64_t> v = ParseNcclTestsSize(text);
  if (!v.ok()) return Error{std::string(flag) + ": " + v.error().message};
  return v;
}

// The request from the command line; errors name the flag.
Result<CollectiveRequest> MakeRequest(const CollectiveCommandOptions& o) {
  CollectiveRequest r;
  Result<CollectiveOp> op = ParseCollectiveOp(o.op);
  if (!op.ok()) return Error{"--op: " + op.error().message};
  r.op = *op;
  if (o.algorithm != "auto") {
    Result<CollectiveAlgorithm> algo = ParseCollectiveAlgorithm(o.algorithm);
    if (!algo.ok()) return Error{"--algo: " + algo.error().message + " or auto"};
    r.algorithm = *algo;
  }
  if (o.protocol != "auto") {
    Result<CollectiveProtocol> proto = ParseCollectiveProtocol(o.protocol);
    if (!proto.ok()) return Error{"--proto: " + proto.error().message + " or auto"};
    r.protocol = *proto;
  }
  Result<uint64_t> min = SizeArgument("-b", o.min_bytes), max = SizeArgument("-e", o.max_bytes);
  if (!min.ok()) return min.error();
  if (!max.ok()) return max.error();
  r.sweep.min_bytes = *min;
  r.sweep.max_bytes = *max;
  if (!o.step_bytes.empty()) {
    Result<uint64_t> step = SizeArgument("-i", o.step_bytes);
    if (!step.ok()) return step.error();
    r.sweep.step_bytes = *step;
    r.sweep.step_factor = 1;
  } else {
    r.sweep.step_factor = o.step_factor;
  }
  if (!o.chunk_bytes.empty()) {
    Result<uint64_t> chunk = SizeArgument("--chunk", o.chunk_bytes);
    if (!chunk.ok()) return chunk.error();
    r.chunk_bytes = *chunk;
  }
  r.gpus = o.gpus;
  r.channels = o.channels;
  r.pxn = !o.no_pxn;
  r.root = o.root;
  r.data_check = o.check != 0;
  return r;
}

}  // namespace

int CollectiveCommand(const CollectiveCommandOptions& options) {
  Result<CollectiveRequest> request = MakeRequest(options);
  if (!request.ok()) return ReportBadInput(request.error());
  std::vector<std::string> overrides = options.overrides;
  options.model.AppendOverrides(overrides);
  Result<Scenario> scenario = options.scenario.empty()
                                  ? LoadScenarioText(DefaultCollectiveScenarioText(), "default collective cluster",
                                                     ".", overrides)
                                  : LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  PrintScenarioWarnings(ScenarioWarnings(*scenario));
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(*scenario, *request);
  if (!sweep.ok()) return ReportBadInput(sweep.error());
  const CollectiveLabels labels{options.op, options.algorithm, options.protocol};
  std::fputs(FormatCollectiveSweep(*scenario, *request, *sweep, labels).c_str(), stdout);
  if (!options.json_file.empty()) {
    const nlohmann::json json = CollectiveSweepFileJson(*scenario, *request, *sweep, labels);
    Status written = WriteFileAtomically(options.json_file, json.dump(2) + "\n");
    if (!written.ok()) return ReportBadInput(written.error());
  }
  return kExitOk;
}

}  // namespace aifabric
