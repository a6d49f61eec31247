// RunCollectiveSweep is `aifabric collective`: an nccl-tests style sweep of
// one collective over a scenario's cluster and fabric. For each size it
// builds the collective's DAG (workload/collective_algorithms.h) and runs it
// in a fresh simulation: GPUs on a GpuNetwork (NVLink inside a server) over
// the scenario's packet-level fabric (PFC, congestion control, routing as
// configured). Deterministic: the same scenario, seed and request give the
// same rows. Not thread-safe (one call at a time per scenario object).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fabric/link_fault.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "core/result.h"
#include "core/time.h"
#include "workload/collective_algorithms.h"
#include "workload/collective_sweep.h"
#include "workload/collective_sweep_report.h"

namespace aifabric {

struct CollectiveRequest {
  CollectiveOp op = CollectiveOp::kAllReduce;
  // Unset: per size, the fastest of the algorithms NCCL would consider for
  // the op (all_reduce: ring, tree, and NVLS where the GPU has it and a
  // server holds several ranks; others: their one algorithm), as NCCL's
  // tuner aims to pick.
  std::optional<CollectiveAlgorithm> algorithm;
  // Unset: per size, the fastest of Simple, LL and LL128 (LL and LL128 only
  // up to 64 MiB, past which NCCL never picks them; NVLS is Simple only).
  std::optional<CollectiveProtocol> protocol;
  SizeSweep sweep;
  // Non-empty: exactly these sizes (as -b/-e sizes, in this order) instead of `sweep`.
  std::vector<uint64_t> sizes;
  int32_t gpus = 0;            // the first N GPUs (server-major); 0 = all
  int32_t channels = 0;        // 0 = one per GPU of a server (every rail busy)
  uint64_t chunk_bytes = 0;    // pipeline chunk per channel; 0 = NCCL's (NcclChunkBytes)
  bool pxn = true;             // relay cross-rail sends over NVLink (NCCL's default since 2.12)
  int32_t root = 0;
  bool data_check = false;     // print #wrong 0 rather than N/A (nothing is checked)
  // A step DAG's node limit past which chunks move k at a time
  // (CollectiveOptions::max_dag_nodes; docs/collectives.md, "Chunks");
  // 0 = that default, 20M.
  uint64_t max_dag_nodes = 0;
};

struct CollectiveSweepResult {
  int32_t ranks = 0;
  int32_t ranks_per_server = 0;
  int32_t channels = 0;
  std::vector<uint64_t> requested_bytes;   // per row
  std::vector<Time> times;                 // per row: the simulated collective time
  std::vector<CollectiveAlgorithm> algorithms;  // per row: the algorithm timed (the fastest, if auto)
  std::vector<CollectiveProtocol> protocols;    // per row: the protocol timed
  std::vector<SweepRow> rows;
  // Per row, with faults: each fault as the timed candidate's simulation
  // saw it (every size is a fresh simulation, so each replays them).
  std::vector<std::vector<FaultOutcome>> faults;
  uint64_t events = 0;                     // over all sizes
  double wall_seconds = 0;
};

// The NCCL latencies are the scenario's (Scenario::calibration_spec(): its
// `calibration:` file over the built-in table). Errors name the option or
// scenario field at fault. `hooks`: cancel and on_progress (the fraction
// of the sizes done) are heard; a cancelled sweep returns the Error
// "cancelled".
Result<CollectiveSweepResult> RunCollectiveSweep(const Scenario& scenario, const CollectiveRequest& request,
                                                 const RunHooks& hooks = {});

// The scenario `aifabric collective` uses without a file: two servers of
// eight H100 GPUs, one 400G NIC per GPU, a rail-optimized RoCEv2 fabric
// with the common lossless defaults (YAML, for LoadScenarioText).
const char* DefaultCollectiveScenarioText();

}  // namespace aifabric
