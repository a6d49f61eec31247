#include "api/telemetry_outputs.h"

#include <algorithm>
#include <map>
#include <numeric>

#include "diagnosis/diagnosis.h"
#include "telemetry/html_report.h"
#include "telemetry/prometheus_text.h"
#include "telemetry/timeseries_csv.h"

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

std::string PortLabel(const Topology& t, PortId id) {
  const Port& port = t.port(id);
  return t.node(port.node).name + "->" + t.node(port.peer).name;
}

MetricLabels LabelsOf(const Topology& t, const SeriesKey& key) {
  MetricLabels labels = {{"node", t.node(key.node).name}};
  if (key.port >= 0) labels.emplace_back("port", PortPeerName(t, key.port));
  if (key.priority >= 0) labels.emplace_back("priority", std::to_string(key.priority));
  return labels;
}

std::vector<double> TimesNs(const TimeSeriesStore& store) {
  std::vector<double> out;
  for (Time t : store.times()) out.push_back(static_cast<double>(t.ps()) / 1000.0);
  return out;
}

// Rows per heat map (html_report.h's default cap).
constexpr size_t kHeatmapLinks = 512;

}  // namespace

std::vector<double> SampledUtilization(const TimeSeriesStore& store, int id, DataRate line_rate) {
  std::vector<double> util = UtilizationBetween(store, id, static_cast<double>(line_rate.bps()));
  for (double& u : util) u = std::min(u, 1.0);
  return util;
}

std::string PortPeerName(const Topology& topology, PortId port) {
  return topology.node(topology.port(port).peer).name;
}

std::string PrometheusExposition(const Topology& topology, const TimeSeriesStore* store,
                                 std::span<const PortObservation> ports, Time sim_time, size_t transfers_completed) {
  PrometheusSnapshotBuilder builder;
  if (store != nullptr && store->points() > 0) {
    const std::span<const double> last = store->row(store->points() - 1);
    for (size_t id = 0; id < store->series(); ++id) {
      const SeriesKey& key = store->key(static_cast<int>(id));
      builder.Add(key.metric, LabelsOf(topology, key), last[id]);
    }
  } else {
    for (const PortObservation& p : ports) {
      const SeriesKey key{topology.port(p.port).node, p.port, -1, Metric::kTxBytes};
      builder.Add(Metric::kTxBytes, LabelsOf(topology, key), static_cast<double>(p.tx_bytes));
    }
  }
  std::vector<MetricFamily> families = builder.Families();
  families.push_back(MetricFamily{"aifabric_sim_time_seconds", "Simulated time the run has covered.",
                                  MetricKind::kGauge, {MetricSample{{}, static_cast<double>(sim_time.ps()) * 1e-12}}});
  families.push_back(MetricFamily{"aifabric_transfers_completed_total", "Transfers whose last byte arrived.",
                                  MetricKind::kCounter,
                                  {MetricSample{{}, static_cast<double>(transfers_completed)}}});
  return RenderPrometheusText(families);
}

std::string TimeseriesCsv(const Topology& topology, const TimeSeriesStore& store) {
  std::vector<int> only;
  if (store.series() * store.points() > kMaxTimeseriesRows && store.points() > 0) {
    // Rank the ports by their last transmitted-bytes value.
    std::map<int, std::vector<int>> series_of;  // port -> its series
    std::vector<std::pair<double, int>> by_bytes;  // (-bytes, port)
    const std::span<const double> last = store.row(store.points() - 1);
    for (size_t id = 0; id < store.series(); ++id) {
      const SeriesKey& key = store.key(static_cast<int>(id));
      series_of[key.port].push_back(static_cast<int>(id));
      if (key.metric == Metric::kTxBytes) by_bytes.emplace_back(-last[id], key.port);
    }
    std::sort(by_bytes.begin(), by_bytes.end());
    std::vector<int> chosen;
    size_t rows = 0;
    for (const auto& [neg_bytes, port] : by_bytes) {
      const size_t more = series_of[port].size() * store.points();
      if (rows + more > kMaxTimeseriesRows) break;
      rows += more;
      for (int id : series_of[port]) chosen.push_back(id);
    }
    std::sort(chosen.begin(), chosen.end());
    only = std::move(chosen);
    if (only.empty()) only.push_back(0);  // a single port's series exceed the cap: its first series
  }
  return RenderTimeseriesCsv(
      store, [&](int node) { return topology.node(node).name; }, [&](int port) { return PortPeerName(topology, port); },
      only);
}

void AddFabricTrace(const Topology& topology, const FabricObservation& observation, const TimeSeriesStore* store,
                    ChromeTrace& trace, size_t max_queue_tracks) {
  for (const TransferObservation& t : observation.transfers) {
    if (t.finish.IsInfinite()) continue;
    const int process = trace.Process("NIC " + topology.node(t.src).name);
    const int track = trace.Track(process, "transfers");
    nlohmann::ordered_json args = {{"flow_id", t.id}, {"bytes", t.bytes}};
    if (!t.owner.empty()) args["owner"] = t.owner;
    trace.Slice(track, "to " + topology.node(t.dst).name, "transfer", t.start, t.finish, std::move(args));
  }
  if (store == nullptr || store->points() == 0) return;
  // The deepest queues (highest peak; ties: lower series id).
  std::vector<std::pair<double, int>> queues;
  for (size_t id = 0; id < store->series(); ++id) {
    if (store->key(static_cast<int>(id)).metric != Metric::kQueueOccupancyBytes) continue;
    double peak = 0;
    for (double v : store->values(static_cast<int>(id))) peak = std::max(peak, v);
    if (peak > 0) queues.emplace_back(-peak, static_cast<int>(id));
  }
  std::sort(queues.begin(), queues.end());
  if (queues.size() > max_queue_tracks) queues.resize(max_queue_tracks);
  const std::span<const Time> times = store->times();
  for (const auto& [neg_peak, id] : queues) {
    const SeriesKey& key = store->key(id);
    const int process = trace.Process("switch " + topology.node(key.node).name);
    const std::string name = "queue bytes to " + PortPeerName(topology, key.port) + " p" + std::to_string(key.priority);
    const SeriesValues values = store->values(id);
    for (size_t j = 0; j < times.size(); ++j) trace.Counter(process, name, times[j], values[j]);
  }
}

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
    queues["note"] = observation.model == "packet" ? "no queue built up" : "not recorded at flow level";
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

Result<std::vector<std::pair<std::string, std::string>>> RenderTelemetryFiles(const TelemetryInputs& in) {
  const Topology& topology = *in.topology;
  std::vector<std::pair<std::string, std::string>> files;
  if (in.store != nullptr) files.emplace_back("timeseries.csv", TimeseriesCsv(topology, *in.store));
  files.emplace_back("metrics.prom", PrometheusExposition(topology, in.store, in.observation->ports, in.sim_time,
                                                          in.transfers_completed));
  ChromeTrace trace;
  if (in.add_to_trace) in.add_to_trace(trace);
  AddFabricTrace(topology, *in.observation, in.store, trace);
  files.emplace_back("trace.json", trace.Render());
  const nlohmann::ordered_json diagnosis = FindingsJson(topology, Diagnose(topology, *in.observation));
  files.emplace_back("diagnosis.json", diagnosis.dump(2) + "\n");
  Result<std::string> report = RenderHtmlReport(ReportData(topology, *in.observation, in.store, *in.summary, diagnosis));
  if (!report.ok()) return Error{"report.html: " + report.error().message};
  files.emplace_back("report.html", std::move(report).value());
  return files;
}

}  // namespace aifabric
