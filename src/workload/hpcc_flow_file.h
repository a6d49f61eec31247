// Reader for the HPCC ns-3 simulator's flow file (`flow.txt`,
// alibaba-edu/High-Precision-Congestion-Control): the first line is the flow
// count N, then N lines `src dst pg dport bytes start_s` — node ids of the
// topology, priority group 0..7, UDP destination port, payload bytes and the
// start time in seconds as a decimal. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "fabric/topology.h"
#include "workload/traffic_spec.h"

namespace aifabric {

// Converts a non-negative decimal number of seconds ("2.000001", "0.5",
// "3", "1.5e-6") to picoseconds exactly from its digits (no floating point),
// rounding half up at the picosecond. nullopt for anything else or a value
// beyond Time's range.
std::optional<Time> ParseSecondsExact(std::string_view text);

// Reads the file at `path`. Flows keep file order; their ids are 0 (the
// caller assigns them). Errors name `path:line` and what was expected; a
// missing file is an error naming the path. Blank lines are skipped; lines
// beyond the declared count are an error.
Result<std::vector<FlowSpec>> ReadHpccFlowFile(const std::string& path, const Topology& topology);

// As above, from text already in memory; `origin` names it in errors.
Result<std::vector<FlowSpec>> ParseHpccFlows(std::string_view text, const std::string& origin,
                                             const Topology& topology);

}  // namespace aifabric
