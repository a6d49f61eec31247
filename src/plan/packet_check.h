// The packet-level check of a design, which gives its error bar. The
// design's full size is beyond the packet level (every packet of a
// 1,024-GPU training step), so the check runs a scaled copy: the same
// fabric kind, link speed, topology, oversubscription, switch, NIC and
// load balancing on PacketCheckSpec::servers servers (by default, two data-
// parallel replicas of the largest training split), each training
// workload with the split it ran with (tp, pp, ep; dp filling the copy),
// PacketCheckSpec::layers_per_stage layers per pipeline stage (the
// vocabulary shrunk by the same factor, so the embeddings keep their share
// of the weights) and pp micro-batches per replica. So each GPU of the copy
// computes and sends what one of the design's does for those layers; the
// data-parallel groups are smaller, and fewer micro-batches make the
// exposed part of a step a larger share of it (the error bar errs large). The copy runs at flow level (as the plan) and at
// packet level; the error bar is the largest relative difference of a
// training workload's step time, |flow - packet| / packet. Inference
// workloads are not in the copy. Thread-safe: each call owns what it runs.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/catalog.h"
#include "plan/design_evaluation.h"
#include "plan/plan_requirements.h"

namespace aifabric {

struct PacketCheckWorkload {
  std::string name;
  std::string parallelism;  // the copy's split, "tp8 pp4 dp2"
  double flow_step_time_s = 0;
  double packet_step_time_s = 0;
};

struct PacketCheck {
  std::string scenario_yaml;  // the scaled copy (PacketCheckScenarioYaml)
  int servers = 0;
  int gpus = 0;
  std::vector<PacketCheckWorkload> workloads;
  double error_bar = 0;  // max over workloads of |flow - packet| / packet
  double wall_s = 0;     // both runs' wall time
};

// The servers of the scaled copy: the spec's, or the fewest that hold two
// replicas (ep replicas, if more) of every training workload's split, and
// whose GPUs are a multiple of each split's tp x pp; at most the design's.
// An error when the spec's servers do not divide into a workload's split.
Result<int> PacketCheckServers(const PlanRequirements& requirements, const DesignOutcome& outcome);

// The scaled copy's scenario, as a file (its layers are set on load; the
// file says so): for `aifabric run` and the tests.
Result<std::string> PacketCheckScenarioYaml(const PlanRequirements& requirements, const DesignOutcome& outcome,
                                            const Catalog& catalog);

// Runs the copy at both levels. An outcome without a training workload
// has nothing to check (an error naming it).
Result<PacketCheck> CheckOnPackets(const PlanRequirements& requirements, const DesignOutcome& outcome,
                                   const Catalog& catalog);

}  // namespace aifabric
