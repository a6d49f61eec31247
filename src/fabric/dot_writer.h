// ToDot renders a Topology as a Graphviz graph: one rank per tier with hosts
// at the bottom and the top tier at the top (rankdir=BT), switches as boxes,
// hosts as ellipses, one undirected edge per pair of connected nodes labelled
// with the link rate, parallel links merged into one edge labelled
// "<count> x <rate>". Pure function; thread-safe.
#pragma once

#include <string>

#include "fabric/topology.h"

namespace aifabric {

// e.g. `dot -Tsvg fabric.dot > fabric.svg`. Node ids in the file are
// "n<NodeId>"; labels are the node names.
std::string ToDot(const Topology& topology);

}  // namespace aifabric
