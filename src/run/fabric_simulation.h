// FabricSimulation is one simulation on a scenario's fabric: the simulator,
// the network model the scenario asks for (chosen once: ModelHandle) and
// the telemetry that samples it. Flow runs, job runs and inference runs are
// each one of these with a workload on top; the report layer reads a
// finished one (report/telemetry_outputs.h). The topology and routes are
// the caller's and outlive it. Not thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "engine/simulator.h"
#include "fabric/fabric_network.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "run/model_handle.h"
#include "run/run_hooks.h"
#include "run/run_telemetry.h"
#include "scenario/scenario.h"

namespace aifabric {

class FabricSimulation {
 public:
  FabricSimulation(const Scenario& scenario, const Topology& topology, const RoutingTable& routes);
  FabricSimulation(const FabricSimulation&) = delete;
  FabricSimulation& operator=(const FabricSimulation&) = delete;

  Simulator& sim() { return sim_; }
  const Simulator& sim() const { return sim_; }
  FabricNetwork& network() { return model_->network(); }
  const FabricNetwork& network() const { return model_->network(); }
  const Topology& topology() const { return topology_; }

  // Prepares the sampling of the model's counters (simulation.telemetry;
  // the packet level samples the queues of `priorities` too) and publishes
  // them to hooks.publish with the count `transfers_completed` gives (and
  // the completion latencies `take_completions` hands over, run/run_telemetry.h
  // AttachLive). Nothing is sampled until StartTelemetry.
  void PrepareTelemetry(const std::vector<int>& priorities, const RunHooks& hooks,
                        std::function<size_t()> transfers_completed,
                        std::function<std::vector<double>()> take_completions = {});
  // Takes the first sample now and samples on while the run goes.
  void StartTelemetry();
  // Takes the last sample (the run's end).
  void FinishTelemetry();
  // The counters sampled over the run; null when telemetry is off or the
  // model has no time to sample (analytic).
  const TimeSeriesStore* series() const { return telemetry_ ? &telemetry_->store() : nullptr; }
  // Hands the sampled counters to the caller (null when series() is);
  // series() is null afterwards. REQUIRES: FinishTelemetry has been called.
  std::unique_ptr<TimeSeriesStore> TakeSeries();

 private:
  const Scenario& scenario_;
  const Topology& topology_;
  Simulator sim_;
  std::unique_ptr<ModelHandle> model_;
  std::unique_ptr<RunTelemetry> telemetry_;
};

}  // namespace aifabric
