#include "report/telemetry_outputs.h"

#include <algorithm>
#include <map>

#include "report/report_data.h"
#include "run/run_observation.h"
#include "diagnosis/diagnosis.h"
#include "telemetry/html_report.h"
#include "telemetry/prometheus_text.h"
#include "telemetry/timeseries_csv.h"

namespace aifabric {
namespace {

MetricLabels LabelsOf(const Topology& t, const SeriesKey& key) {
  MetricLabels labels = {{"node", t.node(key.node).name}};
  if (key.port >= 0) labels.emplace_back("port", PortPeerName(t, key.port));
  if (key.priority >= 0) labels.emplace_back("priority", std::to_string(key.priority));
  return labels;
}

}  // namespace

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

namespace {

std::string Indexed(const char* name, size_t index) {
  std::string file = name;
  if (index == 0) return file;
  std::string suffix = ".";  // appended, not "." + string (GCC 12 -Wrestrict)
  suffix += std::to_string(index);
  file.insert(file.rfind('.'), suffix);
  return file;
}

}  // namespace

Status WriteTelemetryFiles(const TelemetryInputs& in, OutputFolder& out, size_t index) {
  const Topology& topology = *in.topology;
  if (in.store != nullptr) {
    if (Status st = out.Write(Indexed("timeseries.csv", index), TimeseriesCsv(topology, *in.store)); !st.ok()) {
      return st;
    }
  }
  const std::string metrics =
      PrometheusExposition(topology, in.store, in.observation->ports, in.sim_time, in.transfers_completed);
  if (Status st = out.Write(Indexed("metrics.prom", index), metrics); !st.ok()) return st;
  ChromeTrace trace;
  if (in.add_to_trace) in.add_to_trace(trace);
  AddFabricTrace(topology, *in.observation, in.store, trace);
  if (Status st = out.Write(Indexed("trace.json", index), trace.Render()); !st.ok()) return st;
  const nlohmann::ordered_json diagnosis = FindingsJson(topology, Diagnose(topology, *in.observation));
  if (Status st = out.Write(Indexed("diagnosis.json", index), diagnosis.dump(2) + "\n"); !st.ok()) return st;
  Result<std::string> report = RenderHtmlReport(ReportData(topology, *in.observation, in.store, *in.summary, diagnosis));
  if (!report.ok()) return Error{"report.html: " + report.error().message};
  return out.Write(Indexed("report.html", index), *report);
}

Status WriteSimulationTelemetryFiles(const FabricSimulation& simulation, Time end,
                                     const nlohmann::ordered_json& summary,
                                     std::function<void(ChromeTrace&)> add_to_trace, OutputFolder& out,
                                     size_t index) {
  const FabricObservation observation = ObserveSimulation(simulation, end);
  TelemetryInputs in;
  in.topology = &simulation.topology();
  in.observation = &observation;
  in.store = simulation.series();
  in.sim_time = end;
  for (const TransferObservation& t : observation.transfers) in.transfers_completed += !t.finish.IsInfinite();
  in.summary = &summary;
  in.add_to_trace = std::move(add_to_trace);
  return WriteTelemetryFiles(in, out, index);
}

}  // namespace aifabric
