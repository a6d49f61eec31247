// ReplayJobTrace replays a job trace on one cluster: jobs arrive, wait in a
// queue, are placed by a PlacementPolicy, train (or serve) for their
// iterations, and leave, while the traffic of every running job shares one
// flow-level fabric (FluidNetwork: weighted max-min fair rates over the
// fabric's directed ports, ECMP paths from the routing table). It reports
// each job's queueing delay, completion time and communication slowdown,
// and the cluster's GPU utilization. docs/scheduling.md describes the
// model; this header is its contract.
//
// A job's iteration (JobProfile): compute for (1 - overlap) of its compute
// time; then the rest of the compute beside the gradient all-reduce and
// pipeline sends (one coflow: a ring per data-parallel group, on each GPU's
// rail NIC, plus each stage boundary's sends); then the expert all-to-all
// (one coflow), not hidden. A job inside one server moves its all-reduce
// over NVLink at a closed-form time and never touches the fabric.
// Iterations are folded: a job runs at most max_phases_per_job
// macro-iterations, each doing k iterations' compute and bytes, which keeps
// every ratio of compute to traffic and bounds the events per job.
//
// Queue: first come first served with EASY backfilling (Slurm's backfill):
// the head job that cannot be placed reserves the earliest time enough GPUs
// free up (from the running jobs' expected ends on an idle fabric), and a
// later job may start before it only if the policy places it now and it
// either ends by then or leaves the head's GPUs free.
//
// Communication scheduling, on top of any placement:
//  - crux: a job's traffic gets a max-min weight from its GPU intensity
//    (compute FLOPs per byte it sends; Crux, SIGCOMM'24), in 8 levels
//    weight 2^level, and each of its flows takes, among the ECMP paths of 16
//    hashes, the one whose ports carry the least expected load;
//  - cassini: a job that starts sharing a link with running jobs delays its
//    first iteration by the offset in [0, its period) that overlaps its
//    communication least with theirs (CASSINI, NSDI'24), from their
//    phases on an idle fabric.
//
// Its pieces: ReplayOptions (replay_options.h), each job's state
// (replay_job.h), the shared fabric (replay_fabric.h), a placed job's flows
// (replay_comm_edges.h), EASY backfill (easy_backfill.h), Crux and CASSINI
// (comm_scheduling.h), the packet window (replay_window.h) and the cluster
// figures (replay_metrics.h).
//
// Deterministic: the same inputs and seed give the same result. Cost:
// O(events x solver component); a 5,000-job trace on 2,048 GPUs replays in
// seconds (docs/performance.md). Not thread-safe; one replay per call.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "sched/job_profile.h"
#include "sched/job_trace.h"
#include "sched/replay_options.h"

namespace aifabric {

// One flow of the packet-level window: `bytes` from NIC `src` to NIC `dst`
// (host nodes), starting `start_s` after the window opens. A coflow in
// flight when the window opens gives each of its flows the bytes it still
// has to send (its share of the coflow's remaining bytes) at start 0; a
// coflow starting inside the window gives its flows' whole bytes at their
// start. Flows between GPUs of one server (NVLink) are not in it.
struct WindowFlow {
  std::string job_id;
  std::string what;  // "gradient" (all-reduce and pipeline), "alltoall", "checkpoint"
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  double bytes = 0;
  double start_s = 0;
};

struct ReplayJobResult {
  std::string job_id;
  std::string model;
  TraceJobKind kind = TraceJobKind::kTraining;
  int32_t gpus = 0;
  uint64_t iterations = 0;
  double submit_s = 0;
  double start_s = 0;
  double end_s = 0;
  JobParallelism parallelism;
  int servers = 0;       // servers its GPUs sit on
  int tiers = 0;         // switch tiers its GPUs cross (TiersCrossed)
  double compute_s = 0;  // GPU compute over the whole run (per GPU)
  // Seconds its communication phases (all-reduce and all-to-all coflows)
  // took, and what they take on an idle fabric with the same placement.
  double comm_s = 0;
  double comm_idle_s = 0;
  double run_idle_s = 0;  // its run time alone on an idle fabric, same placement
  std::vector<GpuId> gpu_ids;  // ascending

  double queue_s() const { return start_s - submit_s; }
  double jct_s() const { return end_s - submit_s; }
  double run_s() const { return end_s - start_s; }
  // comm_s / comm_idle_s; 1 when it has no fabric communication.
  double comm_slowdown() const { return comm_idle_s > 0 ? comm_s / comm_idle_s : 1.0; }
};

struct ReplayMetrics {
  size_t jobs = 0;
  double jct_mean_s = 0;
  double jct_p95_s = 0;   // nearest-rank 95th percentile
  double queue_mean_s = 0;
  double queue_p95_s = 0;
  double run_slowdown_mean = 0;   // mean of run_s / run_idle_s
  double comm_slowdown_mean = 0;  // mean over jobs with fabric communication
  // GPU-seconds allocated to jobs, and spent computing (spread evenly over
  // each job's run), inside the utilization window, over the schedulable
  // GPUs x the window. The window is the arrival period (first to last
  // submit): the drain after the last arrival is left out, as a
  // heavy-tailed trace's longest job would otherwise set it. When every job
  // arrives at once, the window is the makespan.
  double gpu_util_alloc = 0;
  double gpu_util_effective = 0;
  double util_window_s = 0;
  // Bytes the fabric's switch-to-switch ports carried over their capacity
  // x the makespan (all of them, empty ports included).
  double fabric_util = 0;
  double makespan_s = 0;  // first submit to last end
  int schedulable_gpus = 0;
  uint64_t reroutes = 0;     // jobs' routes recomputed at link failures and repairs
  uint64_t events = 0;       // simulator events
  uint64_t rate_solves = 0;  // FluidNetwork re-solves
};

struct ReplayResult {
  std::string policy;
  std::string comm;  // "none", "crux", "cassini" or "crux+cassini"
  ReplayMetrics metrics;
  std::vector<ReplayJobResult> jobs;  // in the trace's order
  std::vector<WindowFlow> window_flows;  // when options.window_start_s >= 0, in start order
};

// Replays `jobs` (sorted by submit_s, as ParseJobTrace returns them) on the
// cluster. Errors: the options (ValidateReplayOptions), a model missing
// from the catalog, a job asking for more GPUs than the schedulable ones
// ("job 'j7': asks for 4096 GPUs, the cluster schedules 2040").
Result<ReplayResult> ReplayJobTrace(const Topology& topology, const RoutingTable& routes, const ClusterLayout& layout,
                                    std::span<const TraceJob> jobs, const ReplayOptions& options);

}  // namespace aifabric
