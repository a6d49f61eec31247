// ScenarioRun is the facade the CLI (and later the server) uses for one run:
// Prepare builds everything a scenario describes (topology, routes, the
// network model, the workload's flows) and reports bad input as an Error
// before anything runs; Execute runs the simulation; the results are then
// read by outputs.h. This is the one place that wires a concrete network
// model to the workload. Not thread-safe; one run per object.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/run_telemetry.h"
#include "api/scenario.h"
#include "core/result.h"
#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"
#include "telemetry/progress_reporter.h"
#include "workload/traffic_spec.h"

namespace aifabric {

class AnalyticNetwork;
class FlowNetwork;
class TrafficInjector;
class Transport;

// Where each workload entry's flows sit in the run's flow list.
struct WorkloadSlice {
  std::string kind;     // "flows", "permutation", "incast", "all_to_all", "poisson"
  size_t first = 0;     // index of its first flow in ScenarioRun::flows()
  size_t count = 0;
};

class ScenarioRun : private TransferObserver {
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

  // Runs until simulation.until or until no event is left.
  void Execute();

  const Scenario& scenario() const { return scenario_; }
  const Topology& topology() const { return topology_; }
  const Simulator& sim() const { return *sim_; }
  Simulator& mutable_sim() { return *sim_; }
  // What a progress display of this run shows: flows completed out of all,
  // with simulation.until as the horizon.
  ProgressOptions ProgressOptionsFor() const;
  // The network model that ran: the packet level (with its counters) or the
  // flow level; one of the two is null.
  const PacketNetwork* packet_network() const { return network_.get(); }
  const FlowNetwork* flow_network() const { return flow_.get(); }
  const AnalyticNetwork* analytic_network() const { return analytic_.get(); }
  const char* model_name() const { return network_ ? "packet" : flow_ ? "flow" : "analytic"; }
  // What each link carried and lost, whichever the model (the flow level
  // knows only bytes: no drops, marks, pauses or queues).
  PortCounters LinkCounters(PortId port) const;
  PayloadTotals Totals() const;
  TransportCounters TransportTotals() const;
  uint64_t pfc_deadlocks() const { return network_ ? network_->pfc_deadlocks() : 0; }
  // All flows in id order (flow id == index).
  const std::vector<FlowSpec>& flows() const { return flows_; }
  const std::vector<WorkloadSlice>& slices() const { return slices_; }
  // Finish time of flow `id`, or Time::Infinite() if it did not complete.
  Time finish(FlowId id) const { return finish_[static_cast<size_t>(id)]; }
  // Ideal (standalone) FCT of flow `id` on the idle fabric (computed once,
  // by Execute). REQUIRES: Execute() has run.
  Time ideal_fct(FlowId id) const { return ideal_fct_[static_cast<size_t>(id)]; }
  // Simulated time covered: the end of the run.
  Time sim_time() const { return sim_time_; }
  double wall_seconds() const { return wall_seconds_; }
  // The counters sampled over the run (simulation.telemetry); null when
  // telemetry is off or the model has no time to sample (analytic).
  const TimeSeriesStore* series() const { return telemetry_ ? &telemetry_->store() : nullptr; }
  // Serves the sampled counters live on `server` while the run goes.
  // REQUIRES: before Execute; `server` outlives the run.
  void ServeMetrics(MetricsServer* server);

 private:
  explicit ScenarioRun(const Scenario& scenario);
  void OnTransferDone(FlowId id, Time finish) override;

  const Scenario scenario_;
  Topology topology_;
  std::unique_ptr<RoutingTable> routes_;
  std::unique_ptr<Simulator> sim_;
  std::unique_ptr<Transport> transport_;   // null for fabric.transport.type: none
  std::unique_ptr<PacketNetwork> network_;  // packet level, or
  std::unique_ptr<FlowNetwork> flow_;       // flow level, or
  std::unique_ptr<AnalyticNetwork> analytic_;  // alpha-beta
  std::vector<FlowSpec> flows_;
  std::vector<WorkloadSlice> slices_;
  std::vector<Time> finish_;
  std::vector<Time> ideal_fct_;
  std::unique_ptr<TrafficInjector> injector_;
  std::unique_ptr<RunTelemetry> telemetry_;  // null: nothing sampled
  size_t completed_ = 0;
  Time sim_time_;
  double wall_seconds_ = 0;
};

}  // namespace aifabric
