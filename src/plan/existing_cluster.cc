#include "plan/existing_cluster.h"

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "plan/design_evaluation.h"
#include "plan/percent_text.h"
#include "plan/plan_ranking.h"
#include "run/job_runs.h"
#include "run/training_fit.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

std::string Words(CommDimension d) {
  switch (d) {
    case CommDimension::kTensor: return "tensor-parallel traffic (NVLink, inside servers)";
    case CommDimension::kPipeline: return "pipeline-parallel sends over the network";
    case CommDimension::kData: return "data-parallel gradient traffic over the network";
    case CommDimension::kExpert: return "expert all-to-all over the network";
    case CommDimension::kContext: return "context-parallel traffic";
    case CommDimension::kStorage: return "checkpoint traffic to storage";
    default: return "other traffic";
  }
}

// The existing scenario with one model's training entry as its workload, at
// flow level with telemetry off.
Result<std::string> ScenarioWith(const std::string& existing_text, const PlanWorkload& model) {
  try {
    YAML::Node root = YAML::Load(existing_text);
    YAML::Node workload(YAML::NodeType::Sequence);
    workload.push_back(YAML::Load(model.entry_yaml));
    root["workload"] = workload;
    YAML::Node simulation;
    simulation["model"] = "flow";
    simulation["telemetry"]["enabled"] = false;
    root["simulation"] = simulation;
    YAML::Emitter out;
    out << root;
    return std::string(out.c_str());
  } catch (const YAML::Exception& e) {
    return Error{std::string("the existing scenario: ") + e.what()};
  }
}

// The model's entry with its split fixed: tp, pp, dp, ep as found, no
// `parallelism: auto` and no `gpus` (tp x pp x dp is the job's size).
PlanWorkload WithSplit(const PlanWorkload& w, const ParallelismSpec& p) {
  YAML::Node entry = YAML::Load(w.entry_yaml);
  YAML::Node t = entry["training"];
  t.remove("parallelism");
  t.remove("gpus");
  t["tp"] = p.tp;
  t["pp"] = p.pp;
  t["dp"] = p.dp;
  t["ep"] = p.ep;
  YAML::Emitter out;
  out << YAML::Flow << entry;
  PlanWorkload fixed = w;
  fixed.entry_yaml = out.c_str();
  return fixed;
}

std::string RecommendForExisting(const ExistingPlan& p) {
  std::string text;
  for (const FutureModelOutcome& m : p.models) {
    if (!text.empty()) text += " ";
    if (!m.fits) {
      text += m.name + " does not fit in the cluster's GPU memory (" + m.note + ").";
    } else if (m.effective_gpu_utilization >= p.threshold) {
      text += m.name + " runs on the existing network at " + Percent(m.effective_gpu_utilization) +
              " effective GPU utilization (" + m.parallelism + "), above the " + Percent(p.threshold) + " threshold.";
    } else if (m.upgrade) {
      text += m.name + " reaches only " + Percent(m.effective_gpu_utilization) + " (held back by " + m.bottleneck +
              "); the cheapest upgrade that brings it to " + Percent(p.threshold) + " is " + m.upgrade->design.name +
              " (" + FormatUsd(m.upgrade->cost.network_capex_usd) + ", " +
              Percent(m.upgrade->workloads.front().effective_gpu_utilization) + ").";
    } else {
      text += m.name + " reaches only " + Percent(m.effective_gpu_utilization) + " (held back by " + m.bottleneck +
              "); " + m.upgrade_note + ".";
    }
  }
  return text;
}

}  // namespace

Result<ExistingCluster> ExistingClusterOf(const std::string& scenario_file) {
  Result<Scenario> s = LoadScenarioFile(scenario_file, {});
  if (!s) return s.error();
  ExistingCluster c;
  c.name = s->name;
  c.seed = s->seed;
  c.gpus_per_server = s->server.gpus_per_server;
  c.gpus = s->topology.servers * c.gpus_per_server;
  c.gpu = s->gpu.name;
  c.nics_per_gpu = s->nics_per_gpu;
  return c;
}

