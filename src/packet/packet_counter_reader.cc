#include "packet/packet_counter_reader.h"

#include <cassert>

namespace aifabric {
namespace {
// How many ports ahead Read starts loading (a few hundred ns of latency
// over about 10 ns of work per port).
constexpr PortId kPrefetchPorts = 16;
// A counter as a double: through int64 (one instruction; an unsigned
// conversion takes several), exact below 2^53, and counters stay far below
// 2^63.
double D(uint64_t counter) { return static_cast<double>(static_cast<int64_t>(counter)); }
}  // namespace

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
  versions_.resize(ports.size());
  events_.resize(ports.size() * priorities_.size());
  for (const Port& port : ports) Refresh(port.id, network_.egress(port.id));
}

void PacketCounterReader::Refresh(PortId id, const EgressPort& port) {
  versions_[static_cast<size_t>(id)] = port.queue_events_version();
  CachedEvents* e = &events_[static_cast<size_t>(id) * priorities_.size()];
  for (int p : priorities_) {
    const QueueCounters q = port.queue_counters(p);
    e->drop_packets = D(q.drop_packets);
    e->ecn_marks = D(q.ecn_marks);
    e->pfc_frames_tx = D(q.pfc_frames_tx);
    e->pfc_frames_rx = D(q.pfc_frames_rx);
    e->closed_pause = Time::FromPs(static_cast<int64_t>(q.pfc_pause_ps));
    ++e;
  }
}

void PacketCounterReader::Read(Time now, std::span<double> out) {
  assert(out.size() == keys_.size());
  double* v = out.data();
  const CachedEvents* e = events_.data();
  const PortId n = static_cast<PortId>(versions_.size());
  const int first_priority = priorities_.empty() ? 0 : priorities_[0];
  for (PortId id = 0; id < n; ++id) {
    // Memory latency, not work, bounds a Read: load ports ahead.
    if (id + kPrefetchPorts < n) network_.port(id + kPrefetchPorts).PrefetchForRead(first_priority);
    EgressPort& port = network_.port(id);
    const PortCounters& c = port.counters();
    const PortRxCounters& rx = network_.received(id);
    if (port.queue_events_version() != versions_[static_cast<size_t>(id)]) Refresh(id, port);
    // In kPortMetrics' order.
    *v++ = D(c.tx_bytes);
    *v++ = D(rx.rx_bytes);
    *v++ = D(c.tx_packets);
    *v++ = D(rx.rx_packets);
    *v++ = D(c.drop_packets);
    for (int p : priorities_) {
      // In kQueueMetrics' order.
      *v++ = D(port.queue_tx_bytes(p));
      *v++ = e->drop_packets;
      *v++ = e->ecn_marks;
      *v++ = D(port.TakePeakQueueBytes(p));
      *v++ = D(port.queue_watermark_bytes(p));
      *v++ = e->pfc_frames_tx;
      *v++ = e->pfc_frames_rx;
      *v++ = (e->closed_pause + port.OpenPauseTime(p, now)).us_f();
      ++e;
    }
  }
  assert(v == out.data() + out.size());
}

}  // namespace aifabric
