// The text `aifabric schedule` prints: a replay's summary, or several
// replays side by side (a metric per row, a spec per column, each after the
// first with its change from the first in percent). The same metrics as
// summary.json (schedule_outputs.h). Pure functions; the wall-time line is
// the only machine-dependent text and is formatted by the caller.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "report/schedule_outputs.h"
#include "run/schedule_window.h"
#include "sched/cluster_replay.h"

namespace aifabric {

// "aifabric schedule — <cluster> (<spec>, seed N)" and a few lines: jobs,
// JCT, queueing, GPU utilization, slowdowns, fabric utilization, makespan.
std::string FormatScheduleSummary(const ReplayResult& result, const ScheduleRunInfo& info);

// The comparison table: a header row of spec names, then one row per
// metric of ScheduleMetrics() except the replay's cost (events, rate
// solves); values with 6 significant digits, a change as "(+12.3%)", or
// "(-)" when the first spec's value is 0.
std::string FormatScheduleComparison(std::span<const ReplayResult> results, const ScheduleRunInfo& info);

struct ScheduleRun;

// What `aifabric schedule` prints: the summary (one replay) or the
// comparison, the replays' cost in wall time, events and peak memory, and
// the files written to `out_dir` (`written`, as OutputFolder::names()).
std::string FormatScheduleRunText(const ScheduleRun& run, const ScheduleRunInfo& info, bool comparing,
                                  const std::string& out_dir, const std::vector<std::string>& written);

// The line before the packet window's run summary (--packet-window).
std::string FormatPacketWindowHeading(const PacketWindow& window, size_t flows);

}  // namespace aifabric
