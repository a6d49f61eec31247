#include "report/run_summary_text.h"

#include <fmt/format.h>

#include "report/faults_json.h"
#include "report/run_outputs.h"
#include "core/peak_memory.h"
#include "core/units.h"
#include "fabric/topology_builder.h"
#include "fabric/topology_report.h"

namespace aifabric {
namespace {

std::string Us(double ns) { return fmt::format("{:.2f} us", ns / 1000.0); }

std::string WorkloadLines(const ScenarioRun& run) {
  std::string out;
  for (const WorkloadSlice& s : run.slices()) {
    uint64_t bytes = 0;
    for (size_t i = s.first; i < s.first + s.count; ++i) bytes += run.flows()[i].bytes;
    out += fmt::format("  workload    {}: {} flows, {} in total\n", s.kind, s.count, FormatBytes(bytes));
  }
  return out;
}

std::string FabricLine(const ScenarioRun& run) {
  const Scenario& sc = run.scenario();
  const Topology& t = run.topology();
  std::string shape = TopologyTypeName(sc.topology.type);
  if (sc.topology.dual_tor) shape += ", dual-ToR";
  if (sc.topology.planes > 1) shape += fmt::format(", {} planes", sc.topology.planes);
  return fmt::format("  fabric      {} hosts, {} switches, {} links ({}, {}, MTU {})\n", t.hosts().size(),
                     t.num_nodes() - t.hosts().size(), t.num_links(), shape,
                     sc.packet.kind == FabricKind::kIb ? "InfiniBand" : "RoCEv2", FormatBytes(sc.packet.mtu_bytes));
}

// Flow-control and congestion signals, when the fabric produced any:
// PFC and ECN/CNP on RoCEv2, FECN/BECN on InfiniBand, and loss recovery.
std::string SignalsLine(const ScenarioRun& run, const nlohmann::ordered_json& s) {
  const auto n = [&](const char* key) { return s[key].get<uint64_t>(); };
  if (n("pfc_frames") + n("ecn_marks") + n("cnps") + n("retransmitted_bytes") + n("out_of_order_packets") == 0) {
    return "";
  }
  std::string out = "  signals     ";
  if (run.scenario().packet.kind == FabricKind::kIb) {
    out += fmt::format("{} FECN marks, {} BECNs", n("ecn_marks"), n("cnps"));
  } else {
    out += fmt::format("{} PFC frames ({} paused), {} ECN marks, {} CNPs", n("pfc_frames"),
                       Us(s["pfc_pause_ns"].get<double>()), n("ecn_marks"), n("cnps"));
  }
  out += fmt::format("; {} retransmitted, {} packets out of order\n", FormatBytes(n("retransmitted_bytes")),
                     n("out_of_order_packets"));
  return out;
}

}  // namespace

std::string FormatRunSummary(const ScenarioRun& run, const nlohmann::ordered_json& s,
                             const std::string& out_dir) {
  std::string out = fmt::format("aifabric {} — {} ({} model, seed {})\n", "run", run.scenario().name,
                                s["model"].get<std::string>(), run.scenario().seed);
  out += FabricLine(run);
  out += WorkloadLines(run);
  out += fmt::format("  simulated   {} in {:.3f} s wall ({} events, {:.2f} M events/s), peak memory {:.0f} MiB\n",
                     FormatTime(run.sim_time()), run.wall_seconds(), s["events"].get<uint64_t>(),
                     s["events_per_s"].get<double>() / 1e6, PeakMemoryMiB());
  const auto& flows = s["flows"];
  const auto& fct = flows["fct_ns"];
  out += fmt::format("  flows       {}/{} completed; FCT mean {}, p50 {}, p99 {}, max {}\n",
                     flows["completed"].get<uint64_t>(), flows["count"].get<uint64_t>(), Us(fct["mean"].get<double>()),
                     Us(fct["p50"].get<double>()), Us(fct["p99"].get<double>()), Us(fct["max"].get<double>()));
  const auto& slow = flows["slowdown"];
  out += fmt::format("  slowdown    mean {:.2f}, p50 {:.2f}, p99 {:.2f} (FCT / FCT alone on an idle fabric)\n",
                     slow["mean"].get<double>(), slow["p50"].get<double>(), slow["p99"].get<double>());
  const auto& links = s["links"];
  out += fmt::format("  links       max utilization {:.1f}% ({}), mean {:.1f}%; {} packets dropped\n",
                     100 * links["max_util"].get<double>(), links["busiest"].get<std::string>(),
                     100 * links["mean_util"].get<double>(), s["drops"].get<uint64_t>());
  out += SignalsLine(run, s);
  if (s.contains("faults")) out += FormatFaultLines(s["faults"]);
  if (s.contains("fault_cost")) out += FormatFaultCostLines(s["fault_cost"]);
  out += fmt::format("  outputs     {}/ (summary.json, flows.csv, links.csv, fct.txt{})\n", out_dir,
                     !run.scenario().telemetry.enabled ? ""
                     : run.series() != nullptr
                         ? ", timeseries.csv, metrics.prom, trace.json, diagnosis.json, report.html"
                         : ", metrics.prom, trace.json, diagnosis.json, report.html");
  return out;
}

std::string FormatValidation(const ScenarioRun& run) {
  std::string out = fmt::format("scenario {} is valid\n", run.scenario().name);
  out += FabricLine(run);
  out += WorkloadLines(run);
  out += "\n";
  out += FormatReport(MakeTopologyReport(run.topology()));
  return out;
}

}  // namespace aifabric
