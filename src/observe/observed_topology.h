// ReadObservedTopology reads the topology of a fabric one observes from a
// file in a format the project reads: "hpcc" (HPCC ns-3 topology.txt, its
// own link rates), "lingjun" (the Lingjun CSV: links at 400 Gbps, one
// logical switch per group, non-blocking) or "ibnetdiscover" (its width x
// speed per link, 400 Gbps where none is shown), as fabric's
// BuildTopology reads them for a scenario. Thread-safe.
#pragma once

#include <string>

#include "core/result.h"
#include "fabric/topology.h"

namespace aifabric {

// Errors name the file (and line) or list the formats.
Result<Topology> ReadObservedTopology(const std::string& path, const std::string& format);

}  // namespace aifabric
