// ReplayJob is one trace job inside a scheduling replay (cluster_replay.h):
// what is known before placement (its profile, and the run time and fabric
// load it would have alone with every byte at NIC speed, which backfill and
// the policies read), then its GPUs, its coflows (with their flows when the
// packet window or link failures need them), its iterations folded into
// macro-iterations, and the timings the replay reports. The replay owns one
// per trace job and drives it; a plain struct, not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "core/time.h"
#include "sched/cluster_replay.h"
#include "sched/job_profile.h"
#include "sched/job_trace.h"
#include "sched/replay_fabric.h"
#include "workload/model_catalog.h"

namespace aifabric {

struct ReplayJob {
  const TraceJob* trace = nullptr;
  JobProfile profile;
  bool training = true;
  double estimate_s = 0;  // run time for backfill before placement: NIC-limited, uncontended
  double fabric_bytes_per_s_per_gpu = 0;  // for the policy, same estimate
  // Placed.
  std::vector<GpuId> gpus;
  Time start, end;
  bool started = false, finished = false;
  int servers = 0, tiers = 0;
  CoflowPlan gradient, alltoall, checkpoint;
  // Their flows, kept for the packet-level window only.
  std::vector<CommEdge> gradient_edges, alltoall_edges, checkpoint_edges;
  bool gradient_active = false, alltoall_active = false;
  Time expected_end;
  double intensity = 0;  // FLOPs per fabric byte (Crux)
  double gradient_ref_per_s = 0, alltoall_ref_per_s = 0;  // expected load it adds
  bool detoured = false;  // routed around a down link
  // Folding: `macros` macro-iterations of `fold` iterations, the first
  // `fold_extra` of them one more.
  uint64_t macros = 0, fold = 0, fold_extra = 0, macros_done = 0;
  int pending = 0;  // parts of the overlapped phase outstanding
  // When its current macro-iteration began (before the first: when it
  // will, after any CASSINI offset), and its current coflow.
  Time macro_started, comm_started;
  double comm_s = 0, comm_idle_s = 0, run_idle_s = 0;
  Time next_checkpoint;
  bool checkpoint_active = false;

  bool on_fabric() const { return !gradient.empty() || !alltoall.empty(); }
  double MacroIterations(uint64_t m) const { return static_cast<double>(fold + (m < fold_extra ? 1 : 0)); }
  // Its pace before placement, in iterations per second (0 if unknown):
  // Crux routes its flows counting their load at it.
  double estimated_iterations_per_s() const {
    return estimate_s > 0 ? static_cast<double>(trace->iterations) / estimate_s : 0.0;
  }

  // Sets training, profile, estimate_s and fabric_bytes_per_s_per_gpu from
  // its model: a job on one server moves its bytes over NVLink; a larger
  // one moves every byte at `nic_bytes_per_s` (the fastest NIC's payload
  // rate; 0 = unknown, then NVLink too), without contention.
  // REQUIRES: trace is set.
  void ProfileBeforePlacement(const ModelSpec& model, int gpus_per_server, const JobModelOptions& options,
                              double nic_bytes_per_s);
  // One iteration with its bytes over NVLink (a job inside one server).
  double LocalIterationSeconds(const JobModelOptions& options) const;
  // Folds the trace's iterations into at most `max_macros` macro-iterations
  // (macros, fold, fold_extra). REQUIRES: max_macros >= 1, iterations >= 1.
  void Fold(int max_macros);
  // Adds (sign +1) or removes (-1) its gradient and all-to-all traffic,
  // at gradient_ref_per_s and alltoall_ref_per_s, to the expected load of
  // `fabric` (ReplayFabric::AddExpectedLoad).
  void AddExpectedLoad(ReplayFabric& fabric, int sign) const;
  // Its line of the replay's result, once finished.
  ReplayJobResult Result() const;
};

}  // namespace aifabric
