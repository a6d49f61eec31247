// EvaluateDesign judges one design: its scenario (design_scenario.h) is
// loaded, its fabric built and priced (bill_of_materials.h,
// cost_of_ownership.h), and every workload simulated on it at flow level
// (run/job_runs.h), giving step time, MFU and effective GPU utilization per
// training workload and goodput, TTFT and TPOT per inference service. A
// design whose fabric cannot be built or cabled from the catalog comes back
// rejected, with the reason; a workload that the scenario reader refuses,
// or a training workload that does not fit in GPU memory
// (report/training_memory_text.h), is an error: it is the requirements'
// fault, the same on every design.
// Thread-safe: each call owns everything it simulates.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"
#include "plan/bill_of_materials.h"
#include "plan/cost_of_ownership.h"
#include "plan/design_space.h"
#include "plan/fabric_bottleneck.h"
#include "plan/plan_requirements.h"
#include "run/training_run.h"
#include "scenario/scenario.h"
#include "workload/job_graph.h"

namespace aifabric {

struct WorkloadOutcome {
  std::string name;
  std::string kind;         // "training" | "inference"
  bool fits = true;         // the training state fits in GPU memory
  uint64_t memory_per_gpu_bytes = 0;  // training: the worst pipeline stage's
  std::string parallelism;  // "tp8 pp4 dp32" (training) or the replica layout
  int tp = 0, pp = 0, dp = 0, ep = 0;  // training: the split that ran
  int gpus = 0;
  // training
  double step_time_s = 0;
  double mfu = 0;
  double effective_gpu_utilization = 0;
  double tokens_per_s = 0;
  std::string bottleneck;   // the parallelism dimension with the most exposed communication ("" if none)
  CommDimension bottleneck_dimension = CommDimension::kNone;
  double exposed_comm_s = 0;
  // The busiest fabric link over the step (fabric_bottleneck.h): its tier
  // ("leaf-spine"), name ("leaf3 -> spine1") and busy share.
  std::string bottleneck_tier;
  std::string bottleneck_link;
  double bottleneck_link_busy = 0;
  // inference
  double goodput_per_s = 0;
  double ttft_p50_s = 0;
  double tpot_p50_s = 0;
  double slo_attainment = 0;  // share of requests meeting both SLOs
};

struct DesignOutcome {
  Design design;
  std::string rejected;       // why the design was not built ("" when it was)
  std::string scenario_yaml;  // the design's scenario, as loaded
  BillOfMaterials bill;
  CostOfOwnership cost;
  std::vector<WorkloadOutcome> workloads;
  // The mean over the training workloads of each one's share of the
  // cluster's GPU time made useful (its effective utilization x its GPUs /
  // the cluster's), and the useful GPU-hours that buys over the plan's years.
  double effective_gpu_utilization = 0;
  double useful_gpu_hours = 0;
  double useful_gpu_hours_per_usd = 0;  // over the cluster's TCO
  double wall_s = 0;                    // the evaluation's wall time
};

// "tp8 pp4 dp32" (" ep8" when ep > 1): a split as plan.json names it.
std::string ParallelismName(const ParallelismSpec& p);

// A training workload's figures from its run, and its fabric's busiest link.
WorkloadOutcome TrainingOutcome(const PlanWorkload& workload, const TrainingRunResult& run,
                                const FabricBottleneck& bottleneck);

// The memory check alone: an error naming the first training workload
// that does not fit in GPU memory, with its numbers. Memory does not depend
// on the fabric, so any design's scenario answers for all.
Status CheckTrainingMemory(const PlanRequirements& requirements, const Scenario& scenario);

// With `twin`, the outcome of a design of the same SimulationKey
// (design_scenario.h) that was not rejected: the workloads' figures are
// its, and only this design's fabric is built and priced.
Result<DesignOutcome> EvaluateDesign(const PlanRequirements& requirements, const Design& design,
                                     const Catalog& catalog, const DesignOutcome* twin = nullptr);

}  // namespace aifabric
