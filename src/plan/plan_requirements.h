// PlanRequirements is what `aifabric plan` is asked (docs/plan.md is the
// reference of the file): the GPUs of the cluster, the workloads that
// matter, the constraints a design must meet, the design space to sweep
// and the cost assumptions. Plain struct; ReadPlanRequirements, the only
// place that fills it, checks every field and fills the defaults.
// Thread-safe to read once filled (no YAML node is kept: each workload is
// held as scenario YAML text).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/catalog.h"
#include "fabric/topology_spec.h"
#include "packet/packet_config.h"

namespace aifabric {

// One workload the designs are judged on, written as a scenario workload
// item (docs/scenario.md "workload").
struct PlanWorkload {
  std::string name;        // workloads.N.name, or the model's name
  std::string kind;        // "training" | "inference"
  std::string model;       // the catalog model it runs
  std::string entry_yaml;  // the scenario workload item, flow style ("{training: {...}}")
  std::string path;        // "workloads.N", for messages
};

// The axes of the sweep; every combination the catalog can build is a design.
struct DesignSpace {
  std::vector<FabricKind> fabric_kinds{FabricKind::kIb, FabricKind::kRoce};
  std::vector<int> link_gbps{400};
  std::vector<TopologyType> topologies{TopologyType::kRailOptimized, TopologyType::kFatTree};
  std::vector<double> oversubscription{1.0};
  // Catalog switch names; empty: every catalog switch of the design's
  // family whose port rate is the link speed.
  std::vector<std::string> switches;
  // Per fabric kind; InfiniBand defaults to adaptive routing (Quantum-2's
  // AR), RoCEv2 to plain ECMP.
  std::vector<LoadBalancing> ib_load_balancing{LoadBalancing::kAdaptive};
  std::vector<LoadBalancing> roce_load_balancing{LoadBalancing::kEcmp};
};

struct PlanConstraints {
  std::optional<double> budget_usd;        // network capital cost at most
  std::optional<double> power_kw;          // network power at most
  double max_oversubscription = 1e9;       // designs above it are not built
  std::optional<FabricKind> ecosystem;     // only this kind (absent: any)
  // Every inference service meets its TTFT and TPOT SLOs for at least this
  // share of its requests (MLPerf Inference's server scenario holds LLMs to
  // their 99th-percentile TTFT and TPOT limits).
  double min_slo_attainment = 0.99;
};

// Cable reach per tier of links, for the bill of materials (a link's
// medium is the cheapest catalog medium at its rate that reaches).
struct CableLengths {
  double host_m = 3;     // NIC to leaf (in the rack or the next one)
  double leaf_m = 30;    // leaf to spine / aggregation (across a row)
  double spine_m = 150;  // aggregation to core (across the hall)
};

struct PlanCosts {
  int years = 5;                    // the TCO horizon
  double energy_usd_per_kwh = 0.0;  // 0 = the default in plan_requirements.cc (with its source)
  double pue = 0.0;                 // 0 = the default in plan_requirements.cc
  std::string prices_file;          // a user price file over the catalog ("" = none; resolved)
  CableLengths cable;
};

// The packet-level check of the best designs (packet_check.h): each is run
// again on a scaled copy at flow and at packet level, and the difference is
// its error bar.
struct PacketCheckSpec {
  // The packet level simulates every packet: the copy stays small.
  static constexpr int kMaxServers = 128;
  int designs = 3;           // the best N designs checked; 0: none
  int servers = 0;           // the scaled copy's servers; 0: two replicas of the largest training split
  int layers_per_stage = 1;  // the scaled copy's layers per pipeline stage
};

struct PlanRequirements {
  std::string name = "plan";
  uint64_t seed = 1;
  std::string source_file;
  std::string base_dir = ".";  // the file's folder: workload files resolve against it
  // The cluster.
  int gpus = 0;
  std::string gpu = "H100";
  int gpus_per_server = 8;
  double nics_per_gpu = 1.0;
  std::vector<PlanWorkload> workloads;
  PlanConstraints constraints;
  DesignSpace space;
  PlanCosts costs;
  PacketCheckSpec packet_check;
  int servers() const { return gpus / gpus_per_server; }
};

// Reads a requirements file. Errors: "<file>:<line>:<col>: <field>: <what>".
Result<PlanRequirements> ReadPlanRequirementsFile(const std::string& path);
// Same from text; `origin` names it, relative paths resolve against `base_dir`.
Result<PlanRequirements> ReadPlanRequirements(const std::string& text, const std::string& origin,
                                              const std::string& base_dir);

// `aifabric plan --existing SCENARIO --models FILE`: the cluster one has
// (from the scenario) and the future models to judge on it, in a file of
// `models` (training items, as a plan's workloads), `threshold` (the
// effective GPU utilization to keep) and, for upgrades, a `design_space`
// (with constraints and costs) as a requirements file has, and
// `nics_per_gpu` of the upgrade designs (default 1, whatever the cluster
// has now).
struct ExistingCluster {
  std::string name;
  uint64_t seed = 1;
  int gpus = 0;
  std::string gpu;
  int gpus_per_server = 8;
  double nics_per_gpu = 1.0;  // the cluster's now (the upgrade designs take the models file's)
};

struct FutureModels {
  PlanRequirements requirements;  // the cluster's, with `models` as the workloads
  double threshold = 0;           // required: an upgrade is sought below this effective utilization
  bool upgrades = false;          // a design_space was given
};

Result<FutureModels> ReadFutureModels(const std::string& text, const std::string& origin,
                                      const std::string& base_dir, const ExistingCluster& cluster);
Result<FutureModels> ReadFutureModelsFile(const std::string& path, const ExistingCluster& cluster);

// A whole input file (at most 16 MiB, a regular file); `what` names it in
// errors ("requirements file").
Result<std::string> ReadInputFile(const std::string& path, const char* what);

}  // namespace aifabric
