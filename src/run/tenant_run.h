// RunTenants runs a scenario's workload items as tenants of one fabric
// (scenario.shared_fabric; docs/multi_tenant.md): every item placed
// (run/tenant_placement.h), all of them in one simulation
// (run/tenant_simulation.h), then each alone on the same placement with
// the others removed, so each tenant's slowdown (shared over alone, of its
// headline time) is explicit, and the interference table says how much of
// it comes from each other tenant (run/tenant_interference.h). Returns
// data (report/tenant_outputs.h writes it). Deterministic for a scenario
// and seed. Not thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "diagnosis/finding.h"
#include "fabric/topology.h"
#include "run/run_hooks.h"
#include "run/tenant_interference.h"
#include "run/tenant_simulation.h"
#include "scenario/scenario.h"

namespace aifabric {

struct TenantResult {
  std::string name;
  std::string kind;                  // the item's key: "training", "permutation", ...
  std::vector<GpuId> gpus;           // jobs: where it ran
  TenantFigures shared;              // beside the others
  TenantFigures alone;               // with the others removed
  double slowdown = 1;               // shared.headline / alone.headline (0 if either is incomplete)
  // Training: what MFU and tokens/s need of the step (0 otherwise).
  double model_flops_per_step = 0;
  uint64_t tokens_per_step = 0;
  double peak_flops_per_gpu = 0;
  int checkpoint_every = 0;          // training with a checkpoint: its checkpoint.every (0: none)
  int dataset_readers = 0;           // training with dataset reads: the GPUs that read (0: none)
  uint64_t dataset_bytes = 0;        // and the bytes they read per step, all of them
  std::optional<CollectiveChoice> collective;  // a collective item: what it ran
  std::vector<uint64_t> port_tx_bytes;  // its own bytes per port (its alone run)
  std::vector<size_t> bottleneck_ports;  // its links where the others' bytes take longest
};

struct TenantRuns {
  std::vector<TenantResult> tenants;         // in file order
  std::vector<InterferenceEntry> interference;
  TenantSimulation shared;                   // the shared run (its `tenants` moved into the results)
  Topology topology;                         // the fabric they shared
  // The shared run's diagnosis, with the tenants named on each finding
  // (diagnosis/tenant_findings.h).
  std::vector<Finding> findings;
  double wall_seconds = 0;                   // all simulations
};

// Errors name the item. REQUIRES: scenario.shared_fabric.
Result<TenantRuns> RunTenants(const Scenario& scenario, const RunHooks& hooks = {});

// MFU of one figure set: model FLOPs / (step time x GPUs x peak); 0 without a step.
double TenantMfu(const TenantResult& t, const TenantFigures& f);

}  // namespace aifabric
