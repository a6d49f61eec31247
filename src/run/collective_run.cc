#include "run/collective_run.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>

#include "run/fabric_setup.h"
#include "run/fabric_simulation.h"
#include "run/run_watch.h"
#include "run/straggler_plan.h"
#include "scenario/scenario_loader.h"
#include "flow/gpu_network.h"
#include "workload/collective_coflow.h"
#include "workload/collective_executor.h"

namespace aifabric {
namespace {

// What NCCL's tuner chooses among for `op` (src/graph/tuning.cc): ring and
// tree for all_reduce, plus NVLS with NVLink SHARP; one algorithm
// otherwise.
std::vector<CollectiveAlgorithm> AutoAlgorithms(CollectiveOp op, bool nvls) {
  if (op != CollectiveOp::kAllReduce) return {CollectiveAlgorithm::kDefault};
  std::vector<CollectiveAlgorithm> a{CollectiveAlgorithm::kRing, CollectiveAlgorithm::kTree};
  if (nvls) a.push_back(CollectiveAlgorithm::kNvls);
  return a;
}

// The protocols worth timing: NVLS runs Simple only; LL and LL128 carry
// less data per line and NCCL caps their bandwidth, so past 64 MiB only
// Simple can win.
std::vector<CollectiveProtocol> AutoProtocols(CollectiveAlgorithm algorithm, uint64_t bytes) {
  if (algorithm == CollectiveAlgorithm::kNvls || bytes > (64ull << 20)) return {CollectiveProtocol::kSimple};
  return {CollectiveProtocol::kSimple, CollectiveProtocol::kLl, CollectiveProtocol::kLl128};
}

// One collective's DAG in a fresh simulation; returns its duration.
// How a caller watches the sweep's simulations: its hooks, and the
// fraction of the sweep done.
struct SweepWatch {
  const RunHooks& hooks;
  std::function<double()> fraction;
  // Runs `sim` under the hooks (cancel, progress callback).
  void Run(Simulator& sim) const {
    ProgressOptions p;
    p.fraction = fraction;
    RunWatch watch(sim, hooks, std::move(p));
    sim.Run();
    watch.Finish();
  }
};

// The faults as `simulation` saw them (the network's link faults; a
// straggler was refused).
std::vector<FaultOutcome> FaultsOf(const FabricSimulation& simulation) { return simulation.network().FaultOutcomes(); }

Result<Time> RunOne(const Scenario& scenario, const BuiltFabric& fabric, const CollectiveDag& dag, uint64_t& events,
                    const SweepWatch& watch, std::vector<FaultOutcome>& faults) {
  FabricSimulation simulation(scenario, fabric.topology, fabric.routes);
  Simulator& sim = simulation.sim();
  GpuNetwork gpus(sim, fabric.layout, simulation.network());
  // Every rank is its own endpoint of the GpuNetwork (GPUs, then the
  // servers' NVSwitches), so nothing is "local" to the executor.
  std::vector<NodeId> endpoints;
  for (CollectiveRank r = 0; r < dag.num_gpu_ranks(); ++r) endpoints.push_back(r);
  for (int s = 0; s < dag.num_switch_ranks(); ++s) endpoints.push_back(gpus.nvswitch(s));
  FixedRateLocalTransfers unused_local(sim, scenario.server.nvlink_per_dir, scenario.server.nvlink_latency);
  CollectiveExecutorOptions exec;
  exec.reduce_rate = scenario.reduce_rate();
  CollectiveExecutor executor(sim, gpus, unused_local, dag, std::move(endpoints), exec);
  gpus.SetObserver(&executor);
  unused_local.SetObserver(&executor);
  if (Status s = executor.Start(); !s.ok()) return s.error();
  watch.Run(sim);  // until the fabric is quiet (transport timers lapse once all is acknowledged)
  events += sim.events_processed();
  if (!executor.done()) return Error{"the collective did not complete (the fabric stalled); see its pfc/ib settings"};
  faults = FaultsOf(simulation);
  return executor.duration();
}

// Records when a coflow finished.
class CoflowDone final : public TransferObserver {
 public:
  void OnTransferDone(FlowId /*id*/, Time finish) override { finish_ = finish; }
  std::optional<Time> finish() const { return finish_; }

