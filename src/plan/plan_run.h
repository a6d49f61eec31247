// RunPlan evaluates every design of a plan's design space and ranks them:
// EnumerateDesigns, then EvaluateDesign for each on `jobs` threads (each
// design is its own simulation; results are gathered by design index, so
// the plan is the same for any thread count), then RankDesigns. Under
// mpirun the processes share the designs (design i is process i mod N's)
// and exchange their outcomes, so every process returns the whole plan,
// the same as one process alone. Then the best PacketCheckSpec::designs
// designs are checked at packet level (packet_check.h), shared the same
// way: their error bars. The catalog is the built-in one under the
// requirements' price file. Thread-safe without processes; with them, call
// from the thread that started them. The progress callback is called from
// one thread at a time, for this process's designs.
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "core/result.h"
#include "fabric/catalog.h"
#include "plan/design_space.h"
#include "plan/packet_check.h"
#include "plan/plan_processes.h"
#include "plan/plan_ranking.h"
#include "plan/plan_requirements.h"

namespace aifabric {

struct PlanRunOptions {
  int jobs = 1;  // threads
  // Told after each design: index (0-based), count, the outcome.
  std::function<void(size_t, size_t, const DesignOutcome&)> progress;
  // Told after each packet check: index, count, the design, the check.
  std::function<void(size_t, size_t, const Design&, const PacketCheck&)> checked;
  // The processes sharing the designs; null: this process evaluates all.
  const PlanProcesses* processes = nullptr;
  // Read before each design's evaluation and each packet check: once
  // true, RunPlan returns the error "cancelled" (the server's DELETE).
  // Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
};

// The built-in catalog with the requirements' price file over it.
Result<Catalog> PlanCatalog(const PlanRequirements& requirements);

// The designs the plan would evaluate, each design's scenario loaded and
// the training workloads' memory checked (so every input error shows), but
// nothing built or simulated: --dry-run.
Result<DesignSweep> CheckDesigns(const PlanRequirements& requirements, const Catalog& catalog);

Result<RankedPlan> RunPlan(const PlanRequirements& requirements, const Catalog& catalog,
                           const PlanRunOptions& options);

}  // namespace aifabric
