#include "run/model_handle.h"

#include <set>

#include "flow/analytic_network.h"
#include "flow/flow_counter_reader.h"
#include "flow/flow_network.h"
#include "packet/packet_counter_reader.h"
#include "packet/packet_network.h"
#include "run/fabric_setup.h"
#include "transport/rc_transport.h"

namespace aifabric {
namespace {

class PacketModel final : public ModelHandle {
 public:
  PacketModel(Simulator& sim, const Scenario& scenario, const Topology& topology, const RoutingTable& routes)
      : lossless_mask_(scenario.packet.pfc.enabled ? scenario.packet.pfc.lossless_mask : 0) {
    if (scenario.transport.kind == TransportKind::kRc) transport_ = std::make_unique<RcTransport>(scenario.transport);
    network_ = std::make_unique<PacketNetwork>(sim, topology, routes, scenario.packet, transport_.get());
  }
  FabricNetwork& network() override { return *network_; }
  const FabricNetwork& network() const override { return *network_; }
  std::vector<CounterSource> CounterSources(const std::vector<int>& priorities) const override {
    std::set<int> queues(priorities.begin(), priorities.end());
    queues.insert(3);
    for (int p = 0; p < 8; ++p) {
      if (lossless_mask_ & (1u << p)) queues.insert(p);
    }
    auto reader = std::make_unique<PacketCounterReader>(*network_, std::vector<int>(queues.begin(), queues.end()));
    std::vector<SeriesKey> keys(reader->keys().begin(), reader->keys().end());
    std::vector<CounterSource> sources;
    sources.push_back(CounterSource{std::move(reader), std::move(keys)});
    return sources;
  }

 private:
  const uint8_t lossless_mask_;  // the PFC priorities, 0 without PFC
  std::unique_ptr<RcTransport> transport_;  // null for fabric.transport.type: none
  std::unique_ptr<PacketNetwork> network_;
};

class FlowModel final : public ModelHandle {
 public:
  FlowModel(Simulator& sim, const Scenario& scenario, const Topology& topology, const RoutingTable& routes)
      : topology_(topology), network_(sim, topology, routes, FlowConfigFor(scenario)) {}
  FabricNetwork& network() override { return network_; }
  const FabricNetwork& network() const override { return network_; }
  std::vector<CounterSource> CounterSources(const std::vector<int>& /*priorities*/) const override {
    auto reader = std::make_unique<FlowCounterReader>(network_, topology_);
    std::vector<SeriesKey> keys = reader->keys();
    std::vector<CounterSource> sources;
    sources.push_back(CounterSource{std::move(reader), std::move(keys)});
    return sources;
  }

 private:
  const Topology& topology_;
  FlowNetwork network_;
};

class AnalyticModel final : public ModelHandle {
 public:
  AnalyticModel(Simulator& sim, const Scenario& scenario, const Topology& topology, const RoutingTable& routes)
      : network_(sim, topology, routes, FlowConfigFor(scenario)) {}
  FabricNetwork& network() override { return network_; }
  const FabricNetwork& network() const override { return network_; }
  std::vector<CounterSource> CounterSources(const std::vector<int>& /*priorities*/) const override { return {}; }

 private:
  AnalyticNetwork network_;
};

}  // namespace

std::unique_ptr<ModelHandle> ModelHandle::Make(Simulator& sim, const Scenario& scenario, const Topology& topology,
                                               const RoutingTable& routes) {
  switch (scenario.model) {
    case ModelKind::kPacket:
      return std::make_unique<PacketModel>(sim, scenario, topology, routes);
    case ModelKind::kFlow:
      return std::make_unique<FlowModel>(sim, scenario, topology, routes);
    case ModelKind::kAnalytic:
      return std::make_unique<AnalyticModel>(sim, scenario, topology, routes);
  }
  return nullptr;
}

}  // namespace aifabric
