#include "report/report_data.h"

#include <algorithm>
#include <map>

#include "report/telemetry_outputs.h"
#include "run/run_observation.h"

namespace aifabric {
namespace {

const char* TierName(const Node& node) {
  if (node.kind == NodeKind::kHost) return "host";
  switch (node.tier) {
    case 1: return "leaf";
    case 2: return "spine";
    case 3: return "core";
    default: return "switch";
  }
}

// "leaf->spine": the tiers a port goes between.
std::string TierPair(const Topology& t, const Port& port) {
  std::string name = TierName(t.node(port.node));
  name += "->";
  name += TierName(t.node(port.peer));
  return name;
}

std::vector<double> TimesNs(const TimeSeriesStore& store) {
  std::vector<double> out;
  for (Time t : store.times()) out.push_back(static_cast<double>(t.ps()) / 1000.0);
  return out;
}

// Rows per heat map (html_report.h's default cap).
constexpr size_t kHeatmapLinks = 512;

std::string PortLabel(const Topology& t, PortId id) {
  const Port& port = t.port(id);
  return t.node(port.node).name + "->" + t.node(port.peer).name;
}

}  // namespace

nlohmann::ordered_json ReportData(const Topology& topology, const FabricObservation& observation,
                                  const TimeSeriesStore* store, const nlohmann::ordered_json& summary,
                                  const nlohmann::ordered_json& diagnosis) {
  nlohmann::ordered_json data;
  data["title"] = summary.value("scenario", std::string("aifabric run"));
  nlohmann::ordered_json figures = nlohmann::ordered_json::object();
  for (const auto& [key, value] : summary.items()) {
    // Not the figures that measure the machine: the report is deterministic.
    if (value.is_primitive() && key != "wall_s" && key != "events_per_s") figures[key] = value;
  }
  data["summary"] = figures;

  nlohmann::ordered_json heatmaps = nlohmann::ordered_json::array();
  nlohmann::ordered_json throughput_lines = nlohmann::ordered_json::array();
  nlohmann::ordered_json queue_lines = nlohmann::ordered_json::array();
  if (store != nullptr && store->points() >= 2) {
    const std::vector<double> times_ns = TimesNs(*store);
    // Bucket j covers (times[j], times[j+1]]: its utilization starts there.
    const std::vector<double> bucket_ns(times_ns.begin(), times_ns.end() - 1);
    // Per tier pair, the kHeatmapLinks ports of highest peak utilization
    // (ties: lower port), shown in port order.
    std::map<std::string, std::vector<std::pair<double, int>>> by_tier;  // -> (-peak, series)
    std::vector<std::pair<double, int>> busiest;  // (-peak utilization, series)
    std::vector<std::pair<double, int>> deepest;  // (-peak bytes, series)
    for (size_t id = 0; id < store->series(); ++id) {
      const SeriesKey& key = store->key(static_cast<int>(id));
      if (key.metric == Metric::kQueueOccupancyBytes) {
        double peak = 0;
        for (double v : store->values(static_cast<int>(id))) peak = std::max(peak, v);
        if (peak > 0) deepest.emplace_back(-peak, static_cast<int>(id));
        continue;
      }
      if (key.metric != Metric::kTxBytes || key.port < 0) continue;
      const Port& port = topology.port(key.port);
      const std::vector<double> util =
          SampledUtilization(*store, static_cast<int>(id), port.rate);
      const double peak = util.empty() ? 0 : *std::max_element(util.begin(), util.end());
      by_tier[TierPair(topology, port)].emplace_back(-peak, static_cast<int>(id));
      if (peak > 0) busiest.emplace_back(-peak, static_cast<int>(id));
    }
    for (auto& [tier, ports] : by_tier) {
      std::sort(ports.begin(), ports.end());
      if (ports.size() > kHeatmapLinks) ports.resize(kHeatmapLinks);
      std::sort(ports.begin(), ports.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      nlohmann::ordered_json map = {{"tier", tier}, {"links", nlohmann::ordered_json::array()},
                                    {"times_ns", bucket_ns}, {"util", nlohmann::ordered_json::array()}};
      for (const auto& [neg_peak, id] : ports) {
        const Port& port = topology.port(store->key(id).port);
        map["links"].push_back(PortLabel(topology, port.id));
        map["util"].push_back(SampledUtilization(*store, id, port.rate));
      }
      heatmaps.push_back(std::move(map));
    }
    std::sort(busiest.begin(), busiest.end());
    std::sort(deepest.begin(), deepest.end());
    for (size_t i = 0; i < busiest.size() && i < 8; ++i) {
      const int id = busiest[i].second;
      const Port& port = topology.port(store->key(id).port);
      std::vector<double> gbps = SampledUtilization(*store, id, port.rate);
      for (double& u : gbps) u *= static_cast<double>(port.rate.bps()) / 1e9;
      throughput_lines.push_back({{"name", PortLabel(topology, port.id)}, {"times_ns", bucket_ns}, {"values", gbps}});
    }
    for (size_t i = 0; i < deepest.size() && i < 8; ++i) {
      const int id = deepest[i].second;
      const SeriesKey& key = store->key(id);
      const SeriesValues v = store->values(id);
      queue_lines.push_back({{"name", PortLabel(topology, key.port) + " p" + std::to_string(key.priority)},
                             {"times_ns", times_ns},
                             {"values", std::vector<double>(v.begin(), v.end())}});
    }
  }
  data["heatmaps"] = heatmaps;
  nlohmann::ordered_json series = nlohmann::ordered_json::array();
  nlohmann::ordered_json throughput = {{"title", "Throughput of the busiest ports"}, {"unit", "Gbps"},
                                       {"lines", throughput_lines}};
  if (throughput_lines.empty()) throughput["note"] = "no time series sampled (telemetry off or analytic model)";
  series.push_back(throughput);
  nlohmann::ordered_json queues = {{"title", "Queue depth of the deepest queues"}, {"unit", "bytes"},
                                   {"lines", queue_lines}};
  if (queue_lines.empty()) {
    queues["note"] = observation.model == ModelKind::kPacket ? "no queue built up" : "not recorded at flow level";
  }
  series.push_back(queues);
  data["series"] = series;

  std::vector<double> fct_ns;
  for (const TransferObservation& t : observation.transfers) {
    if (!t.finish.IsInfinite()) fct_ns.push_back(static_cast<double>((t.finish - t.start).ps()) / 1000.0);
  }
  std::sort(fct_ns.begin(), fct_ns.end());
  std::vector<double> cdf(fct_ns.size());
  for (size_t i = 0; i < cdf.size(); ++i) cdf[i] = static_cast<double>(i + 1) / static_cast<double>(cdf.size());
  data["fct_cdf"] = {{"fct_ns", fct_ns}, {"cdf", cdf}};
  data["diagnosis"] = diagnosis;
  return data;
}

}  // namespace aifabric
