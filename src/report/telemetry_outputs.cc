#include "report/telemetry_outputs.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "report/report_data.h"
#include "run/run_observation.h"
#include "diagnosis/diagnosis.h"
#include "telemetry/fcs_error_metric.h"
#include "telemetry/html_report.h"
#include "telemetry/prometheus_text.h"
#include "telemetry/timeseries_csv.h"

namespace aifabric {
std::string PortPeerName(const Topology& topology, PortId port) {
  return topology.node(topology.port(port).peer).name;
}

void WritePrometheusExposition(TextSink& out, const Topology& topology, const TimeSeriesStore* store,
                               std::span<const PortObservation> ports, Time sim_time, size_t transfers_completed) {
  PrometheusTextWriter writer(out);
  const auto sample = [&](const SeriesKey& key, double value) {
    char priority[12];
    const char* end = std::to_chars(priority, priority + sizeof priority, key.priority).ptr;
    const PrometheusLabel labels[] = {
        {"node", topology.node(key.node).name},
        {"port", key.port >= 0 ? std::string_view(topology.node(topology.port(key.port).peer).name) : ""},
        {"priority", std::string_view(priority, static_cast<size_t>(end - priority))}};
    const size_t n = key.port < 0 ? 1 : key.priority < 0 ? 2 : 3;
    writer.Sample(key.metric, std::span(labels, n), value);
  };
  if (store != nullptr && store->points() > 0) {
    // Family by family, in catalog order: a metric's samples together.
    const std::span<const double> last = store->row(store->points() - 1);
    for (const MetricInfo& info : AllMetrics()) {
      for (size_t id = 0; id < store->series(); ++id) {
        const SeriesKey& key = store->key(static_cast<int>(id));
        if (key.metric == info.metric) sample(key, last[id]);
      }
    }
  } else {
    for (const PortObservation& p : ports) {
      sample(SeriesKey{topology.port(p.port).node, p.port, -1, Metric::kTxBytes}, static_cast<double>(p.tx_bytes));
    }
  }
  // Corrupted frames, by sending port: only the ports that have any, and
  // the family only when one has (a run without a gray link writes none).
  bool fcs_family = false;
  for (const PortObservation& p : ports) {
    if (p.fcs_error_packets == 0) continue;
    if (!fcs_family) {
      writer.Family(kFcsErrorPacketsMetric,
                    "Packets the port sent that a gray link corrupted (FCS errors at the far end), among its discards.",
                    MetricKind::kCounter);
      fcs_family = true;
    }
    const PrometheusLabel labels[] = {{"node", topology.node(topology.port(p.port).node).name},
                                      {"port", topology.node(topology.port(p.port).peer).name}};
    writer.Sample(labels, static_cast<double>(p.fcs_error_packets));
  }
  writer.Family("aifabric_sim_time_seconds", "Simulated time the run has covered.", MetricKind::kGauge);
  writer.Sample({}, static_cast<double>(sim_time.ps()) * 1e-12);
  writer.Family("aifabric_transfers_completed_total", "Transfers whose last byte arrived.", MetricKind::kCounter);
  writer.Sample({}, static_cast<double>(transfers_completed));
}

std::string PrometheusExposition(const Topology& topology, const TimeSeriesStore* store,
                                 std::span<const PortObservation> ports, Time sim_time, size_t transfers_completed) {
  StringSink out;
  WritePrometheusExposition(out, topology, store, ports, sim_time, transfers_completed);
  return out.Take();
}

void WriteTimeseriesCsv(TextSink& out, const Topology& topology, const TimeSeriesStore& store) {
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
  WriteTimeseriesCsv(
      out, store, [&](int node) { return topology.node(node).name; },
      [&](int port) { return PortPeerName(topology, port); }, only);
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
    const auto csv = [&](TextSink& sink) { WriteTimeseriesCsv(sink, topology, *in.store); };
    if (Status st = out.Stream(Indexed("timeseries.csv", index), csv); !st.ok()) return st;
  }
  const auto metrics = [&](TextSink& sink) {
    WritePrometheusExposition(sink, topology, in.store, in.observation->ports, in.sim_time, in.transfers_completed);
  };
  if (Status st = out.Stream(Indexed("metrics.prom", index), metrics); !st.ok()) return st;
  ChromeTrace trace;
  if (in.add_to_trace) in.add_to_trace(trace);
  AddFabricTrace(topology, *in.observation, in.store, trace);
  const auto render_trace = [&trace](TextSink& sink) { trace.Render(sink); };
  if (Status st = out.Stream(Indexed("trace.json", index), render_trace); !st.ok()) return st;
  const nlohmann::ordered_json diagnosis = FindingsJson(topology, Diagnose(topology, *in.observation));
  if (Status st = out.Write(Indexed("diagnosis.json", index), diagnosis.dump(2) + "\n"); !st.ok()) return st;
  const nlohmann::ordered_json data = ReportData(topology, *in.observation, in.store, *in.summary, diagnosis);
  Status rendered = Status::Ok();
  const auto report = [&](TextSink& sink) { rendered = WriteHtmlReport(sink, data); };
  if (Status st = out.Stream(Indexed("report.html", index), report); !st.ok()) return st;
  if (!rendered.ok()) return Error{"report.html: " + rendered.error().message};
  return Status::Ok();
}

Status WriteSimulationTelemetryFiles(const FabricSimulation& simulation, const FabricObservation& observation, Time end,
                                     const nlohmann::ordered_json& summary,
                                     std::function<void(ChromeTrace&)> add_to_trace, OutputFolder& out,
                                     size_t index) {
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
