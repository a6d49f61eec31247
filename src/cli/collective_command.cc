// `aifabric collective`: an nccl-tests compatible sweep on a simulated
// cluster. Prints nccl-tests' table; -J writes its JSON.
#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "api/collective_run.h"
#include "api/outputs.h"
#include "api/scenario_loader.h"
#include "cli/commands.h"
#include "core/peak_memory.h"

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
  if (!options.model.empty()) overrides.push_back("simulation.model=" + options.model);
  if (!options.collectives.empty()) overrides.push_back("simulation.collectives=" + options.collectives);
  Result<Scenario> scenario = options.scenario.empty()
                                  ? LoadScenarioText(DefaultCollectiveScenarioText(), "default collective cluster",
                                                     ".", overrides)
                                  : LoadScenarioFile(options.scenario, overrides);
  if (!scenario.ok()) return ReportBadInput(scenario.error());
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(*scenario, *request);
  if (!sweep.ok()) return ReportBadInput(sweep.error());
  const std::string program = "aifabric collective --op " + options.op;
  std::string out = "# aifabric collective: " + options.op + ", " + std::to_string(sweep->ranks) + " GPUs (" +
                    std::to_string(sweep->ranks_per_server) + " per server), " +
                    std::to_string(sweep->channels) + " channels, algorithm " + options.algorithm + ", protocol " +
                    options.protocol + ", scenario " + scenario->name + " (" + scenario->model + " model, seed " +
                    std::to_string(scenario->seed) + ")\n";
  std::string table = FormatSweepTable(sweep->rows, program);
  // What was timed for each size, as comment lines nccl-tests parsers skip,
  // before the footer.
  std::string chosen = "# aifabric: algorithm/protocol per size:";
  nlohmann::json choices = nlohmann::json::array();
  for (size_t i = 0; i < sweep->rows.size(); ++i) {
    const std::string algo(CollectiveAlgorithmName(ResolveAlgorithm(request->op, sweep->algorithms[i])));
    const std::string proto(CollectiveProtocolName(sweep->protocols[i]));
    chosen.append(" ").append(std::to_string(sweep->rows[i].bytes)).append("=").append(algo).append("/").append(proto);
    choices.push_back({{"size", sweep->rows[i].bytes}, {"algorithm", algo}, {"protocol", proto}});
  }
  chosen += fmt::format("\n# aifabric: simulated in {:.3f} s wall ({} events), peak memory {:.0f} MiB",
                        sweep->wall_seconds, sweep->events, PeakMemoryMiB());
  table.insert(table.find("# Out of bounds"), chosen + "\n");
  out += table;
  std::fputs(out.c_str(), stdout);
  if (!options.json_file.empty()) {
    nlohmann::json about = {{"scenario", scenario->name},
                            {"model", scenario->model},
                            {"seed", scenario->seed},
                            {"algorithm", options.algorithm},
                            {"protocol", options.protocol},
                            {"channels", sweep->channels},
                            {"ranks_per_server", sweep->ranks_per_server},
                            {"choices", std::move(choices)},
                            {"events", sweep->events},
                            {"wall_s", sweep->wall_seconds}};
    const nlohmann::json json = SweepJson(sweep->rows, request->sweep, sweep->ranks, std::move(about));
    Status written = WriteFileAtomically(options.json_file, json.dump(2) + "\n");
    if (!written.ok()) return ReportBadInput(written.error());
  }
  return kExitOk;
}

}  // namespace aifabric
