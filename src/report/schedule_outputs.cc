#include "report/schedule_outputs.h"

#include <array>
#include <cassert>
#include <charconv>
#include <filesystem>

#include "report/run_outputs.h"
#include "run/schedule_run.h"
#include "sched/k8s_topology_labels.h"
#include "sched/slurm_topology.h"

namespace aifabric {
namespace {

constexpr std::array<ScheduleMetric, 16> kMetrics = {{
    {"jobs", [](const ReplayMetrics& m) { return static_cast<double>(m.jobs); }, true},
    {"jct_mean_s", [](const ReplayMetrics& m) { return m.jct_mean_s; }},
    {"jct_p95_s", [](const ReplayMetrics& m) { return m.jct_p95_s; }},
    {"queue_mean_s", [](const ReplayMetrics& m) { return m.queue_mean_s; }},
    {"queue_p95_s", [](const ReplayMetrics& m) { return m.queue_p95_s; }},
    {"gpu_util_alloc", [](const ReplayMetrics& m) { return m.gpu_util_alloc; }},
    {"gpu_util_effective", [](const ReplayMetrics& m) { return m.gpu_util_effective; }},
    {"util_window_s", [](const ReplayMetrics& m) { return m.util_window_s; }},
    {"run_slowdown_mean", [](const ReplayMetrics& m) { return m.run_slowdown_mean; }},
    {"comm_slowdown_mean", [](const ReplayMetrics& m) { return m.comm_slowdown_mean; }},
    {"fabric_util", [](const ReplayMetrics& m) { return m.fabric_util; }},
    {"makespan_s", [](const ReplayMetrics& m) { return m.makespan_s; }},
    {"schedulable_gpus", [](const ReplayMetrics& m) { return static_cast<double>(m.schedulable_gpus); }, true},
    {"reroutes", [](const ReplayMetrics& m) { return static_cast<double>(m.reroutes); }, true},
    {"events", [](const ReplayMetrics& m) { return static_cast<double>(m.events); }, true},
    {"rate_solves", [](const ReplayMetrics& m) { return static_cast<double>(m.rate_solves); }, true},
}};

// The shortest text that reads back to the same value ("0.1", "1e-07", "42").
template <typename T>
void Append(std::string& out, T v) {
  std::array<char, 32> buf;
  const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), v);
  assert(ec == std::errc());
  out.append(buf.data(), end);
}

void AppendMetric(std::string& out, const ScheduleMetric& metric, const ReplayMetrics& m) {
  if (metric.integer) {
    Append(out, static_cast<uint64_t>(metric.value(m)));
  } else {
    Append(out, metric.value(m));
  }
}

}  // namespace

std::span<const ScheduleMetric> ScheduleMetrics() { return kMetrics; }

std::string ResultSpecName(const ReplayResult& result) {
  return result.comm == "none" || result.comm.empty() ? result.policy : result.policy + "+" + result.comm;
}

nlohmann::ordered_json ScheduleSummaryJson(const ReplayResult& result, const ScheduleRunInfo& info) {
  nlohmann::ordered_json j;
  j["cluster"] = info.cluster;
  j["trace"] = info.trace_path;
  j["spec"] = ResultSpecName(result);
  j["policy"] = result.policy;
  j["comm"] = result.comm;
  j["seed"] = info.seed;
  for (const ScheduleMetric& metric : kMetrics) {
    const double v = metric.value(result.metrics);
    if (metric.integer) {
      j[metric.name] = static_cast<uint64_t>(v);
    } else {
      j[metric.name] = v;
    }
  }
  j["warnings"] = WarningsJson(info.warnings);
  return j;
}

