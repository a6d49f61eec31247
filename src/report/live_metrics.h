// LiveMetrics serves a running simulation's sampled counters as Prometheus
// metrics on http://127.0.0.1:PORT/metrics (`aifabric run --metrics-port`):
// it owns the MetricsServer and renders each LiveSample the run publishes
// (RunHooks::publish) as an exposition (report/telemetry_outputs.h). The
// server's threads answer scrapes; Publish runs on the simulation's thread.
#pragma once

#include <memory>

#include "core/result.h"
#include "run/run_hooks.h"
#include "telemetry/metrics_server.h"

namespace aifabric {

class LiveMetrics {
 public:
  // 0: any free port. Errors say why the port could not be bound.
  static Result<std::unique_ptr<LiveMetrics>> Start(int port);

  int port() const { return server_->port(); }
  // The hooks that publish to this server, with a progress display or not.
  RunHooks Hooks(bool progress);
  void Publish(const LiveSample& sample);

 private:
  explicit LiveMetrics(std::unique_ptr<MetricsServer> server) : server_(std::move(server)) {}
  std::unique_ptr<MetricsServer> server_;
};

}  // namespace aifabric
