// ServerMetrics counts what the server answers (requests by status code,
// each counted once its answer has been sent,
// event-stream clients connected) and renders the server's own
// Prometheus exposition for GET /metrics, named as telemetry's writer
// names the run's (aifabric_ prefix, counters ending in _total, base
// units): see docs/serve.md for the families. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "server/run_record.h"

namespace aifabric {

// The gauges the exposition reads at the time of the scrape.
struct ServerGauges {
  std::vector<std::pair<RunStatus, int64_t>> runs_by_status;  // from the store
  size_t queue_length = 0;
  size_t running = 0;
  int workers = 0;
  size_t attachments = 0;   // real fabrics attached and watched now
  int max_attachments = 0;  // --max-attachments
};

class ServerMetrics {
 public:
  ServerMetrics() : start_(std::chrono::steady_clock::now()) {}
  void CountRequest(int status_code);
  void StreamOpened() { ++streams_; }
  void StreamClosed() { --streams_; }
  int64_t streams() const { return streams_.load(); }
  uint64_t requests(int status_code) const;
  // The text exposition format 0.0.4 (telemetry/prometheus_text.h).
  std::string Exposition(const ServerGauges& gauges) const;

 private:
  const std::chrono::steady_clock::time_point start_;
  mutable std::mutex mutex_;
  std::map<int, uint64_t> requests_;  // by status code; guarded by mutex_
  std::atomic<int64_t> streams_{0};
};

}  // namespace aifabric
