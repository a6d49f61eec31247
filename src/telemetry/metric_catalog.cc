#include "telemetry/metric_catalog.h"

#include <array>
#include <cassert>
#include <cctype>

namespace aifabric {
namespace {

constexpr std::array kMetrics = {
    MetricInfo{Metric::kTxBytes, "SAI_PORT_STAT_IF_OUT_OCTETS", "aifabric_port_transmit_bytes_total",
               "Bytes sent on the wire by the port, framing included.", MetricKind::kCounter, MetricScope::kPort, 1},
    MetricInfo{Metric::kRxBytes, "SAI_PORT_STAT_IF_IN_OCTETS", "aifabric_port_receive_bytes_total",
               "Bytes received on the wire by the port, framing included.", MetricKind::kCounter, MetricScope::kPort,
               1},
    MetricInfo{Metric::kTxPackets, "SAI_PORT_STAT_IF_OUT_UCAST_PKTS", "aifabric_port_transmit_packets_total",
               "Packets sent by the port.", MetricKind::kCounter, MetricScope::kPort, 1},
    MetricInfo{Metric::kRxPackets, "SAI_PORT_STAT_IF_IN_UCAST_PKTS", "aifabric_port_receive_packets_total",
               "Packets received by the port.", MetricKind::kCounter, MetricScope::kPort, 1},
    MetricInfo{Metric::kTxDiscards, "SAI_PORT_STAT_IF_OUT_DISCARDS", "aifabric_port_transmit_discards_total",
               "Packets the port's egress refused because the buffer was full.", MetricKind::kCounter,
               MetricScope::kPort, 1},
    MetricInfo{Metric::kQueueTxBytes, "SAI_QUEUE_STAT_BYTES", "aifabric_queue_transmit_bytes_total",
               "Bytes sent from the egress queue of this priority.", MetricKind::kCounter, MetricScope::kQueue, 1},
    MetricInfo{Metric::kQueueTxPackets, "SAI_QUEUE_STAT_PACKETS", "aifabric_queue_transmit_packets_total",
               "Packets sent from the egress queue of this priority.", MetricKind::kCounter, MetricScope::kQueue, 1},
    MetricInfo{Metric::kQueueDroppedPackets, "SAI_QUEUE_STAT_DROPPED_PACKETS",
               "aifabric_queue_dropped_packets_total", "Packets dropped at the egress queue of this priority.",
               MetricKind::kCounter, MetricScope::kQueue, 1},
    MetricInfo{Metric::kQueueEcnMarked, "SAI_QUEUE_STAT_WRED_ECN_MARKED_PACKETS",
               "aifabric_queue_ecn_marked_packets_total", "Packets marked ECN CE at the egress queue of this priority.",
               MetricKind::kCounter, MetricScope::kQueue, 1},
    MetricInfo{Metric::kQueueWatermarkBytes, "SAI_QUEUE_STAT_WATERMARK_BYTES", "aifabric_queue_watermark_bytes",
               "Highest occupancy of the egress queue of this priority so far.", MetricKind::kGauge,
               MetricScope::kQueue, 1},
    MetricInfo{Metric::kQueueOccupancyBytes, "SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES", "aifabric_queue_occupancy_bytes",
               "Bytes waiting in the egress queue of this priority.", MetricKind::kGauge, MetricScope::kQueue, 1},
    MetricInfo{Metric::kPfcTxFrames, "SAI_PORT_STAT_PFC_{p}_TX_PKTS", "aifabric_port_pfc_transmit_frames_total",
               "PFC frames (pause and resume) of this priority sent upstream over the port's link.",
               MetricKind::kCounter, MetricScope::kQueue, 1},
    MetricInfo{Metric::kPfcRxFrames, "SAI_PORT_STAT_PFC_{p}_RX_PKTS", "aifabric_port_pfc_receive_frames_total",
               "PFC frames (pause and resume) of this priority received by the port.", MetricKind::kCounter,
               MetricScope::kQueue, 1},
    MetricInfo{Metric::kPfcPauseDurationUs, "SAI_PORT_STAT_PFC_{p}_RX_PAUSE_DURATION_US",
               "aifabric_port_pfc_pause_seconds_total", "Time the port's egress of this priority spent paused.",
               MetricKind::kCounter, MetricScope::kQueue, 1e-6},
    MetricInfo{Metric::kUtilization, "AIFABRIC_PORT_UTILIZATION", "aifabric_port_utilization_ratio",
               "Fraction of the port's line rate used over the last sampling interval.", MetricKind::kGauge,
               MetricScope::kPort, 1},
};

constexpr std::string_view kPriorityMark = "{p}";

}  // namespace

std::span<const MetricInfo> AllMetrics() { return kMetrics; }

const MetricInfo& Info(Metric metric) {
  const MetricInfo& info = kMetrics[static_cast<size_t>(metric)];
  assert(info.metric == metric);
  return info;
}

std::string SaiName(Metric metric, int priority) {
  std::string name(Info(metric).sai_name);
  const size_t at = name.find(kPriorityMark);
  if (at != std::string::npos) name.replace(at, kPriorityMark.size(), std::to_string(priority));
  return name;
}

std::optional<std::pair<Metric, int>> ParseSaiName(std::string_view name) {
  for (const MetricInfo& info : kMetrics) {
    const size_t at = info.sai_name.find(kPriorityMark);
    if (at == std::string_view::npos) {
      if (name == info.sai_name) return std::pair{info.metric, -1};
      continue;
    }
    const std::string_view head = info.sai_name.substr(0, at);
    const std::string_view tail = info.sai_name.substr(at + kPriorityMark.size());
    if (name.size() <= head.size() + tail.size() || !name.starts_with(head) || !name.ends_with(tail)) continue;
    const std::string_view digits = name.substr(head.size(), name.size() - head.size() - tail.size());
    if (digits.size() != 1 || !std::isdigit(static_cast<unsigned char>(digits[0])) || digits[0] > '7') continue;
    return std::pair{info.metric, digits[0] - '0'};
  }
  return std::nullopt;
}

}  // namespace aifabric
