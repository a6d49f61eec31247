#include "run/fabric_simulation.h"

#include <stdexcept>

#include "run/fault_plan.h"
#include "run/ib_routes.h"

namespace aifabric {

FabricSimulation::FabricSimulation(const Scenario& scenario, const Topology& topology, const RoutingTable& routes)
    : scenario_(scenario),
      topology_(topology),
      sim_(scenario.seed),
      model_(ModelHandle::Make(sim_, scenario, topology, routes)) {
  // BuildFabric checked the faults (run/fault_plan.h); a failure here is a bug.
  Result<std::vector<LinkFault>> faults = ResolveFaults(scenario, topology);
  if (!faults.ok()) throw std::logic_error(faults.error().message);
  if (Status st = model_->network().InjectFaults(*faults, IbFaultRoutes(scenario, topology)); !st.ok()) {
    throw std::logic_error(st.error().message);
  }
}

void FabricSimulation::PrepareTelemetry(const std::vector<int>& priorities, const RunHooks& hooks,
                                        std::function<size_t()> transfers_completed,
                                        std::function<std::vector<double>()> take_completions) {
  telemetry_ = MakeRunTelemetry(sim_, scenario_, *model_, priorities);
  AttachLive(telemetry_.get(), hooks, topology_, std::move(transfers_completed), std::move(take_completions));
}

void FabricSimulation::StartTelemetry() {
  if (telemetry_) telemetry_->Start();
}

void FabricSimulation::FinishTelemetry() {
  if (telemetry_) telemetry_->Finish();
}

std::unique_ptr<TimeSeriesStore> FabricSimulation::TakeSeries() {
  if (!telemetry_) return nullptr;
  auto store = std::make_unique<TimeSeriesStore>(telemetry_->TakeStore());
  telemetry_.reset();
  return store;
}

}  // namespace aifabric
