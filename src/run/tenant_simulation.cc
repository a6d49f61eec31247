#include "run/tenant_simulation.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "flow/gpu_network.h"
#include "run/fabric_simulation.h"
#include "run/run_observation.h"
#include "run/run_watch.h"
#include "workload/inference_server.h"
#include "workload/job_executor.h"
#include "workload/traffic_injector.h"
#include "workload/transfer_dispatcher.h"

namespace aifabric {
namespace {

// GPU-level flow ids: tenant t owns [(t + 1) << kRegionBits, (t + 2) <<
// kRegionBits), whichever tenants run beside it, so its transfers carry
// the same ids (and ECMP entropy) in every simulation. Each step takes a
// block of 2^32 of them (as an inference iteration does).
constexpr int kRegionBits = 56;
constexpr FlowId kIdsPerStep = FlowId{1} << 32;
constexpr size_t kMaxTenants = 120;  // regions below bit 63 (coflow ids must not use it)
// Inference tenant t draws its arrivals from the scenario seed's stream
// kArrivalStreams + t.
constexpr uint64_t kArrivalStreams = 0x1f0000;

// Routes a GpuNetwork completion to the tenant whose region holds the id.
class RegionRouter final : public TransferObserver {
 public:
  explicit RegionRouter(size_t tenants) : owners_(tenants, nullptr) {}
  void SetOwner(size_t tenant, TransferObserver* owner) { owners_[tenant] = owner; }
  void OnTransferDone(FlowId id, Time finish) override {
    owners_[static_cast<size_t>(id >> kRegionBits) - 1]->OnTransferDone(id, finish);
  }

 private:
  std::vector<TransferObserver*> owners_;
};

// Fabric-level completions: ids below `gpu_first` are the flow tenants'
// flows, the rest GpuNetwork's.
class FabricSplit final : public TransferObserver {
 public:
  FabricSplit(FlowId gpu_first, GpuNetwork& gpus, std::function<void(FlowId, Time)> flow_done)
      : gpu_first_(gpu_first), gpus_(gpus), flow_done_(std::move(flow_done)) {}
  void OnTransferDone(FlowId id, Time finish) override {
    if (id < gpu_first_) {
      flow_done_(id, finish);
    } else {
      gpus_.OnTransferDone(id, finish);
    }
  }

 private:
  const FlowId gpu_first_;
  GpuNetwork& gpus_;
  std::function<void(FlowId, Time)> flow_done_;
};

// One job tenant: from its start, `steps` runs of its placed graph back to
// back (or, with a duration, as many as start before start + duration),
// each on a fresh JobExecutor with a block of the tenant's region. A step
// ends when all it ran has finished, its checkpoint too. A training
// job's checkpoint (the nodes past timed_nodes) runs only in the steps
// that write one (checkpoint_every); the others run the same graph with
// the executor's node_limit at timed_nodes, so no second graph is held (a
// large job's is tens of MB, and the four-job benchmark holds one per
// tenant), and the checkpoint nodes, which have no edges, are simply left
// out.
class JobDriver {
 public:
  JobDriver(Simulator& sim, GpuNetwork& gpus, const ClusterLayout& layout, const PreparedTenant& tenant,
            JobExecutorOptions options, FlowId region_first, std::function<void()> on_finished)
      : sim_(sim), gpus_(gpus), layout_(layout), tenant_(tenant), options_(std::move(options)),
        dispatcher_(region_first), on_finished_(std::move(on_finished)) {}
  JobDriver(const JobDriver&) = delete;
  JobDriver& operator=(const JobDriver&) = delete;

  TransferDispatcher& dispatcher() { return dispatcher_; }
  void Start() {
    sim_.ScheduleCallback(tenant_.spec->start, [this] { BeginStep(); });
  }
  const std::optional<Error>& error() const { return error_; }
  bool finished() const { return finished_; }
  std::vector<JobMetrics>& steps() { return steps_; }
  std::vector<std::pair<Time, Time>>& spans() { return spans_; }
  std::vector<uint8_t>& checkpointed() { return checkpointed_; }
  std::vector<Time>& checkpoint_write() { return checkpoint_write_; }

