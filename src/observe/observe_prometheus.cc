#include "observe/observe_prometheus.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>

#include "observe/port_index.h"

namespace aifabric {
namespace {

// PromQL's duration: whole seconds when it is one, else milliseconds.
std::string Duration(Time window) {
  const int64_t ms = std::max<int64_t>(1, window.ps() / 1000000000);
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

int64_t Millis(double time_s) { return std::llround(time_s * 1000); }

// The exporter's clock at each scrape (by timestamp, ms); empty for wall time.
using Clock = std::map<int64_t, double>;

struct Reader {
  const PrometheusClient& client;
  const ExporterSchema& exporter;
  const PortIndex& index;
  const std::string range;
  FabricReading& out;

  Result<PrometheusAnswer> Range(const std::string& metric) {
    const std::string promql = metric + "[" + range + "]";
    out.queries.push_back(promql);
    Result<PrometheusAnswer> answer = client.Query(promql);
    if (!answer.ok()) return answer.error();
    for (const std::string& w : answer->warnings) out.warnings.push_back(promql + ": " + w);
    if (answer->type != PromResultType::kMatrix) {
      return Error{client.base_url() + ": " + promql + ": expected a matrix (a range selector's samples)"};
    }
    return answer;
  }

  // The clock value of sample `s`, or NaN when the clock has no sample then.
  static double At(const Clock* clock, const PromSample& s) {
    if (clock == nullptr) return s.time_s;
    const auto it = clock->find(Millis(s.time_s));
    return it == clock->end() ? std::nan("") : it->second;
  }

  // Adds each series' increase of `metric` to `field` of its port; for the
  // transmitted bytes also the span and the peak rate.
  Status Counter(const ExporterMetric& metric, double PortWindow::*field, const Clock* clock, bool is_tx) {
    if (metric.name.empty()) return Status::Ok();
    Result<PrometheusAnswer> answer = Range(metric.name);
    if (!answer.ok()) return answer.error();
    if (is_tx && answer->series.empty()) {
      return Error{client.base_url() + ": no series of " + metric.name + " in the last " + range +
                   " (is Prometheus scraping the " + exporter.name + " exporter?)"};
    }
    for (const PromSeries& s : answer->series) {
      Result<PortId> port = index.Find(s.labels, exporter);
      if (!port.ok()) return Error{client.base_url() + ": " + metric.name + ": " + port.error().message};
      ++out.series;
      // A receiver's counter belongs to the egress that sent it the frames.
      const PortId into = metric.received ? *port ^ 1 : *port;
      PortWindow& w = out.windows[static_cast<size_t>(into)];
      w.seen = true;
      double increase = 0, first_clock = std::nan(""), last_clock = std::nan(""), previous = 0;
      for (const PromSample& sample : s.samples) {
        const double now = At(clock, sample);
        if (!std::isfinite(sample.value) || !std::isfinite(now)) continue;
        if (std::isfinite(last_clock)) {
          const double delta = sample.value >= previous ? sample.value - previous : sample.value;  // reset
          increase += delta;
          if (is_tx && now > last_clock) w.peak_bps = std::max(w.peak_bps, delta * metric.scale * 8 / (now - last_clock));
        } else {
          first_clock = now;
        }
        previous = sample.value;
        last_clock = now;
      }
      w.*field += increase * metric.scale;
      if (is_tx && std::isfinite(first_clock)) w.seconds = std::max(w.seconds, last_clock - first_clock);
    }
    return Status::Ok();
  }

  Status Gauge(const ExporterMetric& metric, double PortWindow::*field) {
    if (metric.name.empty()) return Status::Ok();
    Result<PrometheusAnswer> answer = Range(metric.name);
    if (!answer.ok()) return answer.error();
    for (const PromSeries& s : answer->series) {
      Result<PortId> port = index.Find(s.labels, exporter);
      if (!port.ok()) return Error{client.base_url() + ": " + metric.name + ": " + port.error().message};
      ++out.series;
      PortWindow& w = out.windows[static_cast<size_t>(*port)];
      for (const PromSample& sample : s.samples) {
        if (std::isfinite(sample.value)) w.*field = std::max(w.*field, sample.value * metric.scale);
      }
    }
    return Status::Ok();
  }

  Result<Clock> ReadClock() {
    Result<PrometheusAnswer> answer = Range(exporter.clock);
    if (!answer.ok()) return answer.error();
    if (answer->series.size() != 1) {
      return Error{client.base_url() + ": " + exporter.clock + ": expected one series (the exporter's clock), got " +
                   std::to_string(answer->series.size()) +
                   (answer->series.empty() ? " (is Prometheus scraping the exporter?)" : " (several targets?)")};
    }
    Clock clock;
    for (const PromSample& s : answer->series[0].samples) {
      if (std::isfinite(s.value)) clock[Millis(s.time_s)] = s.value;
    }
    return clock;
  }
};

}  // namespace

Result<FabricReading> ObservePrometheus(const PrometheusClient& client, const Topology& topology,
                                        const ExporterSchema& exporter, Time window) {
  FabricReading reading;
  reading.windows.resize(topology.ports().size());
  const PortIndex index(topology);
  Reader reader{client, exporter, index, Duration(window), reading};
  Clock clock;
  if (!exporter.clock.empty()) {
    Result<Clock> read = reader.ReadClock();
    if (!read.ok()) return read.error();
    clock = std::move(read).value();
  }
  const Clock* clock_of = exporter.clock.empty() ? nullptr : &clock;
  struct Field {
    const ExporterMetric& metric;
    double PortWindow::*field;
    const char* name;  // the PortObservation field it fills
  };
  const Field counters[] = {
      {exporter.tx_bytes, &PortWindow::tx_bytes, "tx_bytes"},
      {exporter.drop_packets, &PortWindow::drop_packets, "drop_packets"},
      {exporter.ecn_marks, &PortWindow::ecn_marks, "ecn_marks"},
      {exporter.pause_seconds, &PortWindow::pause_seconds, "pause_time"},
      {exporter.pfc_frames_tx, &PortWindow::pfc_frames_tx, "pfc_frames_tx"},
      {exporter.fcs_error_packets, &PortWindow::fcs_error_packets, "fcs_error_packets"},
  };
  for (const Field& f : counters) {
    if (f.metric.name.empty()) reading.unread.push_back(f.name);
    Status st = reader.Counter(f.metric, f.field, clock_of, f.field == &PortWindow::tx_bytes);
    if (!st.ok()) return st.error();
  }
  if (exporter.drops_include_fcs_errors) {
    for (PortWindow& w : reading.windows) w.drop_packets = std::max(0.0, w.drop_packets - w.fcs_error_packets);
  }
  if (exporter.queue_bytes.name.empty()) reading.unread.push_back("max_queue_bytes");
  if (Status st = reader.Gauge(exporter.queue_bytes, &PortWindow::max_queue_bytes); !st.ok()) return st.error();
  if (exporter.pfc_frames_tx.name.empty()) reading.unread.push_back("pause_causes");
  reading.unread.push_back("transfers");
  reading.observation = ObservationFromWindows(topology, reading.windows);
  return reading;
}

Result<FabricReading> ObservePrometheus(const PrometheusSource& source, const Topology& topology,
                                        const ExporterSchema& exporter, Time window) {
  Result<PrometheusFetch> fetch = HttpFetch(source);
  if (!fetch.ok()) return fetch.error();
  const PrometheusClient client(source.url, std::move(fetch).value());
  return ObservePrometheus(client, topology, exporter, window);
}

void ObserveLoop(const PrometheusClient& client, const Topology& topology, const ExporterSchema& exporter,
                 const ObserveLoopOptions& options,
                 const std::function<bool(int pass, const Result<FabricReading>& reading)>& on_pass) {
  const auto interval = std::chrono::microseconds(std::max<int64_t>(1, options.interval.ps() / 1000000));
  auto next = std::chrono::steady_clock::now();
  auto stopped = [&options] { return options.stop != nullptr && options.stop->load(); };
  for (int pass = 1; options.count <= 0 || pass <= options.count; ++pass) {
    if (stopped()) return;
    const Result<FabricReading> reading = ObservePrometheus(client, topology, exporter, options.window);
    if (!on_pass(pass, reading)) return;
    if (options.count > 0 && pass == options.count) return;
    next += interval;
    while (!stopped() && std::chrono::steady_clock::now() < next) {
      std::this_thread::sleep_until(std::min(next, std::chrono::steady_clock::now() + std::chrono::milliseconds(20)));
    }
  }
}

}  // namespace aifabric
