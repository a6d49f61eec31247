#include "report/faults_json.h"

#include <fmt/format.h>

namespace aifabric {
namespace {

nlohmann::ordered_json NsOrNull(Time t) {
  if (t.IsInfinite()) return nullptr;
  return static_cast<double>(t.ps()) / 1000.0;
}

std::string UsOrNever(const nlohmann::ordered_json& ns) {
  return ns.is_null() ? "never" : fmt::format("at {:.3f} us", ns.get<double>() / 1000.0);
}

}  // namespace

nlohmann::ordered_json FaultsJson(const std::vector<FaultOutcome>& faults) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const FaultOutcome& f : faults) {
    list.push_back({{"kind", FaultKindName(f.kind)},
                    {"name", f.name},
                    {"at_ns", NsOrNull(f.at)},
                    {"detected_ns", NsOrNull(f.detected)},
                    {"rerouted_ns", NsOrNull(f.rerouted)},
                    {"packets_lost", f.packets_lost ? nlohmann::ordered_json(*f.packets_lost) : nullptr},
                    {"bytes_resent", f.bytes_resent},
                    {"route_changes", f.route_changes},
                    {"flows_rerouted", f.flows_rerouted}});
  }
  return list;
}

std::string FormatFaultLines(const nlohmann::ordered_json& faults) {
  std::string out;
  for (const auto& f : faults) {
    if (f["kind"] == "straggler") {  // a GPU's: nothing to detect or route around
      out += fmt::format("  fault       straggler {} at {:.3f} us: its compute kernels slowed\n",
                         f["name"].get<std::string>(), f["at_ns"].get<double>() / 1000.0);
      continue;
    }
    const std::string lost =
        f["packets_lost"].is_null() ? "" : fmt::format("{} packets lost, ", f["packets_lost"].get<uint64_t>());
    out += fmt::format("  fault       {} {} at {:.3f} us: detected {}, rerouted {} ({} route changes, {} flows moved); "
                       "{}{} bytes resent\n",
                       f["kind"].get<std::string>(), f["name"].get<std::string>(), f["at_ns"].get<double>() / 1000.0,
                       UsOrNever(f["detected_ns"]), UsOrNever(f["rerouted_ns"]), f["route_changes"].get<uint64_t>(),
                       f["flows_rerouted"].get<uint64_t>(), lost, f["bytes_resent"].get<uint64_t>());
  }
  return out;
}

nlohmann::ordered_json FaultCostJson(const std::vector<FaultCost>& costs) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const FaultCost& c : costs) {
    const double slowdown = c.slowdown();
    list.push_back({{"entry", c.entry},
                    {"time_ns", NsOrNull(c.with_faults)},
                    {"baseline_time_ns", NsOrNull(c.without_faults)},
                    {"slowdown", slowdown > 0 ? nlohmann::ordered_json(slowdown) : nlohmann::ordered_json(nullptr)}});
  }
  return list;
}

std::string FormatFaultCostLines(const nlohmann::ordered_json& costs) {
  const auto ms = [](const nlohmann::ordered_json& ns) {
    return ns.is_null() ? std::string("not done") : fmt::format("{:.3f} ms", ns.get<double>() / 1e6);
  };
  std::string out;
  for (const auto& c : costs) {
    out += fmt::format("  fault cost  {}: {} against {} without faults{}\n", c["entry"].get<std::string>(),
                       ms(c["time_ns"]), ms(c["baseline_time_ns"]),
                       c["slowdown"].is_null() ? "" : fmt::format(" ({:.3f}x)", c["slowdown"].get<double>()));
  }
  return out;
}

}  // namespace aifabric
