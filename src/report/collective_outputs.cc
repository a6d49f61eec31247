#include "report/collective_outputs.h"

#include <fmt/format.h>

#include "core/peak_memory.h"
#include "report/faults_json.h"

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

// Per size with faults, each fault as that size's simulation saw it:
// "# aifabric: size 1048576: link_down leaf0-spine0 at 50.000 us, 12
// packets lost, 49152 bytes resent" lines, and [{size, faults}] as JSON.
std::string FaultLines(const CollectiveSweepResult& sweep, nlohmann::json* faults) {
  std::string lines;
  for (size_t i = 0; i < sweep.rows.size() && i < sweep.faults.size(); ++i) {
    if (sweep.faults[i].empty()) continue;
    const nlohmann::ordered_json list = FaultsJson(sweep.faults[i]);
    for (const auto& f : list) {
      lines += fmt::format("\n# aifabric: size {}: fault {} {} at {:.3f} us, {} packets lost, {} bytes resent",
                           sweep.rows[i].bytes, f["kind"].get<std::string>(), f["name"].get<std::string>(),
                           f["at_ns"].get<double>() / 1000.0, f["packets_lost"].get<uint64_t>(),
                           f["bytes_resent"].get<uint64_t>());
    }
    if (faults != nullptr) {
      faults->push_back({{"size", sweep.rows[i].bytes}, {"faults", nlohmann::json::parse(list.dump())}});
    }
  }
  return lines;
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
  chosen += FaultLines(sweep, nullptr);
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
  nlohmann::json faults = nlohmann::json::array();
  FaultLines(sweep, &faults);
  if (!faults.empty()) about["faults"] = std::move(faults);
  return SweepJson(sweep.rows, request.sweep, sweep.ranks, std::move(about));
}

}  // namespace aifabric