 private:
  void BeginStep() {
    JobExecutorOptions o = options_;
    o.first_flow_id = dispatcher_.Reserve(kIdsPerStep);
    block_ = o.first_flow_id;
    step_began_ = sim_.Now();
    const size_t step = steps_.size() + 1;  // counted from 1
    checkpoint_ = has_checkpoint() && step % static_cast<size_t>(tenant_.checkpoint_every) == 0;
    if (has_checkpoint() && !checkpoint_) o.node_limit = tenant_.timed_nodes;
    o.on_done = [this] { sim_.ScheduleCallback(sim_.Now(), [this] { StepDone(); }); };
    executor_ = std::make_unique<JobExecutor>(sim_, gpus_, layout_, tenant_.placed, std::move(o));
    dispatcher_.SetOwner(block_, executor_.get());
    if (Status s = executor_->Start(); !s.ok()) {
      error_ = Error{tenant_.spec->path + ": " + s.error().message};
      sim_.Stop();
    }
  }
  void StepDone() {
    if (executor_->error()) {
      error_ = Error{tenant_.spec->path + ": " + executor_->error()->message};
      sim_.Stop();
      return;
    }
    spans_.emplace_back(step_began_, sim_.Now());
    steps_.push_back(ComputeJobMetrics(tenant_.graph, executor_->node_start(), executor_->node_finish(),
                                       tenant_.metric_gpus, tenant_.timed_nodes));
    if (has_checkpoint()) {
      Time written = step_began_;
      if (checkpoint_) {
        const std::vector<Time>& finish = executor_->node_finish();
        for (size_t i = tenant_.timed_nodes; i < finish.size(); ++i) written = Max(written, finish[i]);
      }
      checkpointed_.push_back(checkpoint_ ? 1 : 0);
      checkpoint_write_.push_back(written - step_began_);
    }
    dispatcher_.Release(block_);
    executor_.reset();
    const TenantSpec& spec = *tenant_.spec;
    const bool more = spec.duration > Time::Zero() ? sim_.Now() < spec.start + spec.duration
                                                   : steps_.size() < static_cast<size_t>(spec.steps);
    if (more) {
      BeginStep();
      return;
    }
    finished_ = true;
    on_finished_();
  }

  bool has_checkpoint() const { return tenant_.timed_nodes > 0 && tenant_.timed_nodes < tenant_.graph.size(); }

