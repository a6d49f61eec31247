// ChakraOptions: how a set of Chakra traces becomes a JobGraph — where the
// ranks run, what the communicator groups are, how compute given as FLOPs
// takes time. A plain struct with commented defaults, filled from the
// scenario by src/run (run/chakra_run.cc).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "chakra/chakra_trace_file.h"
#include "core/result.h"
#include "fabric/cluster_layout.h"
#include "workload/job_graph.h"

namespace aifabric {

struct ChakraOptions {
  // The GPU rank r runs on; empty: rank r runs on GPU r. Otherwise one
  // distinct, non-negative GPU id per trace file.
  std::vector<GpuId> rank_gpus;

  // Communicator groups: pg_name -> the ranks in it, as ASTRA-sim's
  // comm-group JSON file gives them (ReadChakraCommGroups). A pg_name of ""
  // or "0" is all ranks (ASTRA-sim's default group); any other name not
  // listed here is the set of ranks whose traces use it.
  std::map<std::string, std::vector<int32_t>> comm_groups;

  // A compute node without duration_micros but with a num_ops attribute
  // takes num_ops / (peak_flops_per_s * compute_efficiency). 0: such a node
  // is an error (its time is unknown).
  double peak_flops_per_s = 0;
  double compute_efficiency = 1.0;  // (0, 1]

  // Nodes marked is_cpu_op: false reads them as kernels on the rank's GPU
  // (their duration counts, as ASTRA-sim replays them); true passes them
  // through (no time; their dependencies carry over).
  bool skip_cpu_ops = false;

  // The dimension recorded on every collective and transfer (traces do not
  // say which parallelism a communicator serves).
  CommDimension dimension = CommDimension::kOther;

  ChakraFileLimits limits;
};

// Checks `options` for a trace set of `rank_count` files: rank_gpus (one
// per rank, distinct, >= 0), comm_groups (not "" or "0"; ranks that
// exist, none twice, not empty), compute_efficiency in (0, 1], peak_flops_per_s >= 0. The
// error names the option.
Status CheckChakraOptions(const ChakraOptions& options, int32_t rank_count);

}  // namespace aifabric
