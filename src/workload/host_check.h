// HostProblem says why a node id cannot be a flow endpoint, for error
// messages that every flow source (lists, files, generators) shares. Pure
// function; thread-safe.
#pragma once

#include <optional>
#include <string>

#include "core/ids.h"
#include "fabric/topology.h"

namespace aifabric {

// nullopt if `id` is a host of `topology`; otherwise e.g.
// "node 40 is not a host (the topology has 32 nodes)" or
// "node 33 (leaf1) is a switch, not a host".
std::optional<std::string> HostProblem(const Topology& topology, int64_t id);

}  // namespace aifabric
