// ReplayOptions are the knobs of one scheduling replay (ReplayJobTrace,
// cluster_replay.h): the placement policy and the communication schedulers
// on top of it, the job model, storage servers, ECMP and random seeds, the
// load window the policies read, link failures, and the packet-level
// window; ValidateReplayOptions checks them against the cluster. Plain
// values and a pure function; thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"
#include "sched/job_profile.h"

namespace aifabric {

// A switch-to-switch link that fails during the replay: down from at_s
// for for_s seconds (0 = to the end). While it is down, the jobs whose
// flows crossed it route their next communication phases around it (the
// first live path of further ECMP hashes, as routing converges around a
// failure), coflows already in flight finish where they were, placement
// policies see its ports down (FabricLoad::PortUp), and when it comes back
// those jobs return to their ECMP paths.
struct LinkFailure {
  LinkId link = -1;
  double at_s = 0;
  double for_s = 0;
};

struct ReplayOptions {
  std::string policy = "first_fit";  // a PlacementPolicyNames() name
  bool crux = false;     // priorities by GPU intensity and path selection
  bool cassini = false;  // time-shifting of communication phases
  JobModelOptions job_model;
  int max_phases_per_job = 256;  // macro-iterations per job at most (>= 1)
  // Servers (ClusterLayout indices) that hold storage: they take no jobs,
  // and checkpoints go to them (each GPU to the nearest, by tiers, then
  // by index). Sorted, distinct.
  std::vector<int> storage_servers;
  double payload_efficiency = 1.0;  // fraction of a port's rate that carries payload, (0, 1]
  uint64_t ecmp_seed = 1;
  uint64_t seed = 1;  // the random policy's draws
  // The window over which a port's carried bytes give its measured load
  // (FabricLoad::PortLoad), in seconds (> 0).
  double load_window_s = 60;
  // Links that fail mid-replay; each a switch-to-switch link of the
  // topology (a host's link would cut its server off, which the replay does
  // not model).
  std::vector<LinkFailure> link_failures;
  // A window of the replay to hand to the packet level; a negative start is
  // none. ReplayResult::window_flows then holds what the fabric carries in
  // [window_start_s, window_start_s + window_s).
  double window_start_s = -1;
  double window_s = 0;
  // Read at every event: once true, the replay stops there and returns
  // the error "cancelled" (the server's DELETE). Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
};

// Checks the options against the cluster; errors name the field
// ("policy: ...", "storage_servers: ...", "scheduling.jobs.<field>: ...",
// "link_failures.N: ..." for a failure not on a switch-to-switch link of
// `topology`, or overlapping another of the same link).
Status ValidateReplayOptions(const ReplayOptions& options, const Topology& topology, const ClusterLayout& layout);

}  // namespace aifabric