Result<ExistingPlan> PlanExisting(const std::string& scenario_file, const std::string& existing_text,
                                  const FutureModels& models, const Catalog& catalog, const PlanRunOptions& options) {
  ExistingPlan plan;
  plan.scenario_file = scenario_file;
  plan.existing = models.requirements.name;
  plan.threshold = models.threshold;
  std::string base = std::filesystem::path(scenario_file).parent_path().string();
  if (base.empty()) base = ".";
  for (const PlanWorkload& w : models.requirements.workloads) {
    FutureModelOutcome m;
    m.name = w.name;
    Result<std::string> text = ScenarioWith(existing_text, w);
    if (!text) return text.error();
    Result<Scenario> scenario = LoadScenarioText(*text, scenario_file + " with " + w.path, base, {}, catalog);
    if (!scenario) return Error{models.requirements.source_file + ": " + w.path + ": " + scenario.error().message};
    Result<TrainingFit> fit = FitTraining(*scenario, scenario->trainings.front());
    if (!fit || !fit->memory.fits()) {
      m.fits = false;
      m.note = !fit ? fit.error().message
                    : "needs " + std::to_string(fit->memory.worst().total_bytes() >> 20) + " MiB per GPU on stage " +
                          std::to_string(fit->memory.worst_stage) + ", the GPU has " +
                          std::to_string(fit->memory.hbm_bytes >> 20) + " MiB";
      plan.models.push_back(std::move(m));
      continue;
    }
    BottleneckRecorder bottlenecks;
    RunHooks hooks;
    hooks.report = &bottlenecks;
    Result<JobRuns> runs = RunJobs(*scenario, hooks);
    if (!runs) return Error{models.requirements.source_file + ": " + w.path + ": " + runs.error().message};
    const TrainingRunResult& t = runs->training.front();
    const FabricBottleneck busiest = bottlenecks.jobs().empty() ? FabricBottleneck{} : bottlenecks.jobs().front();
    const WorkloadOutcome o = TrainingOutcome(w, t, busiest);
    m.parallelism = o.parallelism;
    m.memory_per_gpu_bytes = o.memory_per_gpu_bytes;
    m.step_time_s = o.step_time_s;
    m.mfu = o.mfu;
    // The job's own GPUs: does this model run well on this network.
    m.effective_gpu_utilization = o.effective_gpu_utilization;
    m.exposed_comm_s = o.exposed_comm_s;
    m.bottleneck = o.bottleneck.empty() ? "compute (no communication exposed)" : Words(o.bottleneck_dimension);
    m.bottleneck_tier = o.bottleneck_tier;
    m.bottleneck_link = o.bottleneck_link;
    m.bottleneck_link_busy = o.bottleneck_link_busy;
    if (!o.bottleneck.empty()) m.bottleneck += "; busiest links: " + BottleneckWords(busiest);
    if (m.effective_gpu_utilization < models.threshold) {
      if (!models.upgrades) {
        m.upgrade_note = "the models file has no design_space to look for an upgrade in";
      } else {
        // The design space, judged on this model alone, with the split it
        // has here (the search's estimate knows no topology, so a new
        // search on each design could pick a split the network punishes,
        // and the comparison would no longer be of networks).
        PlanRequirements one = models.requirements;
        one.workloads = {WithSplit(w, t.parallelism)};
        Result<RankedPlan> ranked = RunPlan(one, catalog, options);
        if (!ranked) return ranked.error();
        for (const RankedDesign& d : ranked->designs) {
          const double util = d.outcome.workloads.front().effective_gpu_utilization;
          if (!d.within_constraints || util < models.threshold) continue;
          if (!m.upgrade || d.outcome.cost.network_capex_usd < m.upgrade->cost.network_capex_usd) m.upgrade = d.outcome;
        }
        if (!m.upgrade) m.upgrade_note = "no design of the design space reaches " + Percent(models.threshold);
      }
    }
    plan.models.push_back(std::move(m));
  }
  plan.recommendation = RecommendForExisting(plan);
  return plan;
}

}  // namespace aifabric
