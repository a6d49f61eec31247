// The metric catalog: every counter and gauge aifabric's telemetry
// records, with the name SONiC/SAI gives it (used in timeseries.csv), the
// name it carries in a Prometheus exposition (base units, `_total` on
// counters), its help text and whether it is per port or per queue
// (priority). One table, so the exporters and the models agree on names.
// Immutable; safe to read from any thread.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace aifabric {

enum class MetricKind { kCounter, kGauge };
enum class MetricScope { kPort, kQueue };  // kQueue: one series per priority

enum class Metric {
  kTxBytes,            // bytes sent on the wire by an egress port
  kRxBytes,            // bytes received on the wire by a port (from its peer)
  kTxPackets,
  kRxPackets,
  kTxDiscards,         // packets the egress refused (buffer full), all queues
  kQueueTxBytes,       // per priority
  kQueueTxPackets,
  kQueueDroppedPackets,
  kQueueEcnMarked,     // data packets marked CE
  kQueueWatermarkBytes,
  kQueueOccupancyBytes,
  kPfcTxFrames,        // per priority: PFC frames this port sent upstream
  kPfcRxFrames,        // per priority: PFC frames this port received
  kPfcPauseDurationUs, // per priority: time this egress was paused, in µs
  kUtilization,        // fraction of the port's line rate used over the last interval
};

struct MetricInfo {
  Metric metric;
  // SONiC/SAI counter name; for per-priority PFC counters the SAI name
  // carries the priority (SAI_PORT_STAT_PFC_3_RX_PKTS): `{p}` marks where.
  std::string_view sai_name;
  std::string_view prometheus_name;  // without labels
  std::string_view help;
  MetricKind kind;
  MetricScope scope;
  // Prometheus exports values in base units: the recorded value is
  // multiplied by this (1e-6 turns µs into seconds).
  double prometheus_scale;
};

// Every metric, in the enum's order.
std::span<const MetricInfo> AllMetrics();
const MetricInfo& Info(Metric metric);
// The SAI name of `metric` for `priority` (the priority substituted for
// `{p}`; ignored for names without it).
std::string SaiName(Metric metric, int priority);
// The metric whose SAI name (with any priority number in place of `{p}`)
// is `name`, and that priority (-1 when the name has none).
std::optional<std::pair<Metric, int>> ParseSaiName(std::string_view name);

}  // namespace aifabric
