// BuildTopology is the one entry point that turns a TopologySpec into a
// Topology, dispatching on its type to the builders (leaf_spine, fat_tree,
// rail_optimized) and file readers (hpcc, lingjun, ibnetdiscover). Thread-safe.
//
// Conventions every generated fabric follows (file readers keep their own
// ids, see their headers): hosts come first, server-major and NIC-minor, so
// host id == server * nics_per_server + rail, named "h<id>"; then switches by
// tier: "leaf<i>" (1), "spine<i>" or "agg<i>" (2), "core<i>" (3). Host links
// run at min(nic_rate, port rate), switch links at the port rate, all with
// spec.link_latency; every switch has switch spec 0 (spec.switch_spec).
#pragma once

#include <string_view>

#include "core/result.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

// Builds the fabric; errors name the scenario field (or file:line) at fault.
Result<Topology> BuildTopology(const TopologySpec& spec);

// The names used in scenario files: "leaf_spine", "fat_tree",
// "rail_optimized", "hpcc" (an HPCC ns-3 topology.txt), "lingjun" (the
// Lingjun CSV), "ibnetdiscover" (infiniband-diags' ibnetdiscover output or
// an ibsim net file; fabric/ibnetdiscover_reader.h).
const char* TopologyTypeName(TopologyType type);
// Inverse of TopologyTypeName; the error lists the accepted names.
Result<TopologyType> ParseTopologyType(std::string_view name);

}  // namespace aifabric
