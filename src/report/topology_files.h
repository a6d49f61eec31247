// The files `aifabric validate` writes of a scenario's fabric: the topology
// as Graphviz DOT (fabric/dot_writer.h) and as an ibsim net file for ibsim
// and OpenSM (fabric/ibsim_netfile_writer.h, docs/infiniband.md), each
// written atomically.
#pragma once

#include <string>

#include "core/result.h"
#include "fabric/topology.h"

namespace aifabric {

Status WriteTopologyDot(const Topology& topology, const std::string& path);
Status WriteTopologyIbsim(const Topology& topology, const std::string& path);

}  // namespace aifabric
