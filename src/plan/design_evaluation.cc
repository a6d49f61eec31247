#include "plan/design_evaluation.h"

#include <chrono>

#include "plan/design_scenario.h"
#include "report/training_memory_text.h"
#include "run/fabric_setup.h"
#include "run/job_runs.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

Result<Topology> TopologyOf(Result<BuiltFabric> fabric) {
  if (!fabric) return fabric.error();
  return std::move(fabric->topology);
}

// The useful GPU-hours a design's utilization buys over the years, and per
// dollar of its cluster's cost of ownership.
void Value(const PlanRequirements& r, DesignOutcome& out) {
  out.useful_gpu_hours = r.gpus * kHoursPerYear * r.costs.years * out.effective_gpu_utilization;
  const double tco = out.cost.cluster_tco_usd();
  out.useful_gpu_hours_per_usd = tco > 0 ? out.useful_gpu_hours / tco : 0;
}

// "workloads.N" of the i-th training workload.
std::string TrainingPath(const PlanRequirements& r, size_t i) {
  for (const PlanWorkload& w : r.workloads) {
    if (w.kind == "training" && i-- == 0) return w.path + " (" + w.name + ")";
  }
  return "workloads";
}

WorkloadOutcome InferenceOutcome(const PlanWorkload& w, const InferenceRunResult& r) {
  WorkloadOutcome o;
  o.name = w.name;
  o.kind = "inference";
  const InferenceSummary& s = r.result.summary;
  o.goodput_per_s = s.goodput_per_s;
  o.ttft_p50_s = s.ttft.p50_ms / 1e3;
  o.tpot_p50_s = s.tpot.p50_ms / 1e3;
  o.slo_attainment = s.slo_attainment;
  return o;
}

}  // namespace

std::string ParallelismName(const ParallelismSpec& p) {
  std::string s = "tp" + std::to_string(p.tp) + " pp" + std::to_string(p.pp) + " dp" + std::to_string(p.dp);
  if (p.ep > 1) s += " ep" + std::to_string(p.ep);
  return s;
}

WorkloadOutcome TrainingOutcome(const PlanWorkload& w, const TrainingRunResult& r, const FabricBottleneck& b) {
  WorkloadOutcome o;
  o.name = w.name;
  o.kind = "training";
  o.parallelism = ParallelismName(r.parallelism);
  o.tp = r.parallelism.tp;
  o.pp = r.parallelism.pp;
  o.dp = r.parallelism.dp;
  o.ep = r.parallelism.ep;
  o.fits = r.memory.fits();
  o.memory_per_gpu_bytes = r.memory.worst().total_bytes();
  o.gpus = r.gpus;
  o.step_time_s = r.step_time.seconds();
  o.mfu = r.mfu;
  o.effective_gpu_utilization = r.metrics.effective_utilization;
  o.tokens_per_s = r.tokens_per_s;
  for (size_t d = 0; d < kCommDimensionCount; ++d) {
    if (r.metrics.exposed_s[d] > o.exposed_comm_s) {
      o.exposed_comm_s = r.metrics.exposed_s[d];
      o.bottleneck_dimension = static_cast<CommDimension>(d);
      o.bottleneck = std::string(CommDimensionName(o.bottleneck_dimension));
    }
  }
  o.bottleneck_tier = b.tier;
  o.bottleneck_link = b.link;
  o.bottleneck_link_busy = b.busy;
  return o;
}

Status CheckTrainingMemory(const PlanRequirements& r, const Scenario& scenario) {
  Result<std::vector<std::string>> memory = TrainingMemoryWarnings(scenario);
  if (!memory) return Error{r.source_file + ": " + memory.error().message};
  for (size_t i = 0; i < memory->size(); ++i) {
    if ((*memory)[i].empty()) continue;
    std::string why = (*memory)[i];
    if (why.rfind("warning: ", 0) == 0) why = why.substr(9);
    return Error{r.source_file + ": " + TrainingPath(r, i) + " does not fit in GPU memory: " + why +
                 "; give it more model parallelism (tp, pp), ZeRO (zero: 1-3), recompute, or parallelism: auto"};
  }
  return Status::Ok();
}

Result<DesignOutcome> EvaluateDesign(const PlanRequirements& r, const Design& design, const Catalog& catalog,
                                     const DesignOutcome* twin) {
  const auto start = std::chrono::steady_clock::now();
  DesignOutcome out;
  out.design = design;
  const SwitchSpec* sw = catalog.FindSwitch(design.switch_name);
  const NicSpec* nic = catalog.FindNic(design.nic_name);
  if (!sw || !nic) return Error{"design " + design.name + ": its switch or NIC is not in the catalog"};
  out.scenario_yaml = DesignScenarioYaml(r, design, SizeTwoTier(r, design, *sw, nic->rate));
  const std::string origin = r.name + "/designs/" + design.name + ".yaml";
  Result<Scenario> scenario = LoadScenarioText(out.scenario_yaml, origin, r.base_dir, {}, catalog);
  if (!scenario) return Error{"design " + design.name + ": " + scenario.error().message};
  if (Status fits = CheckTrainingMemory(r, *scenario); !fits) return fits.error();
  // The fabric with its routes, or the reason it cannot be built; a
  // twin's routes are its first's (one topology), so it builds the
  // topology alone.
  Result<Topology> topology = twin ? BuildScenarioTopology(*scenario) : TopologyOf(BuildFabric(*scenario));
  if (!topology) {
    out.rejected = topology.error().message;
    return out;
  }
  Result<BillOfMaterials> bill = PriceFabric(*topology, design.nic_name, r.costs.cable, catalog);
  if (!bill) {
    out.rejected = bill.error().message;
    return out;
  }
  out.bill = std::move(bill).value();
  out.cost = CostOf(out.bill, r.gpus, scenario->gpu, r.costs);
  if (twin) {
    out.workloads = twin->workloads;
    out.effective_gpu_utilization = twin->effective_gpu_utilization;
    Value(r, out);
    out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
  }

  BottleneckRecorder bottlenecks;
  RunHooks hooks;
  hooks.report = &bottlenecks;
  Result<JobRuns> runs = RunJobs(*scenario, hooks);
  if (!runs) return Error{"design " + design.name + ": " + runs.error().message};
  if (bottlenecks.jobs().size() != runs->training.size()) {
    return Error{"design " + design.name + ": internal error: " + std::to_string(bottlenecks.jobs().size()) +
                 " finished jobs reported for " + std::to_string(runs->training.size()) + " training workloads"};
  }
  size_t training = 0, inference = 0;
  double weighted = 0;
  for (const PlanWorkload& w : r.workloads) {
    if (w.kind == "training") {
      const WorkloadOutcome o = TrainingOutcome(w, runs->training[training], bottlenecks.jobs()[training]);
      ++training;
      weighted += o.effective_gpu_utilization * o.gpus;
      out.workloads.push_back(o);
    } else {
      out.workloads.push_back(InferenceOutcome(w, runs->inference[inference++]));
    }
  }
  // Each training workload is a job the cluster is bought for, judged on its
  // own: the share of the cluster's GPU time it makes useful (its
  // utilization x the share of the GPUs it runs on), averaged over them.
  out.effective_gpu_utilization = training > 0 ? weighted / (static_cast<double>(training) * r.gpus) : 0;
  Value(r, out);
  out.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace aifabric
