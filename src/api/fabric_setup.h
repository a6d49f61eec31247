// The fabric of a scenario, built once and shared by the runs that use it
// (`aifabric collective` sizes, training steps): its topology, routes and
// GPU layout, and, per simulation, the network model the scenario asks for
// (simulation.model: packet, with its transport, flow or analytic). Not
// thread-safe.
#pragma once

#include <memory>

#include "api/scenario.h"
#include "core/result.h"
#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "fabric/network_model.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/flow_config.h"

namespace aifabric {

class AnalyticNetwork;
class FlowNetwork;
class PacketNetwork;
class Transport;

struct BuiltFabric {
  Topology topology;
  RoutingTable routes;
  ClusterLayout layout;
};

// Errors name the scenario field (topology, IB routes, cluster layout).
Result<BuiltFabric> BuildFabric(const Scenario& scenario);

// The flow-level model's knobs from the same fields the packet model reads.
FlowConfig FlowConfigFor(const Scenario& scenario);

// One simulation's network model over a BuiltFabric.
class FabricModel;
// Transfers (queue pairs) of the fabric model that have completed so far:
// a scan of its transfers (for live metrics, not for a hot path).
size_t TransfersCompleted(const FabricModel& model);

class FabricModel {
 public:
  // `sim` and `fabric` outlive this.
  FabricModel(Simulator& sim, const Scenario& scenario, const BuiltFabric& fabric);
  ~FabricModel();
  FabricModel(const FabricModel&) = delete;
  FabricModel& operator=(const FabricModel&) = delete;

  NetworkModel& network() { return *network_; }
  // The concrete model: one of the three is non-null.
  PacketNetwork* packet() { return packet_.get(); }
  const PacketNetwork* packet() const { return packet_.get(); }
  const FlowNetwork* flow() const { return flow_.get(); }
  const AnalyticNetwork* analytic() const { return analytic_.get(); }

 private:
  std::unique_ptr<Transport> transport_;
  std::unique_ptr<PacketNetwork> packet_;
  std::unique_ptr<FlowNetwork> flow_;
  std::unique_ptr<AnalyticNetwork> analytic_;
  NetworkModel* network_ = nullptr;
};

}  // namespace aifabric
