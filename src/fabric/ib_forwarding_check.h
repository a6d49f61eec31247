// CheckForwardingTables says whether InfiniBand forwarding tables
// (ib_forwarding_tables.h) deliver: it walks every (host, destination host)
// pair along the tables and, if asked, compares the hops with the shortest
// path (RoutingTable::BuildShortestPaths). It sits above both, so the tables
// and the routing table need not know each other's checks. Pure;
// thread-safe.
#pragma once

#include "core/result.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/topology.h"

namespace aifabric {

enum class PathRule {
  kDelivers,  // every host reaches every other host, without loops
  kShortest,  // ... and along a shortest path (by hop count)
};
// Walks every (host, destination host) pair; the error names the first pair
// that fails and why (no entry at switch X, a loop through X, delivered to
// the wrong host, or N hops where the shortest path has M).
Status CheckForwardingTables(const Topology& topology, const ForwardingTables& tables,
                             PathRule rule = PathRule::kDelivers);

}  // namespace aifabric
