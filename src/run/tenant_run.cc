#include "run/tenant_run.h"

#include <algorithm>
#include <chrono>

#include "core/parallel_items.h"
#include "diagnosis/diagnosis.h"
#include "diagnosis/tenant_findings.h"
#include "run/chakra_run.h"
#include "run/tenant_placement.h"
#include "workload/flow_generator.h"
#include "workload/inference_server.h"
#include "workload/job_graph_remap.h"

namespace aifabric {
namespace {

// A job repeating for a `duration` does as many steps as begin before its
// end: fewer in the shared run than alone when the others slow it. Its
// bytes on each port (the interference table's a_t(p)) are then those of
// the steps the shared run did, as its alone run counted them at the end
// of that step (each step's flows take the same paths in both runs). A
// shared run with more steps than the alone one (rare: only a faster
// shared run) takes the alone run's bytes scaled by the step counts.
void BytesOfTheSharedSteps(TenantResult& r) {
  std::vector<std::vector<uint64_t>> at_step = std::move(r.alone.step_port_tx_bytes);
  const size_t steps = r.shared.steps.size();
  if (at_step.empty() || steps == 0 || steps == at_step.size()) return;
  if (steps < at_step.size()) {
    r.port_tx_bytes = std::move(at_step[steps - 1]);
    return;
  }
  const long double scale = static_cast<long double>(steps) / static_cast<long double>(at_step.size());
  for (uint64_t& b : r.port_tx_bytes) b = static_cast<uint64_t>(static_cast<long double>(b) * scale + 0.5L);
}

// Builds every tenant but its placement; `needs` gets each one's GPUs.
Status PrepareAll(const Scenario& scenario, const BuiltFabric& fabric, std::vector<PreparedTenant>& out,
                  std::vector<int>& needs, int& storage_servers) {
  Rng rng(scenario.seed);
  FlowId next_flow = 0;
  for (const TenantSpec& spec : scenario.tenants) {
    PreparedTenant t;
    t.spec = &spec;
    int need = 0;
    switch (spec.kind) {
      case TenantKind::kTraining: {
        const Scenario::Training& training = scenario.trainings[spec.index];
        Result<PreparedTraining> p = PrepareTraining(scenario, training);
        if (!p.ok()) return p.error();
        need = p->gpus;
        t.metric_gpus = p->gpus;
        t.timed_nodes = p->step.graph.size();
        t.read_nodes = p->read_nodes;
        storage_servers = std::max(storage_servers, training.storage_reserved());
        t.checkpoint_every = training.checkpoint_every;
        // The graph (with its checkpoint) moves to the tenant; the step's
        // own copy is not read again (its figures are), so it goes: a
        // graph of a large job is tens of MB.
        t.graph = std::move(p->graph);
        p->graph = JobGraph{};
        p->step.graph = JobGraph{};
        t.training = std::move(p).value();
        break;
      }
      case TenantKind::kChakra: {
        Result<JobGraph> g = ReadChakraJob(scenario, scenario.chakras[spec.index]);
        if (!g.ok()) return g.error();
        need = g->gpu_count();
        t.graph = std::move(g).value();
        break;
      }
      case TenantKind::kCollective: {
        Result<PreparedCollectiveJob> p = PrepareCollectiveJob(scenario, scenario.collective_jobs[spec.index]);
        if (!p.ok()) return p.error();
        need = p->choice.ranks;
        t.metric_gpus = p->choice.ranks;
        t.timed_nodes = p->graph.size();
        t.graph = std::move(p->graph);
        t.collective = p->choice;
        break;
      }
      case TenantKind::kInference: {
        const Scenario::Inference& inference = scenario.inferences[spec.index];
        InferenceSpec served = inference.spec;
        if (served.first_gpu != 0 && !spec.placement.explicit_set()) {
          return Error{inference.path + ".first_gpu: beside other workload items an inference service is placed "
                                        "as a job is; give " + spec.path + ".placement instead"};
        }
        const int32_t replicas =
            served.disaggregated ? served.prefill_replicas + served.decode_replicas : served.replicas;
        need = replicas * served.tp * served.pp;
        if (spec.priority >= 0) served.priority = static_cast<uint8_t>(spec.priority);
        // A straggler on one of its GPUs stretches its iterations' kernels
        // there, as in a run of the service alone (GPU ids are the cluster's).
        served.slowdowns = fabric.stragglers;
        t.inference = std::move(served);
        break;
      }
      case TenantKind::kFlows: {
        // The stream ScenarioRun gives the same entry, so its flows are those of a flows run.
        Rng entry_rng = rng.Fork(spec.index + 1);
        const std::string field = "workload[" + spec.path.substr(spec.path.rfind('.') + 1) + "]";
        Result<std::vector<FlowSpec>> flows =
            BuildFlows(scenario.workload[spec.index], fabric.topology, entry_rng, next_flow, field);
        if (!flows.ok()) return flows.error();
        for (FlowSpec& f : *flows) {
          if (fabric.routes.Distance(f.src, f.dst) < 0) {
            return Error{field + ": flow " + std::to_string(f.id) + " from node " + std::to_string(f.src) +
                         " to node " + std::to_string(f.dst) + " has no path through the topology"};
          }
          f.start = f.start + spec.start;
          if (spec.priority >= 0) f.priority = static_cast<uint8_t>(spec.priority);
        }
        next_flow += flows->size();
        t.flows = std::move(flows).value();
        break;
      }
    }
    needs.push_back(need);
    out.push_back(std::move(t));
  }
  return Status::Ok();
}

// An inference service's replicas take consecutive GPUs from first_gpu
// (workload/inference_spec.h): its placement must be such a run.
Status PlaceInference(const BuiltFabric& fabric, PreparedTenant& t) {
  const std::vector<GpuId>& gpus = t.gpus;
  for (size_t k = 1; k < gpus.size(); ++k) {
    if (gpus[k] != gpus[0] + static_cast<GpuId>(k)) {
      return Error{t.spec->path + ".placement: an inference service takes consecutive GPUs (its replicas in GPU "
                                  "order); GPU " + std::to_string(gpus[k]) + " follows " + std::to_string(gpus[k - 1])};
    }
  }
  t.inference->first_gpu = static_cast<int32_t>(gpus.front());
  if (Status st = ValidateInferenceSpec(*t.inference, fabric.layout); !st.ok()) {
    return Error{t.spec->path + ": " + st.error().message};
  }
  return Status::Ok();
}

}  // namespace

double TenantMfu(const TenantResult& t, const TenantFigures& f) {
  if (t.model_flops_per_step <= 0 || f.headline <= Time::Zero() || t.gpus.empty()) return 0;
  return t.model_flops_per_step / (f.headline.seconds() * static_cast<double>(t.gpus.size()) * t.peak_flops_per_gpu);
}

Result<TenantRuns> RunTenants(const Scenario& scenario, const RunHooks& hooks) {
  const auto wall_start = std::chrono::steady_clock::now();
  Result<BuiltFabric> fabric = BuildFabric(scenario);
  if (!fabric.ok()) return fabric.error();
  std::vector<PreparedTenant> tenants;
  std::vector<int> needs;
  int storage_servers = 0;
  if (Status s = PrepareAll(scenario, *fabric, tenants, needs, storage_servers); !s.ok()) return s.error();
  Result<std::vector<std::vector<GpuId>>> placed = PlaceTenants(scenario, *fabric, needs, storage_servers);
  if (!placed.ok()) return placed.error();
  for (size_t i = 0; i < tenants.size(); ++i) {
    if (needs[i] == 0) continue;
    tenants[i].gpus = (*placed)[i];
    if (tenants[i].inference) {
      if (Status st = PlaceInference(*fabric, tenants[i]); !st.ok()) return st.error();
      continue;
    }
    Result<JobGraph> g = RemapJobGraph(tenants[i].graph, tenants[i].gpus);
    if (!g.ok()) return Error{tenants[i].spec->path + ": " + g.error().message};
    tenants[i].placed = std::move(g).value();
  }

  std::vector<size_t> all(tenants.size());
  for (size_t i = 0; i < all.size(); ++i) all[i] = i;
  // The shared run on this thread (its hooks are called here) and each
  // tenant's alone run (no telemetry, no live publishing: the shared run is
  // the one shown) on up to hooks.threads threads at once. Each simulation
  // owns its state and reads the fabric and tenants only, so the results do
  // not depend on the threads.
  Scenario quiet = scenario;
  quiet.telemetry.enabled = false;
  RunHooks alone_hooks;
  alone_hooks.cancel = hooks.cancel;
  std::optional<Result<TenantSimulation>> shared;
  std::vector<std::optional<Result<TenantSimulation>>> alone(tenants.size());
  RunItemsOnThreads(tenants.size() + 1, hooks.threads, [&](size_t k) {
    if (k == 0) {
      shared = SimulateTenants(scenario, *fabric, tenants, all, hooks, true);
      return;
    }
    const size_t one[] = {k - 1};
    alone[k - 1] = SimulateTenants(quiet, *fabric, tenants, one, alone_hooks, false);
  });
  if (!shared->ok()) return shared->error();
  TenantRuns runs;
  for (size_t i = 0; i < tenants.size(); ++i) {
    if (!alone[i]->ok()) return alone[i]->error();
    TenantResult r;
    r.name = tenants[i].spec->name;
    r.kind = tenants[i].spec->kind_name;
    r.gpus = tenants[i].gpus;
    r.shared = std::move((*shared)->tenants[i]);
    r.alone = std::move((*alone[i])->tenants[0]);
    r.port_tx_bytes = std::move((*alone[i])->port_tx_bytes);
    alone[i].reset();
    BytesOfTheSharedSteps(r);
    // Unfinished work (simulation.until) has no headline to compare.
    r.slowdown = r.alone.headline > Time::Zero() && r.shared.complete && r.alone.complete
                     ? static_cast<double>(r.shared.headline.ps()) / static_cast<double>(r.alone.headline.ps())
                     : 0.0;
    if (tenants[i].training) {
      r.model_flops_per_step = tenants[i].training->step.model_flops_per_step;
      r.tokens_per_step = tenants[i].training->step.tokens_per_step;
      r.peak_flops_per_gpu = tenants[i].training->step.peak_flops_per_gpu;
      if (tenants[i].timed_nodes + tenants[i].read_nodes < tenants[i].graph.size()) {
        r.checkpoint_every = tenants[i].checkpoint_every;
      }
      r.dataset_readers = static_cast<int>(tenants[i].read_nodes);
      for (size_t k = 0; k < tenants[i].read_nodes; ++k) {
        r.dataset_bytes += tenants[i].graph.node(static_cast<JobNodeIndex>(tenants[i].timed_nodes + k)).bytes;
      }
    }
    r.collective = tenants[i].collective;
    runs.tenants.push_back(std::move(r));
  }
  (*shared)->tenants.clear();
  runs.shared = std::move(*shared).value();
  std::vector<std::vector<uint64_t>> bytes;
  std::vector<double> slowdown;
  for (const TenantResult& r : runs.tenants) {
    bytes.push_back(r.port_tx_bytes);
    slowdown.push_back(r.slowdown);
  }
  std::vector<uint64_t> rates;
  for (const Port& port : fabric->topology.ports()) rates.push_back(port.rate.bps());
  std::vector<int> tiers;
  for (const PreparedTenant& t : tenants) tiers.push_back(SchedulingTier(scenario, TenantPriority(t)));
  runs.interference = Interference(bytes, rates, slowdown, tiers);
  for (size_t i = 0; i < runs.tenants.size(); ++i) {
    runs.tenants[i].bottleneck_ports = BottleneckPorts(bytes, rates, i, tiers);
  }
  std::vector<TenantLoad> loads;
  for (const TenantResult& r : runs.tenants) {
    TenantLoad l;
    l.name = r.name;
    l.port_bytes = r.port_tx_bytes;
    l.slowdown = r.slowdown;
    if (!r.shared.steps.empty() && r.shared.headline > Time::Zero()) {
      l.network_share = r.shared.mean_exposed_comm_s / r.shared.headline.seconds();
    }
    loads.push_back(std::move(l));
  }
  runs.findings = Diagnose(fabric->topology, runs.shared.observation);
  NameTenants(fabric->topology, loads, runs.findings);
  runs.topology = fabric->topology;
  runs.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  return runs;
}

}  // namespace aifabric
