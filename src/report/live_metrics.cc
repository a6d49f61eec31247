#include "report/live_metrics.h"

#include "report/telemetry_outputs.h"

namespace aifabric {

Result<std::unique_ptr<LiveMetrics>> LiveMetrics::Start(int port) {
  Result<std::unique_ptr<MetricsServer>> server = MetricsServer::Start(port);
  if (!server.ok()) return server.error();
  return std::unique_ptr<LiveMetrics>(new LiveMetrics(std::move(server).value()));
}

RunHooks LiveMetrics::Hooks(bool progress) {
  RunHooks hooks;
  hooks.publish = [this](const LiveSample& sample) { Publish(sample); };
  hooks.progress = progress;
  return hooks;
}

void LiveMetrics::Publish(const LiveSample& sample) {
  server_->Publish(PrometheusExposition(sample.topology, &sample.store, {}, sample.store.times().back(),
                                        sample.transfers_completed));
}

}  // namespace aifabric
