// TenantSpec is one item of a scenario's `workload` list seen as a tenant of
// a shared fabric (docs/multi_tenant.md): its name, what it is, where it
// runs (explicit servers or GPUs, or a placement policy onto the free
// GPUs), when it starts, how often it repeats and its traffic class. The
// loader fills one per item, in file order (workload_section.cc with
// tenant_section.h). Plain struct.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/time.h"
#include "fabric/cluster_layout.h"

namespace aifabric {

enum class TenantKind : uint8_t { kFlows, kTraining, kChakra, kInference, kCollective };

struct TenantPlacement {
  std::vector<int> servers;  // placement.servers: whole servers, in order
  std::vector<GpuId> gpus;   // placement.gpus: GPUs, in order
  std::string policy;        // placement.policy (src/sched); "" with servers/gpus
  bool explicit_set() const { return !servers.empty() || !gpus.empty(); }
};

struct TenantSpec {
  std::string name;        // `name`, default "<kind>.<item index>" (e.g. "training.0")
  TenantKind kind = TenantKind::kFlows;
  std::string kind_name;   // the item's key: "training", "permutation", ...
  size_t index = 0;        // into Scenario::workload / trainings / chakras / inferences / collective_jobs
  TenantPlacement placement;  // jobs only; empty: policy first_fit
  Time start;              // `start`: jobs begin then; flows are shifted by it
  int steps = 1;           // `steps`: training steps (a Chakra trace's runs, a collective's iterations) back to back
  Time duration;           // `duration`: repeat steps until start + duration (zero: `steps` only)
  int priority = -1;       // `class` / `priority`: the traffic class of all its transfers (-1: the item's own)
  bool tenant_keys = false;  // any of name, placement, start, steps, duration, class, priority given
  std::string path;        // "workload.N", for messages
};

}  // namespace aifabric
