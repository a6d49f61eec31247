#include "server/server_metrics.h"

#include "core/text_sink.h"
#include "telemetry/prometheus_text.h"

namespace aifabric {

void ServerMetrics::CountRequest(int status_code) {
  std::lock_guard lock(mutex_);
  ++requests_[status_code];
}

uint64_t ServerMetrics::requests(int status_code) const {
  std::lock_guard lock(mutex_);
  auto it = requests_.find(status_code);
  return it == requests_.end() ? 0 : it->second;
}

std::string ServerMetrics::Exposition(const ServerGauges& gauges) const {
  StringSink out;
  PrometheusTextWriter writer(out);
  writer.Family("aifabric_server_runs", "Runs in the store, by status.", MetricKind::kGauge);
  for (const auto& [status, count] : gauges.runs_by_status) {
    const PrometheusLabel label[] = {{"status", RunStatusName(status)}};
    writer.Sample(label, static_cast<double>(count));
  }
  writer.Family("aifabric_server_queue_length", "Runs queued, waiting for a worker.", MetricKind::kGauge);
  writer.Sample({}, static_cast<double>(gauges.queue_length));
  writer.Family("aifabric_server_runs_running", "Runs executing now.", MetricKind::kGauge);
  writer.Sample({}, static_cast<double>(gauges.running));
  writer.Family("aifabric_server_workers", "Worker threads (--workers): runs at once at most.", MetricKind::kGauge);
  writer.Sample({}, gauges.workers);
  writer.Family("aifabric_server_attachments", "Real fabrics attached and watched now.", MetricKind::kGauge);
  writer.Sample({}, static_cast<double>(gauges.attachments));
  writer.Family("aifabric_server_max_attachments", "Real fabrics attached at once at most (--max-attachments).",
                MetricKind::kGauge);
  writer.Sample({}, gauges.max_attachments);
  writer.Family("aifabric_server_requests_total", "HTTP requests answered, by status code.", MetricKind::kCounter);
  {
    std::lock_guard lock(mutex_);
    for (const auto& [code, count] : requests_) {
      const std::string text = std::to_string(code);
      const PrometheusLabel label[] = {{"code", text}};
      writer.Sample(label, static_cast<double>(count));
    }
  }
  writer.Family("aifabric_server_event_streams", "Clients connected to a run's event stream.", MetricKind::kGauge);
  writer.Sample({}, static_cast<double>(streams_.load()));
  writer.Family("aifabric_server_uptime_seconds", "Wall time since the server started.", MetricKind::kGauge);
  writer.Sample({}, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  return out.Take();
}

}  // namespace aifabric
