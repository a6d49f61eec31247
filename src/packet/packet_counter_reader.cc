#include "packet/packet_counter_reader.h"

#include <cassert>

namespace aifabric {

PacketCounterReader::PacketCounterReader(PacketNetwork& network, std::vector<int> priorities)
    : network_(network), priorities_(std::move(priorities)) {
  [[maybe_unused]] unsigned seen = 0;
  for (int p : priorities_) {
    assert(p >= 0 && p < kNumPriorities && !(seen & (1u << p)));
    seen |= 1u << p;
  }
  const std::vector<Port>& ports = network_.topology().ports();
  keys_.reserve(ports.size() * (std::size(kPortMetrics) + priorities_.size() * std::size(kQueueMetrics)));
  for (const Port& port : ports) {
    for (Metric m : kPortMetrics) keys_.push_back(SeriesKey{port.node, port.id, -1, m});
    for (int p : priorities_) {
      for (Metric m : kQueueMetrics) keys_.push_back(SeriesKey{port.node, port.id, p, m});
    }
  }
}

void PacketCounterReader::Read(Time now, std::span<double> out) {
  assert(out.size() == keys_.size());
  double* v = out.data();
  const PortId n = static_cast<PortId>(network_.topology().ports().size());
  for (PortId id = 0; id < n; ++id) {
    EgressPort& port = network_.port(id);
    const PortCounters& c = port.counters();
    const PortRxCounters& rx = network_.received(id);
    // In kPortMetrics' order.
    *v++ = static_cast<double>(c.tx_bytes);
    *v++ = static_cast<double>(rx.rx_bytes);
    *v++ = static_cast<double>(c.tx_packets);
    *v++ = static_cast<double>(rx.rx_packets);
    *v++ = static_cast<double>(c.drop_packets);
    for (int p : priorities_) {
      const QueueCounters q = port.queue_counters(p);
      // In kQueueMetrics' order.
      *v++ = static_cast<double>(q.tx_bytes);
      *v++ = static_cast<double>(q.drop_packets);
      *v++ = static_cast<double>(q.ecn_marks);
      *v++ = static_cast<double>(port.TakePeakQueueBytes(p));
      *v++ = static_cast<double>(q.watermark_bytes);
      *v++ = static_cast<double>(q.pfc_frames_tx);
      *v++ = static_cast<double>(q.pfc_frames_rx);
      *v++ = port.PauseTime(p, now).us_f();
    }
  }
  assert(v == out.data() + out.size());
}

}  // namespace aifabric
