// The output files of `aifabric schedule` (docs/outputs.md, "Scheduling
// runs"): per replay summary.json and jobs.csv; for a comparison
// compare.csv; and, once per cluster, the files real schedulers read:
// Slurm's topology.conf and the Kubernetes node labels with Kueue's
// Topology object. Everything is built in memory first and written into an
// OutputFolder, so a failure leaves no half-written file. Pure functions of
// their inputs (byte-identical for identical inputs).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "report/output_folder.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"
#include "sched/cluster_replay.h"
#include "sched/job_trace.h"
#include "scenario/scenario_warnings.h"

namespace aifabric {

// The file names, as docs/outputs.md lists them.
inline constexpr const char* kScheduleSummaryFile = "summary.json";
inline constexpr const char* kScheduleJobsFile = "jobs.csv";
inline constexpr const char* kScheduleCompareFile = "compare.csv";
inline constexpr const char* kSlurmTopologyFile = "topology.conf";
inline constexpr const char* kKubectlLabelsFile = "k8s-node-labels.sh";
inline constexpr const char* kKueueTopologyFile = "kueue-topology.yaml";

// One summary metric of a replay: its name in summary.json and compare.csv
// (and the printed tables), and its value.
struct ScheduleMetric {
  const char* name;
  double (*value)(const ReplayMetrics&);
  bool integer = false;  // a count: written without a fraction
};
// Every ReplayMetrics field, in output order (jobs first, then JCT, queue,
// utilization, slowdown, fabric, makespan, and the replay's cost).
std::span<const ScheduleMetric> ScheduleMetrics();

// What a replay ran on, for summary.json.
struct ScheduleRunInfo {
  std::string cluster;     // the cluster scenario's name
  std::string trace_path;  // as given on the command line
  uint64_t seed = 0;
  std::vector<ScenarioWarning> warnings;  // the cluster scenario's traps (scenario/scenario_warnings.h)
};

// summary.json: cluster, trace, spec, policy, comm, seed, then every metric
// of ScheduleMetrics() (integers as integers), then `warnings`.
nlohmann::ordered_json ScheduleSummaryJson(const ReplayResult& result, const ScheduleRunInfo& info);

// jobs.csv: a header, then one row per job in result.jobs's order (the
// trace's, as ReadJobTrace sorts it: by submit_s, ties in file order):
// job_id,model,kind,gpus,iterations,submit_s,start_s,end_s,queue_s,jct_s,
// run_s,run_idle_s,comm_s,comm_idle_s,comm_slowdown,servers,tiers,tp,pp,dp,ep.
// Seconds are the shortest decimal text that reads back to the same double.
std::string ScheduleJobsCsv(const ReplayResult& result);

// compare.csv: a header `spec,policy,comm,<metric>,...`, one row per replay
// in the given order, the metrics of ScheduleMetrics().
std::string ScheduleCompareCsv(std::span<const ReplayResult> results);

// The policy spec a result ran ("topology+crux"): policy, plus "+comm"
// unless comm is "none".
std::string ResultSpecName(const ReplayResult& result);

// The files real schedulers read about the cluster: topology.conf,
// k8s-node-labels.sh and kueue-topology.yaml (sched/slurm_topology.h,
// sched/k8s_topology_labels.h, default node names node0001...), as (file
// name, contents). What a fabric cannot be described as is left out with a
// note saying why (a Lingjun ToR is named "P10/S14", not a valid Kubernetes
// label value), since these files are a by-product of the replay.
struct SchedulerTopologyOutput {
  std::vector<OutputFile> files;
  std::vector<std::string> notes;  // "k8s-node-labels.sh and kueue-topology.yaml not written: ..."
};
SchedulerTopologyOutput SchedulerTopologyFiles(const Topology& topology, const ClusterLayout& layout);

struct ScheduleRun;

// Writes `jobs` as a trace CSV (sched/job_trace.h's format) to `path`,
// atomically (`aifabric trace`).
Status WriteJobTraceFile(std::span<const TraceJob> jobs, const std::string& path);

// Everything `aifabric schedule` writes for `run` into `out`: the
// scheduler topology files of the cluster (their notes returned), and per
// replay summary.json and jobs.csv — at the top for one replay, in a
// folder per spec ("topology+crux/") with compare.csv beside them when
// `comparing`.
Result<std::vector<std::string>> WriteScheduleFiles(const ScheduleRun& run, const ScheduleRunInfo& info,
                                                    bool comparing, OutputFolder& out);

}  // namespace aifabric
