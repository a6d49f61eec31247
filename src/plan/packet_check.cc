#include "plan/packet_check.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>

#include "plan/design_scenario.h"
#include "plan/design_sizing.h"
#include "run/job_runs.h"
#include "scenario/scenario_loader.h"
#include "workload/model_catalog.h"

namespace aifabric {
namespace {

// The training workloads of a plan, each with its figures on the design.
struct TrainingPair {
  const PlanWorkload* workload;
  const WorkloadOutcome* outcome;
};

std::vector<TrainingPair> TrainingPairs(const PlanRequirements& r, const DesignOutcome& o) {
  std::vector<TrainingPair> pairs;
  for (size_t i = 0; i < r.workloads.size() && i < o.workloads.size(); ++i) {
    if (r.workloads[i].kind == "training") pairs.push_back({&r.workloads[i], &o.workloads[i]});
  }
  return pairs;
}

// Why `gpus` cannot hold the split's copy ("" when it can): a whole number
// of tp x pp replicas, at least `min_replicas`, a multiple of ep.
std::string SplitMisfit(const WorkloadOutcome& w, int gpus, int min_replicas) {
  const int group = w.tp * w.pp;
  if (group < 1 || gpus % group != 0) {
    return std::to_string(gpus) + " GPUs are not a multiple of " + w.name + "'s tp x pp = " + std::to_string(group);
  }
  const int dp = gpus / group;
  if (dp < min_replicas) {
    return std::to_string(gpus) + " GPUs hold " + std::to_string(dp) + " of " + w.name + "'s replicas, fewer than " +
           std::to_string(min_replicas);
  }
  if (w.ep > 1 && dp % w.ep != 0) {
    return std::to_string(gpus) + " GPUs give " + w.name + " dp " + std::to_string(dp) + ", not a multiple of its ep " +
           std::to_string(w.ep);
  }
  return "";
}

// The workload's entry for the copy: its split, dp filling the copy, pp
// micro-batches per replica (or the design's own count if fewer), layers_per_stage layers a stage, no checkpoint.
Result<std::string> ScaledEntry(const PlanRequirements& r, const TrainingPair& t, int gpus) {
  const WorkloadOutcome& w = *t.outcome;
  YAML::Node entry = YAML::Load(t.workload->entry_yaml);
  YAML::Node training = entry["training"];
  for (const char* key : {"parallelism", "gpus", "checkpoint"}) training.remove(key);
  const int dp = gpus / (w.tp * w.pp);
  training["tp"] = w.tp;
  training["pp"] = w.pp;
  training["dp"] = dp;
  training["ep"] = w.ep;
  // pp micro-batches a replica fill its pipeline; fewer if the design's
  // own replicas have fewer (its global batch over its dp).
  const int micro = training["micro_batch"] ? training["micro_batch"].as<int>() : 1;
  int micro_batches = w.pp;
  if (training["global_batch"] && w.dp > 0) {
    micro_batches = std::clamp(training["global_batch"].as<int>() / (w.dp * micro), 1, w.pp);
  }
  training["global_batch"] = dp * micro * micro_batches;
  const YAML::Node model = training["model"];
  Result<ModelSpec> spec = model.IsMap() ? ReadModelSpec(model, r.source_file, t.workload->path + ".training.model")
                                         : FindModel(model.Scalar());
  if (!spec) return spec.error();
  // The layers and the vocabulary shrink by one factor, so the embeddings
  // keep their share of the weights (and of the gradients to reduce).
  const int layers_per_stage = r.packet_check.layers_per_stage;
  const int layers = std::min(spec->layers, w.pp * layers_per_stage);
  const double shrink = static_cast<double>(layers) / spec->layers;
  spec->vocab = std::max<int64_t>(1, std::llround(static_cast<double>(spec->vocab) * shrink));
  spec->layers = layers;
  spec->first_dense_layers = std::min(spec->first_dense_layers, spec->layers - 1);
  training["model"] = ModelSpecNode(*spec);
  if (training["layers_per_node"]) {
    training["layers_per_node"] = std::gcd(training["layers_per_node"].as<int>(), layers_per_stage);
  }
  YAML::Emitter out;
  out << YAML::Flow << entry;
  return std::string(out.c_str());
}

}  // namespace

Result<int> PacketCheckServers(const PlanRequirements& r, const DesignOutcome& o) {
  const std::vector<TrainingPair> pairs = TrainingPairs(r, o);
  if (pairs.empty()) return Error{"design " + o.design.name + ": no training workload to check at packet level"};
  auto misfit = [&](int servers, bool at_least_two) {
    for (const TrainingPair& t : pairs) {
      const int min_replicas = at_least_two ? std::max(2, t.outcome->ep) : 1;
      std::string why = SplitMisfit(*t.outcome, servers * r.gpus_per_server, min_replicas);
      if (!why.empty()) return why;
    }
    return std::string();
  };
  if (r.packet_check.servers > 0) {
    const int s = std::min(r.packet_check.servers, r.servers());
    std::string why = misfit(s, false);
    if (!why.empty()) {
      return Error{r.source_file + ": packet_check.servers: " + std::to_string(s) + " servers: " + why};
    }
    return s;
  }
  constexpr int kMaxServers = PacketCheckSpec::kMaxServers;
  for (int s = 1; s <= std::min(kMaxServers, r.servers()); ++s) {
    if (misfit(s, true).empty()) return s;
  }
  // Two replicas do not fit: the design's own size, if the packet level can
  // carry it, with the replicas it has.
  if (r.servers() <= kMaxServers && misfit(r.servers(), false).empty()) return r.servers();
  return Error{r.source_file + ": packet_check: the scaled copy of design " + o.design.name + " needs more than " +
               std::to_string(kMaxServers) +
               " servers for two replicas of its training splits; give packet_check.servers, or designs: 0"};
}

Result<std::string> PacketCheckScenarioYaml(const PlanRequirements& r, const DesignOutcome& o,
                                            const Catalog& catalog) {
  Result<int> servers = PacketCheckServers(r, o);
  if (!servers) return servers.error();
  PlanRequirements copy = r;
  copy.name = r.name + "-packet_check";
  copy.gpus = *servers * r.gpus_per_server;
  copy.workloads.clear();
  for (const TrainingPair& t : TrainingPairs(r, o)) {
    Result<std::string> entry = ScaledEntry(r, t, copy.gpus);
    if (!entry) return entry.error();
    PlanWorkload w = *t.workload;
    w.entry_yaml = *entry;
    copy.workloads.push_back(std::move(w));
  }
  const SwitchSpec* sw = catalog.FindSwitch(o.design.switch_name);
  const NicSpec* nic = catalog.FindNic(o.design.nic_name);
  if (!sw || !nic) return Error{"design " + o.design.name + ": its switch or NIC is not in the catalog"};
  return "# The packet-level check's scaled copy (docs/plan.md, \"Error bars\"): run at\n"
         "# flow level as written, and with --model packet.\n" +
         DesignScenarioYaml(copy, o.design, SizeTwoTier(copy, o.design, *sw, nic->rate));
}

Result<PacketCheck> CheckOnPackets(const PlanRequirements& r, const DesignOutcome& o, const Catalog& catalog) {
  const auto start = std::chrono::steady_clock::now();
  Result<std::string> yaml = PacketCheckScenarioYaml(r, o, catalog);
  if (!yaml) return yaml.error();
  const std::string origin = r.name + "/packet_check/" + o.design.name + ".yaml";
  PacketCheck check;
  check.scenario_yaml = *yaml;
  std::vector<TrainingRunResult> levels[2];
  const char* overrides[2] = {"simulation.model=flow", "simulation.model=packet"};
  for (int level = 0; level < 2; ++level) {
    Result<Scenario> scenario = LoadScenarioText(*yaml, origin, r.base_dir, {overrides[level]}, catalog);
    if (!scenario) return Error{"design " + o.design.name + ": packet check: " + scenario.error().message};
    check.servers = scenario->topology.servers;
    check.gpus = check.servers * scenario->server.gpus_per_server;
    Result<JobRuns> runs = RunJobs(*scenario);
    if (!runs) return Error{"design " + o.design.name + ": packet check: " + runs.error().message};
    levels[level] = std::move(runs->training);
  }
  const std::vector<TrainingPair> pairs = TrainingPairs(r, o);
  for (size_t i = 0; i < pairs.size() && i < levels[0].size() && i < levels[1].size(); ++i) {
    PacketCheckWorkload w;
    w.name = pairs[i].workload->name;
    w.parallelism = ParallelismName(levels[1][i].parallelism);
    w.flow_step_time_s = levels[0][i].step_time.seconds();
    w.packet_step_time_s = levels[1][i].step_time.seconds();
    if (w.packet_step_time_s > 0) {
      check.error_bar =
          std::max(check.error_bar, std::abs(w.flow_step_time_s - w.packet_step_time_s) / w.packet_step_time_s);
    }
    check.workloads.push_back(std::move(w));
  }
  check.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return check;
}

}  // namespace aifabric
