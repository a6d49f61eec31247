#include "run/scenario_run.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "run/fault_plan.h"
#include "run/fabric_setup.h"
#include "scenario/scenario_loader.h"
#include "run/run_watch.h"
#include "run/straggler_plan.h"
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
  Result<Topology> topology = BuildScenarioTopology(scenario);
  if (!topology.ok()) return topology.error();
  run->topology_ = std::move(topology).value();
  Result<RoutingTable> routes = BuildScenarioRoutes(scenario, run->topology_);
  if (!routes.ok()) return routes.error();
  run->routes_ = std::make_unique<RoutingTable>(std::move(routes).value());
  if (Result<std::vector<LinkFault>> faults = ResolveFaults(scenario, run->topology_); !faults.ok()) {
    return faults.error();
  }
  if (Status st = RefuseStragglers(scenario, "a flows run"); !st.ok()) return st.error();

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
  run->warnings_ = ScenarioWarnings(scenario, &run->topology_, run->flows_);
  run->finish_.assign(run->flows_.size(), Time::Infinite());
  run->requests_.reserve(run->flows_.size());
  for (const FlowSpec& f : run->flows_) run->requests_.push_back(TrafficInjector::RequestFor(f));

  run->simulation_ = std::make_unique<FabricSimulation>(run->scenario_, run->topology_, *run->routes_);
  FabricNetwork& network = run->simulation_->network();
  network.SetObserver(run.get());
  std::vector<FlowSpec> by_start = run->flows_;
  std::stable_sort(by_start.begin(), by_start.end(), [](const FlowSpec& a, const FlowSpec& b) {
    return a.start < b.start || (a.start == b.start && a.id < b.id);
  });
  run->injector_ = std::make_unique<TrafficInjector>(run->simulation_->sim(), network, std::move(by_start));
  for (const FlowSpec& f : run->flows_) {
    std::vector<int>& seen = run->priorities_;
    if (std::find(seen.begin(), seen.end(), f.priority) == seen.end()) seen.push_back(f.priority);
  }
  return run;
}

Result<std::unique_ptr<ScenarioRun>> ScenarioRun::PrepareFile(const std::string& path,
                                                              const std::vector<std::string>& set_overrides) {
  Result<Scenario> scenario = LoadScenarioFile(path, set_overrides);
  if (!scenario.ok()) return scenario.error();
  Result<std::unique_ptr<ScenarioRun>> run = Prepare(*scenario);
  if (!run.ok()) return Error{path + ": " + run.error().message};
  return run;
}

void ScenarioRun::Execute(const RunHooks& hooks) {
  FabricSimulation& simulation = *simulation_;
  Simulator& sim = simulation.sim();
  live_ = static_cast<bool>(hooks.publish);
  simulation.PrepareTelemetry(priorities_, hooks, [this] { return completed_; },
                              [this] { return std::exchange(recent_fct_ns_, {}); });
  // Flows completed out of all, with simulation.until as the horizon.
  ProgressOptions options;
  options.until = scenario_.until;
  if (!flows_.empty()) {
    options.fraction = [this] { return static_cast<double>(completed_) / static_cast<double>(flows_.size()); };
  }
  RunWatch watch(sim, hooks, std::move(options));
  const auto wall_start = std::chrono::steady_clock::now();
  injector_->Start();
  simulation.StartTelemetry();
  sim.Run(scenario_.until);
  // The run covers up to the last flow's completion (transport timers may
  // still be pending then), the last event, or `until` if it stopped there
  // with work left.
  sim_time_ = (completed_ == flows_.size() || sim.pending_events() == 0) ? sim.Now() : scenario_.until;
  simulation.network().FinishRun(sim_time_);
  simulation.FinishTelemetry();
  ideal_fct_.reserve(flows_.size());
  for (const TransferRequest& r : requests_) ideal_fct_.push_back(network().IdealFct(r));
  wall_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  watch.Finish();
}

void ScenarioRun::OnTransferDone(FlowId id, Time finish) {
  finish_[static_cast<size_t>(id)] = finish;
  if (live_) recent_fct_ns_.push_back(static_cast<double>((finish - flows_[static_cast<size_t>(id)].start).ps()) / 1e3);
  if (++completed_ == flows_.size()) simulation_->sim().Stop();
}

}  // namespace aifabric
