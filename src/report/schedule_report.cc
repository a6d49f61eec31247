#include "report/schedule_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string_view>
#include <vector>

#include "core/peak_memory.h"
#include "run/schedule_run.h"

namespace aifabric {
namespace {

// The replay's cost, not a property of the schedule: left out of the table.
bool IsCost(std::string_view name) { return name == "events" || name == "rate_solves"; }

std::string Cell(const ScheduleMetric& metric, const ReplayResult& r, const ReplayResult* base) {
  const double v = metric.value(r.metrics);
  std::string cell = metric.integer ? fmt::format("{}", static_cast<uint64_t>(v)) : fmt::format("{:.6g}", v);
  if (base == nullptr) return cell;
  const double b = metric.value(base->metrics);
  return cell + (b != 0 ? fmt::format(" ({:+.1f}%)", 100 * (v - b) / b) : std::string(" (-)"));
}

}  // namespace

std::string FormatScheduleSummary(const ReplayResult& result, const ScheduleRunInfo& info) {
  const ReplayMetrics& m = result.metrics;
  std::string out = fmt::format("aifabric schedule — {} ({}, seed {})\n", info.cluster, ResultSpecName(result), info.seed);
  out += fmt::format("  trace       {}: {} jobs on {} schedulable GPUs, makespan {:.1f} s\n", info.trace_path, m.jobs,
                     m.schedulable_gpus, m.makespan_s);
  out += fmt::format("  JCT         mean {:.1f} s, p95 {:.1f} s\n", m.jct_mean_s, m.jct_p95_s);
  out += fmt::format("  queue       mean {:.1f} s, p95 {:.1f} s\n", m.queue_mean_s, m.queue_p95_s);
  out += fmt::format("  GPU util    allocated {:.1f}%, effective {:.1f}%\n", 100 * m.gpu_util_alloc,
                     100 * m.gpu_util_effective);
  out += fmt::format("  slowdown    run {:.3f}, communication {:.3f} (means over jobs, vs alone on an idle fabric)\n",
                     m.run_slowdown_mean, m.comm_slowdown_mean);
  out += fmt::format("  fabric      utilization {:.1f}% (switch-to-switch ports)\n", 100 * m.fabric_util);
  return out;
}

std::string FormatScheduleComparison(std::span<const ReplayResult> results, const ScheduleRunInfo& info) {
  std::vector<std::vector<std::string>> columns;  // [0] metric names, then one per spec
  std::vector<std::string> names = {"metric"};
  for (const ScheduleMetric& metric : ScheduleMetrics()) {
    if (!IsCost(metric.name)) names.push_back(metric.name);
  }
  columns.push_back(std::move(names));
  for (const ReplayResult& r : results) {
    std::vector<std::string> column = {ResultSpecName(r)};
    for (const ScheduleMetric& metric : ScheduleMetrics()) {
      if (!IsCost(metric.name)) column.push_back(Cell(metric, r, &r == &results.front() ? nullptr : &results.front()));
    }
    columns.push_back(std::move(column));
  }
  std::string out = fmt::format("aifabric schedule — {} ({}, seed {}; change vs {})\n", info.cluster, info.trace_path,
                                info.seed, ResultSpecName(results.front()));
  for (size_t row = 0; row < columns.front().size(); ++row) {
    std::string line = " ";
    for (size_t c = 0; c < columns.size(); ++c) {
      size_t width = 0;
      for (const std::string& cell : columns[c]) width = std::max(width, cell.size());
      line += c == 0 ? fmt::format(" {:<{}}", columns[c][row], width) : fmt::format("  {:>{}}", columns[c][row], width);
    }
    out += line + "\n";
  }
  return out;
}

std::string FormatScheduleRunText(const ScheduleRun& run, const ScheduleRunInfo& info, bool comparing,
                                  const std::string& out_dir, const std::vector<std::string>& written) {
  std::string out = comparing ? FormatScheduleComparison(run.results, info) : FormatScheduleSummary(run.results.front(), info);
  uint64_t events = 0, solves = 0;
  for (const ReplayResult& r : run.results) {
    events += r.metrics.events;
    solves += r.metrics.rate_solves;
  }
  const double wall_s = std::accumulate(run.wall_s.begin(), run.wall_s.end(), 0.0);
  out += fmt::format("  replayed    {} in {:.3f} s wall ({} events, {} rate solves), peak memory {:.0f} MiB\n",
                     comparing ? fmt::format("{} specs", run.results.size()) : std::string("the trace"), wall_s,
                     events, solves, PeakMemoryMiB());
  std::string listed = comparing ? "<spec>/ (summary.json, jobs.csv)" : "";
  for (const std::string& name : written) {
    if (name.find('/') != std::string::npos) continue;  // a spec's own folder, listed as <spec>/
    listed += (listed.empty() ? "" : ", ") + name;
  }
  out += fmt::format("  outputs     {}/ ({})\n", out_dir, listed);
  return out;
}

std::string FormatPacketWindowHeading(const PacketWindow& window, size_t flows) {
  return fmt::format("\npacket window {:.6f} s + {:.3f} ms of the replay: {} flows at packet level\n",
                     window.start.seconds(), window.duration.seconds() * 1e3, flows);
}

}  // namespace aifabric