  Simulator& sim_;
  GpuNetwork& gpus_;
  const ClusterLayout& layout_;
  const PreparedTenant& tenant_;
  const JobExecutorOptions options_;
  TransferDispatcher dispatcher_;
  std::function<void()> on_finished_;
  std::unique_ptr<JobExecutor> executor_;
  FlowId block_ = 0;
  std::vector<JobMetrics> steps_;
  std::vector<std::pair<Time, Time>> spans_;  // each step's begin and end
  std::vector<uint8_t> checkpointed_;         // with a checkpoint: per step, whether it wrote one
  std::vector<Time> checkpoint_write_;        // and how long the write took
  Time step_began_;
  bool checkpoint_ = false;  // the running step writes its checkpoint
  bool finished_ = false;
  std::optional<Error> error_;
};

Time Mean(const std::vector<Time>& times) {
  int64_t sum = 0, n = 0;
  for (Time t : times) {
    if (t.IsInfinite()) continue;
    sum += t.ps();
    ++n;
  }
  return n == 0 ? Time::Zero() : Time::FromPs(sum / n);
}

}  // namespace

int TenantPriority(const PreparedTenant& t) {
  return t.spec->priority >= 0 ? t.spec->priority
         : t.inference         ? t.inference->priority
         : t.flows.empty()     ? 3
                               : t.flows.front().priority;
}

Result<TenantSimulation> SimulateTenants(const Scenario& scenario, const BuiltFabric& fabric,
                                         std::span<const PreparedTenant> tenants, std::span<const size_t> which,
                                         const RunHooks& hooks, bool observe) {
  if (tenants.size() > kMaxTenants) {
    return Error{"workload: " + std::to_string(tenants.size()) + " items share the fabric, at most " +
                 std::to_string(kMaxTenants)};
  }
  const auto wall_start = std::chrono::steady_clock::now();
  FlowId flow_ids = 0;  // every flow tenant's ids, whichever run: GpuNetwork's start after them
  for (const PreparedTenant& t : tenants) {
    for (const FlowSpec& f : t.flows) flow_ids = std::max(flow_ids, f.id + 1);
  }
  FabricSimulation simulation(scenario, fabric.topology, fabric.routes);
  Simulator& sim = simulation.sim();
  FabricNetwork& network = simulation.network();
  GpuNetwork gpus(sim, fabric.layout, network, flow_ids);
  RegionRouter router(tenants.size());
  gpus.SetObserver(&router);

  TenantSimulation out;
  out.tenants.resize(which.size());
  // Flows: one injector for all flow tenants; a flow's tenant by its id.
  std::vector<FlowSpec> flows;
  std::vector<size_t> flow_owner(static_cast<size_t>(flow_ids), which.size());
  std::vector<size_t> flow_slot(static_cast<size_t>(flow_ids), 0);
  size_t unfinished_flows = 0;
  size_t unfinished_jobs = 0;
  for (size_t w = 0; w < which.size(); ++w) {
    const PreparedTenant& t = tenants[which[w]];
    out.tenants[w].fct.assign(t.flows.size(), Time::Infinite());
    for (size_t k = 0; k < t.flows.size(); ++k) {
      flows.push_back(t.flows[k]);
      flow_owner[static_cast<size_t>(t.flows[k].id)] = w;
      flow_slot[static_cast<size_t>(t.flows[k].id)] = k;
    }
    unfinished_flows += t.flows.size();
  }
  const auto all_done = [&] {
    if (unfinished_flows == 0 && unfinished_jobs == 0) sim.Stop();
  };
  FabricSplit split(flow_ids, gpus, [&](FlowId id, Time finish) {
    const size_t w = flow_owner[static_cast<size_t>(id)];
    const size_t k = flow_slot[static_cast<size_t>(id)];
    out.tenants[w].fct[k] = finish - tenants[which[w]].flows[k].start;
    --unfinished_flows;
    all_done();
  });
  network.SetObserver(&split);
  std::stable_sort(flows.begin(), flows.end(),
                   [](const FlowSpec& a, const FlowSpec& b) { return a.start < b.start || (a.start == b.start && a.id < b.id); });
  TrafficInjector injector(sim, network, std::move(flows));

  // Jobs: one driver each, in its own region of GPU-level ids.
  JobExecutorOptions options;
  options.reduce_rate = scenario.reduce_rate();
  options.gpu_network_rate = scenario.gpu_network_rate();
  options.coflow_collectives = scenario.coflow_collectives();
  options.slowdowns = fabric.stragglers;
  std::vector<std::unique_ptr<JobDriver>> drivers(which.size());
  std::vector<std::unique_ptr<InferenceServer>> servers(which.size());
  std::optional<Error> server_error;
  for (size_t w = 0; w < which.size(); ++w) {
    const PreparedTenant& t = tenants[which[w]];
    if (t.spec->kind == TenantKind::kFlows) continue;
    if (t.inference) {
      // A service in its own region, from its start (its arrivals count from then).
      InferenceServer::Hosting hosting;
      hosting.first_flow_id = static_cast<FlowId>(which[w] + 1) << kRegionBits;
      hosting.arrivals = Rng(scenario.seed).Fork(kArrivalStreams + which[w]);  // the same in every run
      hosting.on_done = [&] {
        --unfinished_jobs;
        all_done();
      };
      servers[w] = std::make_unique<InferenceServer>(sim, gpus, fabric.layout, *t.inference, std::move(hosting));
      router.SetOwner(which[w], &servers[w]->dispatcher());
      ++unfinished_jobs;
      continue;
    }
    JobExecutorOptions o = options;
    if (t.spec->priority >= 0) o.priority = static_cast<uint8_t>(t.spec->priority);
    const FlowId region = static_cast<FlowId>(which[w] + 1) << kRegionBits;
    drivers[w] = std::make_unique<JobDriver>(sim, gpus, fabric.layout, t, o, region, [&] {
      --unfinished_jobs;
      all_done();
    });
    router.SetOwner(which[w], &drivers[w]->dispatcher());
    ++unfinished_jobs;
  }

  std::vector<int> priorities;
  for (size_t w = 0; w < which.size(); ++w) {
    const PreparedTenant& t = tenants[which[w]];
    const int p = TenantPriority(t);
    if (std::find(priorities.begin(), priorities.end(), p) == priorities.end()) priorities.push_back(p);
  }
  simulation.PrepareTelemetry(priorities, hooks, [&network] { return network.TransfersCompleted(); });
  {
    RunWatch watch(sim, hooks, ProgressOptions{});
    injector.Start();
    for (auto& d : drivers) {
      if (d) d->Start();
    }
    for (size_t w = 0; w < which.size(); ++w) {
      if (!servers[w]) continue;
      InferenceServer* server = servers[w].get();
      const TenantSpec* spec = tenants[which[w]].spec;
      sim.ScheduleCallback(spec->start, [&sim, &server_error, server, spec] {
        if (Status st = server->Start(); !st.ok()) {
          server_error = Error{spec->path + ": " + st.error().message};
          sim.Stop();
        }
      });
    }
    simulation.StartTelemetry();
    sim.Run(scenario.until);
    watch.Finish();
  }
  out.sim_time = sim.Now();
  network.FinishRun(out.sim_time);
  simulation.FinishTelemetry();
  if (server_error) return *server_error;
  for (size_t w = 0; w < which.size(); ++w) {
    const PreparedTenant& t = tenants[which[w]];
    TenantFigures& f = out.tenants[w];
    if (servers[w]) {
      const InferenceServer& server = *servers[w];
      if (!server.status().ok()) return Error{t.spec->path + ": " + server.status().error().message};
      f.complete = server.done();
      if (f.complete) {
        const InferenceResult result = server.result();
        f.inference = result.summary;
        std::vector<Time> ttft;
        for (const InferenceRequestRecord& q : result.requests) ttft.push_back(q.first_token - q.arrival);
        f.headline = Mean(ttft);
      }
    } else if (drivers[w]) {
      if (drivers[w]->error()) return *drivers[w]->error();
      f.steps = std::move(drivers[w]->steps());
      f.step_spans = std::move(drivers[w]->spans());
      f.checkpointed = std::move(drivers[w]->checkpointed());
      f.checkpoint_write = std::move(drivers[w]->checkpoint_write());
      f.complete = drivers[w]->finished();
      std::vector<Time> step_times;
      for (const JobMetrics& m : f.steps) {
        step_times.push_back(m.makespan);
        f.mean_exposed_comm_s += m.exposed_total_s() / static_cast<double>(f.steps.size());
      }
      f.headline = Mean(step_times);
    } else {
      f.complete = std::none_of(f.fct.begin(), f.fct.end(), [](Time x) { return x.IsInfinite(); });
      f.headline = Mean(f.fct);
      for (const FlowSpec& spec : t.flows) f.ideal_fct.push_back(network.IdealFct(TrafficInjector::RequestFor(spec)));
    }
  }
  out.port_tx_bytes.reserve(fabric.topology.ports().size());
  for (const Port& port : fabric.topology.ports()) out.port_tx_bytes.push_back(network.LinkCounters(port.id).tx_bytes);
  out.events = sim.events_processed();
  if (observe) {
    out.observation = ObserveSimulation(simulation, out.sim_time);
    out.port_counters.reserve(fabric.topology.ports().size());
    for (const Port& port : fabric.topology.ports()) out.port_counters.push_back(network.LinkCounters(port.id));
    out.series = simulation.TakeSeries();  // after the observation, which reads it
  }
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return out;
}

}  // namespace aifabric
