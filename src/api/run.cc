#include "api/run.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "api/fabric_setup.h"
#include "api/ib_routes.h"
#include "flow/analytic_network.h"
#include "flow/flow_network.h"
#include "api/run_observation.h"
#include "api/scenario_loader.h"
#include "api/telemetry_outputs.h"
#include "fabric/topology_builder.h"
#include "transport/rc_transport.h"
#include "workload/flow_generator.h"
#include "workload/traffic_injector.h"

namespace aifabric {
namespace {

const char* KindOf(const TrafficSpec& spec) {
  static constexpr const char* kNames[] = {"flows", "flows", "permutation", "incast", "all_to_all", "poisson"};
  return kNames[spec.index()];
}

}  // namespace

ScenarioRun::ScenarioRun(const Scenario& scenario) : scenario_(scenario) {}
ScenarioRun::~ScenarioRun() = default;

Result<std::unique_ptr<ScenarioRun>> ScenarioRun::Prepare(const Scenario& scenario) {
  std::unique_ptr<ScenarioRun> run(new ScenarioRun(scenario));
  Result<Topology> topology = BuildTopology(scenario.topology);
  if (!topology.ok()) return topology.error();
  run->topology_ = std::move(topology).value();
  if (scenario.packet.kind == FabricKind::kIb) {
    Result<RoutingTable> routes = BuildIbRoutes(scenario, run->topology_);
    if (!routes.ok()) return routes.error();
    run->routes_ = std::make_unique<RoutingTable>(std::move(routes).value());
  } else {
    run->routes_ = std::make_unique<RoutingTable>(RoutingTable::BuildShortestPaths(run->topology_));
  }
  run->sim_ = std::make_unique<Simulator>(scenario.seed);

  // Each workload entry draws from its own stream, so adding an entry does
  // not change the flows of the others.
  Rng rng(scenario.seed);
  for (size_t i = 0; i < scenario.workload.size(); ++i) {
    Rng entry_rng = rng.Fork(i + 1);
    const std::string field = "workload[" + std::to_string(i) + "]";
    Result<std::vector<FlowSpec>> flows =
        BuildFlows(scenario.workload[i], run->topology_, entry_rng, static_cast<FlowId>(run->flows_.size()), field);
    if (!flows.ok()) return flows.error();
    std::vector<FlowSpec>& built = flows.value();
    for (const FlowSpec& f : built) {
      if (run->routes_->Distance(f.src, f.dst) < 0) {
        return Error{field + ": flow " + std::to_string(f.id) + " from node " + std::to_string(f.src) +
                     " to node " + std::to_string(f.dst) + " has no path through the topology"};
      }
    }
    std::sort(built.begin(), built.end(), [](const FlowSpec& a, const FlowSpec& b) { return a.id < b.id; });
    run->slices_.push_back(WorkloadSlice{KindOf(scenario.workload[i]), run->flows_.size(), built.size()});
    run->flows_.insert(run->flows_.end(), built.begin(), built.end());
  }
  run->finish_.assign(run->flows_.size(), Time::Infinite());

  if (scenario.transport.kind == TransportKind::kRc) {
    run->transport_ = std::make_unique<RcTransport>(scenario.transport);
  }
  NetworkModel* model;
  if (scenario.model == "flow") {
    run->flow_ = std::make_unique<FlowNetwork>(*run->sim_, run->topology_, *run->routes_, FlowConfigFor(scenario));
    model = run->flow_.get();
  } else if (scenario.model == "analytic") {
    run->analytic_ =
        std::make_unique<AnalyticNetwork>(*run->sim_, run->topology_, *run->routes_, FlowConfigFor(scenario));
    model = run->analytic_.get();
  } else {
    run->network_ = std::make_unique<PacketNetwork>(*run->sim_, run->topology_, *run->routes_, scenario.packet,
                                                    run->transport_.get());
    model = run->network_.get();
  }
  model->SetObserver(run.get());
  std::vector<FlowSpec> by_start = run->flows_;
  std::stable_sort(by_start.begin(), by_start.end(), [](const FlowSpec& a, const FlowSpec& b) {
    return a.start < b.start || (a.start == b.start && a.id < b.id);
  });
  run->injector_ = std::make_unique<TrafficInjector>(*run->sim_, *model, std::move(by_start));
  std::vector<int> priorities;
  for (const FlowSpec& f : run->flows_) {
    if (std::find(priorities.begin(), priorities.end(), f.priority) == priorities.end()) priorities.push_back(f.priority);
  }
  run->telemetry_ =
      MakeRunTelemetry(*run->sim_, scenario, run->topology_, run->network_.get(), run->flow_.get(), priorities);
  return run;
}

ProgressOptions ScenarioRun::ProgressOptionsFor() const {
  ProgressOptions options;
  options.until = scenario_.until;
  if (!flows_.empty()) {
    options.fraction = [this] { return static_cast<double>(completed_) / static_cast<double>(flows_.size()); };
  }
  return options;
}

void ScenarioRun::ServeMetrics(MetricsServer* server) {
  ServeLive(telemetry_.get(), LiveHooks{server, false}, topology_, [this] { return completed_; });
}

Result<std::unique_ptr<ScenarioRun>> ScenarioRun::PrepareFile(const std::string& path,
                                                              const std::vector<std::string>& set_overrides) {
  Result<Scenario> scenario = LoadScenarioFile(path, set_overrides);
  if (!scenario.ok()) return scenario.error();
  Result<std::unique_ptr<ScenarioRun>> run = Prepare(*scenario);
  if (!run.ok()) return Error{path + ": " + run.error().message};
  return run;
}

void ScenarioRun::Execute() {
  const auto wall_start = std::chrono::steady_clock::now();
  injector_->Start();
  if (telemetry_) telemetry_->Start();
  sim_->Run(scenario_.until);
  // The run covers up to the last flow's completion (transport timers may
  // still be pending then), the last event, or `until` if it stopped there
  // with work left.
  sim_time_ = (completed_ == flows_.size() || sim_->pending_events() == 0) ? sim_->Now() : scenario_.until;
  if (network_) network_->FinishRun(sim_time_);
  if (telemetry_) telemetry_->Finish();
  ideal_fct_.reserve(flows_.size());
  for (const FlowSpec& f : flows_) {
    const TransferRequest r = TrafficInjector::RequestFor(f);
    ideal_fct_.push_back(network_ ? network_->IdealFct(r) : flow_ ? flow_->IdealFct(r) : analytic_->IdealFct(r));
  }
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
}

PortCounters ScenarioRun::LinkCounters(PortId port) const {
  return PortCountersOf(port, network_.get(), flow_.get(), analytic_.get(), scenario_.packet.mtu_bytes,
                        scenario_.packet.wire_overhead_bytes);
}

PayloadTotals ScenarioRun::Totals() const {
  if (network_) return network_->totals();
  PayloadTotals t;
  for (const FlowSpec& f : flows_) {
    if (f.start > sim_time_) continue;  // not started
    t.sent += f.bytes;
    if (!finish_[static_cast<size_t>(f.id)].IsInfinite()) t.delivered += f.bytes;
  }
  t.in_flight = t.sent - t.delivered;
  return t;
}

TransportCounters ScenarioRun::TransportTotals() const {
  TransportCounters t;
  if (!network_) return t;  // the flow level has no transport
  for (const FlowState& f : network_->flows()) {
    t.timeouts += f.transport.timeouts;
    t.out_of_order_packets += f.transport.out_of_order_packets;
    t.cnps += f.transport.cnps;
    t.acks += f.transport.acks;
  }
  return t;
}

void ScenarioRun::OnTransferDone(FlowId id, Time finish) {
  finish_[static_cast<size_t>(id)] = finish;
  if (++completed_ == flows_.size()) sim_->Stop();
}



}  // namespace aifabric
