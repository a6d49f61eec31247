// FlowCounterReader publishes the flow level's counters to telemetry: the
// bytes each port has sent on the wire so far (kTxBytes), one series per
// topology port. The flow level knows no packets, queues, drops or pauses,
// so it has no other series. Wire bytes are the payload carried scaled by
// (MTU + per-packet overhead) / MTU of the network's FlowConfig, the rate
// the model grants it at. Reads
// are one pass over the active transfers. Not thread-safe.
#pragma once

#include <span>
#include <vector>

#include "fabric/topology.h"
#include "flow/flow_network.h"
#include "telemetry/sampler.h"

namespace aifabric {

class FlowCounterReader final : public CounterReader {
 public:
  FlowCounterReader(const FlowNetwork& network, const Topology& topology);
  // The series it fills, in order: kTxBytes of every port, by port id.
  const std::vector<SeriesKey>& keys() const { return keys_; }
  void Read(Time now, std::span<double> out) override;

 private:
  const FlowNetwork& network_;
  const double wire_per_payload_;
  std::vector<SeriesKey> keys_;
};

}  // namespace aifabric
