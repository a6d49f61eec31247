// Reader (and writer) for the HPCC ns-3 simulator's topology.txt
// (alibaba-edu/High-Precision-Congestion-Control, simulation/mix/):
//
//   <nodes> <switches> <links>
//   <switch id> <switch id> ...           (one line, <switches> ids)
//   <src> <dst> <rate> <delay> [<error rate>]   (one line per link)
//
// e.g. "0 300 100Gbps 0.001ms 0". Node ids are kept (NodeId == file id);
// nodes not listed as switches are hosts, named "h<id>", with server = their
// index among hosts and rail 0; switches are named "sw<id>". Each link keeps
// its own rate and delay; the error-rate column is checked and ignored.
// Switch tiers are the hop distance from the nearest host (1 = ToR, 2, ...;
// -1 if no host is reachable). Every switch gets `switch_spec`; its radix is
// not checked against the file. Blank lines are skipped.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "fabric/catalog.h"
#include "fabric/topology.h"

namespace aifabric {

// Parses topology.txt text; errors read "<origin>:<line>: <what was expected>".
Result<Topology> ParseHpccTopology(std::string_view text, const std::string& origin,
                                   const SwitchSpec& switch_spec);

// Reads the file at `path` (named in errors as given).
Result<Topology> ReadHpccTopologyFile(const std::string& path, const SwitchSpec& switch_spec);

// Writes `topology` in the same format (rates in Gbps, delays in ns), so a
// fabric built here can be run by the HPCC simulator.
std::string WriteHpccTopology(const Topology& topology);

}  // namespace aifabric
