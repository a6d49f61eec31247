// Where a training job's traffic crowds the fabric: each link's busy share
// over the job's step (wire bytes sent / (rate x step time)), the busiest
// link and each tier of links' mean and peak. Tiers are named by their
// ends, e.g. "host-leaf", "leaf-spine", "agg-core" (plan/bill_of_materials.h
// names the switch tiers); a node's tier is the topology's, or its hop
// distance from the hosts where the topology gives none. BottleneckRecorder
// hears each finished job of a run (run/finished_simulation.h) and keeps
// its bottleneck in job order. Thread-compatible: one recorder per run.
#pragma once

#include <string>
#include <vector>

#include "core/time.h"
#include "fabric/fabric_network.h"
#include "fabric/topology.h"
#include "run/finished_simulation.h"

namespace aifabric {

struct TierLoad {
  std::string tier;     // "leaf-spine"
  int links = 0;        // directed links
  double mean_busy = 0; // mean over its links of bytes x 8 / (rate x span)
  double max_busy = 0;
};

struct FabricBottleneck {
  std::string link;     // "leaf3 -> spine1", "" when nothing was sent
  std::string tier;     // the busiest link's tier
  double busy = 0;      // its busy share of the span
  std::vector<TierLoad> tiers;  // from the hosts up; up and down links together
};

// The busiest link over `span` (the first of equals in port order, so the
// answer is deterministic). REQUIRES: span > 0.
FabricBottleneck FindFabricBottleneck(const Topology& topology, const FabricNetwork& network, Time span);

// "leaf-spine (leaf3 -> spine1, 62% busy over the step)".
std::string BottleneckWords(const FabricBottleneck& bottleneck);

class BottleneckRecorder final : public SimulationReport {
 public:
  Status OnJobFinished(const FinishedJob& job) override;
  Status OnServiceFinished(const FinishedService&) override { return Status::Ok(); }
  const std::vector<FabricBottleneck>& jobs() const { return jobs_; }

 private:
  std::vector<FabricBottleneck> jobs_;
};

}  // namespace aifabric
