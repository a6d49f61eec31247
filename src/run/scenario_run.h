// ScenarioRun is one run of a scenario's flow workloads (permutation,
// incast, all-to-all, Poisson, explicit lists, HPCC flow files): Prepare
// builds everything the scenario describes (topology, routes, the network
// model, the workload's flows) and reports bad input as an Error before
// anything runs; Execute runs the simulation; the results are then read as
// data (the report layer writes them: report/run_outputs.h). Not
// thread-safe; one run per object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.h"
#include "engine/simulator.h"
#include "fabric/fabric_network.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "run/fabric_simulation.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "scenario/scenario_warnings.h"
#include "workload/traffic_spec.h"

namespace aifabric {

class TrafficInjector;

// Where each workload entry's flows sit in the run's flow list.
struct WorkloadSlice {
  std::string kind;     // "flows", "permutation", "incast", "all_to_all", "poisson"
  size_t first = 0;     // index of its first flow in ScenarioRun::flows()
  size_t count = 0;
};

class ScenarioRun final : private TransferObserver {
 public:
  // Builds the run; an Error names the scenario field or file line at fault.
  static Result<std::unique_ptr<ScenarioRun>> Prepare(const Scenario& scenario);
  // Loads a scenario file with --set overrides (see scenario_loader.h) and
  // prepares it; every Error names the file.
  static Result<std::unique_ptr<ScenarioRun>> PrepareFile(const std::string& path,
                                                          const std::vector<std::string>& set_overrides);
  ~ScenarioRun();
  ScenarioRun(const ScenarioRun&) = delete;
  ScenarioRun& operator=(const ScenarioRun&) = delete;

  // Runs until simulation.until or until no event is left, with `hooks`
  // attached (live metrics, progress).
  void Execute(const RunHooks& hooks = {});

  const Scenario& scenario() const { return scenario_; }
  const Topology& topology() const { return topology_; }
  const Simulator& sim() const { return simulation_->sim(); }
  const FabricSimulation& simulation() const { return *simulation_; }
  // The network model that ran: ask it, don't branch on which it is.
  const FabricNetwork& network() const { return simulation_->network(); }
  // What link `port` carried and lost (the fluid models know only bytes).
  PortCounters LinkCounters(PortId port) const { return network().LinkCounters(port); }
  // All flows in id order (flow id == index).
  const std::vector<FlowSpec>& flows() const { return flows_; }
  const std::vector<WorkloadSlice>& slices() const { return slices_; }
  // The traps the scenario walks into (scenario/scenario_warnings.h), with
  // its built flows: found by Prepare.
  const std::vector<ScenarioWarning>& warnings() const { return warnings_; }
  // The transfer the run started for flow `id` (its source port set, as
  // TrafficInjector::RequestFor gives it).
  const TransferRequest& request(FlowId id) const { return requests_[static_cast<size_t>(id)]; }
  // Finish time of flow `id`, or Time::Infinite() if it did not complete.
  Time finish(FlowId id) const { return finish_[static_cast<size_t>(id)]; }
  size_t completed() const { return completed_; }
  // Ideal (standalone) FCT of flow `id` on the idle fabric (computed once,
  // by Execute). REQUIRES: Execute() has run.
  Time ideal_fct(FlowId id) const { return ideal_fct_[static_cast<size_t>(id)]; }
  // Simulated time covered: the end of the run.
  Time sim_time() const { return sim_time_; }
  double wall_seconds() const { return wall_seconds_; }
  // The counters sampled over the run (simulation.telemetry); null when
  // telemetry is off or the model has no time to sample (analytic).
  const TimeSeriesStore* series() const { return simulation_->series(); }

 private:
  explicit ScenarioRun(const Scenario& scenario);
  void OnTransferDone(FlowId id, Time finish) override;

  const Scenario scenario_;
  Topology topology_;
  std::unique_ptr<RoutingTable> routes_;
  std::unique_ptr<FabricSimulation> simulation_;
  std::vector<FlowSpec> flows_;
  std::vector<TransferRequest> requests_;  // by flow id
  std::vector<WorkloadSlice> slices_;
  std::vector<ScenarioWarning> warnings_;
  std::vector<Time> finish_;
  std::vector<Time> ideal_fct_;
  std::vector<int> priorities_;  // of the flows, in first-seen order
  std::unique_ptr<TrafficInjector> injector_;
  size_t completed_ = 0;
  bool live_ = false;                  // hooks.publish is set: keep recent_fct_ns_
  std::vector<double> recent_fct_ns_;  // FCTs since the last live sample
  Time sim_time_;
  double wall_seconds_ = 0;
};

}  // namespace aifabric
