#include "report/collective_outputs.h"

#include <fmt/format.h>

#include "core/peak_memory.h"

namespace aifabric {
namespace {

// "# aifabric: algorithm/protocol per size: 1048576=ring/simple ...", and
// the same as JSON.
std::string ChoicesLine(const CollectiveRequest& request, const CollectiveSweepResult& sweep,
                        nlohmann::json* choices) {
  std::string chosen = "# aifabric: algorithm/protocol per size:";
  for (size_t i = 0; i < sweep.rows.size(); ++i) {
    const std::string algo(CollectiveAlgorithmName(ResolveAlgorithm(request.op, sweep.algorithms[i])));
    const std::string proto(CollectiveProtocolName(sweep.protocols[i]));
    chosen.append(" ").append(std::to_string(sweep.rows[i].bytes)).append("=").append(algo).append("/").append(proto);
    if (choices != nullptr) choices->push_back({{"size", sweep.rows[i].bytes}, {"algorithm", algo}, {"protocol", proto}});
  }
  return chosen;
}

}  // namespace

std::string FormatCollectiveSweep(const Scenario& scenario, const CollectiveRequest& request,
                                  const CollectiveSweepResult& sweep, const CollectiveLabels& labels) {
  const std::string program = "aifabric collective --op " + labels.op;
  std::string out = "# aifabric collective: " + labels.op + ", " + std::to_string(sweep.ranks) + " GPUs (" +
                    std::to_string(sweep.ranks_per_server) + " per server), " + std::to_string(sweep.channels) +
                    " channels, algorithm " + labels.algorithm + ", protocol " + labels.protocol + ", scenario " +
                    scenario.name + " (" + ModelKindName(scenario.model) + " model, seed " +
                    std::to_string(scenario.seed) + ")\n";
  std::string table = FormatSweepTable(sweep.rows, program);
  // What was timed for each size, as comment lines, before the footer.
  std::string chosen = ChoicesLine(request, sweep, nullptr);
  chosen += fmt::format("\n# aifabric: simulated in {:.3f} s wall ({} events), peak memory {:.0f} MiB",
                        sweep.wall_seconds, sweep.events, PeakMemoryMiB());
  table.insert(table.find("# Out of bounds"), chosen + "\n");
  return out + table;
}

nlohmann::json CollectiveSweepFileJson(const Scenario& scenario, const CollectiveRequest& request,
                                       const CollectiveSweepResult& sweep, const CollectiveLabels& labels) {
  nlohmann::json choices = nlohmann::json::array();
  ChoicesLine(request, sweep, &choices);
  nlohmann::json about = {{"scenario", scenario.name},
                          {"model", ModelKindName(scenario.model)},
                          {"seed", scenario.seed},
                          {"algorithm", labels.algorithm},
                          {"protocol", labels.protocol},
                          {"channels", sweep.channels},
                          {"ranks_per_server", sweep.ranks_per_server},
                          {"choices", std::move(choices)},
                          {"events", sweep.events},
                          {"wall_s", sweep.wall_seconds}};
  return SweepJson(sweep.rows, request.sweep, sweep.ranks, std::move(about));
}

}  // namespace aifabric