std::string ScheduleJobsCsv(const ReplayResult& result) {
  std::string out =
      "job_id,model,kind,gpus,iterations,submit_s,start_s,end_s,queue_s,jct_s,run_s,run_idle_s,comm_s,comm_idle_s,"
      "comm_slowdown,servers,tiers,tp,pp,dp,ep\n";
  for (const ReplayJobResult& job : result.jobs) {
    out += job.job_id;
    out += ',';
    out += job.model;
    out += ',';
    out += TraceJobKindName(job.kind);
    for (uint64_t v : {static_cast<uint64_t>(job.gpus), job.iterations}) {
      out += ',';
      Append(out, v);
    }
    for (double v : {job.submit_s, job.start_s, job.end_s, job.queue_s(), job.jct_s(), job.run_s(), job.run_idle_s,
                     job.comm_s, job.comm_idle_s, job.comm_slowdown()}) {
      out += ',';
      Append(out, v);
    }
    const JobParallelism& p = job.parallelism;
    for (int v : {job.servers, job.tiers, p.tp, p.pp, p.dp, p.ep}) {
      out += ',';
      Append(out, v);
    }
    out += '\n';
  }
  return out;
}

std::string ScheduleCompareCsv(std::span<const ReplayResult> results) {
  std::string out = "spec,policy,comm";
  for (const ScheduleMetric& metric : kMetrics) {
    out += ',';
    out += metric.name;
  }
  out += '\n';
  for (const ReplayResult& r : results) {
    out += ResultSpecName(r) + "," + r.policy + "," + r.comm;
    for (const ScheduleMetric& metric : kMetrics) {
      out += ',';
      AppendMetric(out, metric, r.metrics);
    }
    out += '\n';
  }
  return out;
}

SchedulerTopologyOutput SchedulerTopologyFiles(const Topology& topology, const ClusterLayout& layout) {
  SchedulerTopologyOutput out;
  // Named, not defaulted temporaries (GCC 12 warns about the latter).
  const SlurmTopologyOptions slurm_options;
  const K8sTopologyLabelOptions k8s_options;
  Result<std::string> slurm = FormatSlurmTopologyConf(topology, layout, slurm_options);
  if (slurm.ok()) {
    out.files.emplace_back(kSlurmTopologyFile, std::move(slurm).value());
  } else {
    out.notes.push_back(std::string(kSlurmTopologyFile) + " not written: " + slurm.error().message);
  }
  // The Topology object names the labels' levels: useless without them.
  Result<std::string> labels = FormatKubectlLabelCommands(topology, layout, k8s_options);
  Result<std::string> kueue = FormatKueueTopology(k8s_options);
  if (labels.ok() && kueue.ok()) {
    out.files.emplace_back(kKubectlLabelsFile, std::move(labels).value());
    out.files.emplace_back(kKueueTopologyFile, std::move(kueue).value());
  } else {
    out.notes.push_back(std::string(kKubectlLabelsFile) + " and " + kKueueTopologyFile + " not written: " +
                        (labels.ok() ? kueue.error().message : labels.error().message));
  }
  return out;
}

Status WriteJobTraceFile(std::span<const TraceJob> jobs, const std::string& path) {
  return WriteFileAtomically(path, WriteJobTrace(jobs));
}

Result<std::vector<std::string>> WriteScheduleFiles(const ScheduleRun& run, const ScheduleRunInfo& info,
                                                    bool comparing, OutputFolder& out) {
  SchedulerTopologyOutput scheduler = SchedulerTopologyFiles(run.fabric.topology, run.fabric.layout);
  std::vector<OutputFile> files;
  const auto add_replay = [&files, &info](const ReplayResult& r, const std::string& prefix) {
    files.emplace_back(prefix + kScheduleSummaryFile, ScheduleSummaryJson(r, info).dump(2) + "\n");
    files.emplace_back(prefix + kScheduleJobsFile, ScheduleJobsCsv(r));
  };
  if (comparing) {
    // One folder per spec, named by it ('+' kept: "topology+crux/").
    for (const ReplayResult& r : run.results) add_replay(r, ResultSpecName(r) + "/");
  } else {
    add_replay(run.results.front(), "");
  }
  for (OutputFile& f : scheduler.files) files.push_back(std::move(f));
  if (comparing) files.emplace_back(kScheduleCompareFile, ScheduleCompareCsv(run.results));
  for (const auto& [name, contents] : files) {
    if (Status st = out.Write(name, contents); !st.ok()) return st.error();
  }
  return scheduler.notes;
}

}  // namespace aifabric
