#include "api/fabric_setup.h"

#include "api/ib_routes.h"
#include "fabric/topology_builder.h"
#include "flow/analytic_network.h"
#include "flow/flow_network.h"
#include "packet/packet_network.h"
#include "transport/rc_transport.h"

namespace aifabric {

Result<BuiltFabric> BuildFabric(const Scenario& scenario) {
  Result<Topology> topology = BuildTopology(scenario.topology);
  if (!topology.ok()) return topology.error();
  BuiltFabric f{std::move(topology).value(), RoutingTable(), ClusterLayout()};
  if (scenario.packet.kind == FabricKind::kIb) {
    Result<RoutingTable> routes = BuildIbRoutes(scenario, f.topology);
    if (!routes.ok()) return routes.error();
    f.routes = std::move(routes).value();
  } else {
    f.routes = RoutingTable::BuildShortestPaths(f.topology);
  }
  Result<ClusterLayout> layout = ClusterLayout::Build(f.topology, scenario.server);
  if (!layout.ok()) return layout.error();
  f.layout = std::move(layout).value();
  return f;
}

FlowConfig FlowConfigFor(const Scenario& scenario) {
  FlowConfig c;
  c.mtu_bytes = scenario.packet.mtu_bytes;
  c.wire_overhead_bytes = scenario.packet.wire_overhead_bytes;
  c.ecmp_seed = scenario.packet.ecmp_seed;
  c.qps_per_transfer = scenario.packet.qps_per_transfer;
  for (int p = 0; p < kNumPriorities; ++p) c.priority_weight[p] = scenario.packet.queues[p].dwrr_weight;
  return c;
}

FabricModel::FabricModel(Simulator& sim, const Scenario& scenario, const BuiltFabric& fabric) {
  if (scenario.model == "analytic") {
    analytic_ = std::make_unique<AnalyticNetwork>(sim, fabric.topology, fabric.routes, FlowConfigFor(scenario));
    network_ = analytic_.get();
    return;
  }
  if (scenario.model == "flow") {
    flow_ = std::make_unique<FlowNetwork>(sim, fabric.topology, fabric.routes, FlowConfigFor(scenario));
    network_ = flow_.get();
    return;
  }
  if (scenario.transport.kind == TransportKind::kRc) transport_ = std::make_unique<RcTransport>(scenario.transport);
  packet_ = std::make_unique<PacketNetwork>(sim, fabric.topology, fabric.routes, scenario.packet, transport_.get());
  network_ = packet_.get();
}

FabricModel::~FabricModel() = default;

size_t TransfersCompleted(const FabricModel& model) {
  size_t done = 0;
  if (model.packet() != nullptr) {
    for (const FlowState& f : model.packet()->flows()) done += f.done();
  } else if (model.flow() != nullptr) {
    for (const FlowNetwork::QueuePair& q : model.flow()->flows()) done += q.done();
  }
  return done;
}

}  // namespace aifabric
