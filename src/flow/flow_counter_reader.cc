#include "flow/flow_counter_reader.h"

#include <cassert>

namespace aifabric {

FlowCounterReader::FlowCounterReader(const FlowNetwork& network, const Topology& topology)
    : network_(network),
      wire_per_payload_(static_cast<double>(network.config().mtu_bytes + network.config().wire_overhead_bytes) /
                        static_cast<double>(network.config().mtu_bytes)) {
  assert(network.config().mtu_bytes > 0);
  keys_.reserve(topology.ports().size());
  for (const Port& port : topology.ports()) keys_.push_back(SeriesKey{port.node, port.id, -1, Metric::kTxBytes});
}

void FlowCounterReader::Read(Time /*now*/, std::span<double> out) {
  assert(out.size() == keys_.size());
  network_.BytesCarried(out);
  for (double& bytes : out) bytes *= wire_per_payload_;
}

}  // namespace aifabric
