#include "run/fabric_simulation.h"

namespace aifabric {

FabricSimulation::FabricSimulation(const Scenario& scenario, const Topology& topology, const RoutingTable& routes)
    : scenario_(scenario),
      topology_(topology),
      sim_(scenario.seed),
      model_(ModelHandle::Make(sim_, scenario, topology, routes)) {}

void FabricSimulation::PrepareTelemetry(const std::vector<int>& priorities, const RunHooks& hooks,
                                        std::function<size_t()> transfers_completed) {
  telemetry_ = MakeRunTelemetry(sim_, scenario_, *model_, priorities);
  AttachLive(telemetry_.get(), hooks, topology_, std::move(transfers_completed));
}

void FabricSimulation::StartTelemetry() {
  if (telemetry_) telemetry_->Start();
}

void FabricSimulation::FinishTelemetry() {
  if (telemetry_) telemetry_->Finish();
}

}  // namespace aifabric