 private:
  std::optional<Time> finish_;
};

// One collective as a coflow in a fresh simulation; returns its duration.
Result<Time> RunOneCoflow(const Scenario& scenario, const BuiltFabric& fabric, const CollectiveCoflow& coflow,
                          uint64_t& events, const SweepWatch& watch, std::vector<FaultOutcome>& faults) {
  if (coflow.edges.empty()) return Time::Zero();
  FabricSimulation simulation(scenario, fabric.topology, fabric.routes);
  Simulator& sim = simulation.sim();
  GpuNetwork gpus(sim, fabric.layout, simulation.network());
  std::vector<NodeId> endpoints;
  for (CollectiveRank r = 0; r < coflow.gpu_ranks; ++r) endpoints.push_back(r);
  CoflowDone done;
  gpus.SetObserver(&done);
  if (Status s = gpus.StartCoflow(MakeCoflowRequest(coflow, endpoints, 0, 0, 3, scenario.reduce_rate())); !s.ok()) {
    return s.error();
  }
  watch.Run(sim);
  events += sim.events_processed();
  if (!done.finish()) return Error{"the collective did not complete"};
  faults = FaultsOf(simulation);
  return *done.finish();
}

}  // namespace

Result<CollectiveSweepResult> RunCollectiveSweep(const Scenario& scenario, const CollectiveRequest& request,
                                                 const RunHooks& hooks) {
  const auto wall_start = std::chrono::steady_clock::now();
  // A collective moves data and computes nothing: no kernel to slow.
  if (Status st = RefuseStragglers(scenario, "a collective sweep"); !st.ok()) return st.error();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  const ClusterLayout& layout = fabric->layout;
  CollectiveSweepResult result;
  result.ranks = request.gpus == 0 ? layout.gpus() : request.gpus;
  if (result.ranks < 1 || result.ranks > layout.gpus()) {
    return Error{"--gpus: " + std::to_string(request.gpus) + " is not between 1 and the cluster's " +
                 std::to_string(layout.gpus()) + " GPUs"};
  }
  result.ranks_per_server = std::min(result.ranks, layout.gpus_per_server());
  if (result.ranks % result.ranks_per_server != 0) {
    return Error{"--gpus: " + std::to_string(result.ranks) + " GPUs do not fill whole servers of " +
                 std::to_string(result.ranks_per_server)};
  }
  result.channels = request.channels > 0 ? request.channels : result.ranks_per_server;
  Result<std::vector<uint64_t>> sizes = request.sizes.empty() ? SweepSizes(request.sweep) : request.sizes;
  if (!sizes.ok()) return sizes.error();
  const std::vector<CollectiveAlgorithm> algorithms =
      request.algorithm ? std::vector<CollectiveAlgorithm>{*request.algorithm}
                        : AutoAlgorithms(request.op, scenario.gpu.nvls && result.ranks_per_server > 1);
  const bool coflows = scenario.coflow_collectives();
  const SweepWatch watch{hooks, [&result, &sizes] {
                           return static_cast<double>(result.rows.size()) / static_cast<double>(sizes->size());
                         }};
  for (uint64_t requested : *sizes) {
    if (hooks.cancel != nullptr && hooks.cancel->load()) return Error{"cancelled"};
    CollectiveOptions options;
    options.op = request.op;
    options.ranks = result.ranks;
    options.ranks_per_server = result.ranks_per_server;
    options.bytes = SizesFor(request.op, requested, result.ranks).bytes;
    options.channels = result.channels;
    options.root = request.root;
    options.pxn = request.pxn && result.ranks > result.ranks_per_server;
    if (request.max_dag_nodes != 0) options.max_dag_nodes = request.max_dag_nodes;
    // The fastest candidate (ties: the first, so the choice is stable). A
    // candidate of the automatic choice that cannot be built at this size
    // (e.g. a DAG too large for its chunk size) is not a candidate.
    std::optional<Time> best;
    std::optional<Error> unbuilt;
    CollectiveAlgorithm best_algorithm = algorithms.front();
    CollectiveProtocol best_protocol = CollectiveProtocol::kSimple;
    std::vector<FaultOutcome> best_faults;
    for (CollectiveAlgorithm algorithm : algorithms) {
      options.algorithm = algorithm;
      options.chunk_bytes =
          request.chunk_bytes != 0 ? request.chunk_bytes : NcclChunkBytes(request.op, algorithm, result.ranks);
      for (CollectiveProtocol protocol : request.protocol ? std::vector<CollectiveProtocol>{*request.protocol}
                                                          : AutoProtocols(algorithm, options.bytes)) {
        options.protocol = protocol;
        const ProtocolSpec latencies = GetProtocolSpec(protocol, scenario.calibration_spec());
        options.step_latency = latencies.step_latency;
        options.net_step_latency = latencies.net_step_latency;
        options.base_latency = latencies.base_latency;
        options.bus_efficiency = latencies.bus_efficiency;
        options.nvls_tree_efficiency = latencies.nvls_tree_efficiency;
        Result<Time> time = Time::Zero();
        std::vector<FaultOutcome> faults;
        if (coflows && HasCoflowForm(options.op, algorithm)) {
          Result<CollectiveCoflow> coflow =
              BuildCollectiveCoflow(options, {scenario.server.nvlink_per_dir, scenario.gpu_network_rate()});
          if (!coflow.ok()) {
            if (request.algorithm) return coflow.error();
            unbuilt = coflow.error();
            continue;
          }
          time = RunOneCoflow(scenario, *fabric, *coflow, result.events, watch, faults);
        } else {
          Result<CollectiveDag> dag = BuildCollective(options);
          if (!dag.ok()) {
            if (request.algorithm) return dag.error();
            unbuilt = dag.error();
            continue;
          }
          time = RunOne(scenario, *fabric, *dag, result.events, watch, faults);
        }
        if (hooks.cancel != nullptr && hooks.cancel->load()) return Error{"cancelled"};
        if (!time.ok()) return time.error();
        if (!best || *time < *best) {
          best = *time;
          best_algorithm = algorithm;
          best_protocol = protocol;
          best_faults = std::move(faults);
        }
      }
    }
    if (!best) return *unbuilt;  // no candidate could be built
    result.algorithms.push_back(best_algorithm);
    result.protocols.push_back(best_protocol);
    result.faults.push_back(std::move(best_faults));
    const Time time = *best;
    result.requested_bytes.push_back(requested);
    result.times.push_back(time);
    // One simulation serves both halves: in place or not, the same bytes
    // cross the same links.
    result.rows.push_back(MakeSweepRow(request.op, result.ranks, requested, request.root, time, time,
                                       request.data_check));
  }
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return result;
}

const char* DefaultCollectiveScenarioText() {
  return "name: collective\n"
         "cluster: {servers: 2, gpus_per_server: 8, gpu: H100, nic: {model: CX7-400G, per_gpu: 1}}\n"
         "fabric: {kind: roce, topology: {type: rail_optimized}, switch: 64x400G, mtu: 4KiB}\n";
}

}  // namespace aifabric
