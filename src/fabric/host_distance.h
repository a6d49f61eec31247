// HostDistances is the hop distance of every node of a topology from its
// nearest host: one breadth-first search from all hosts at once, so 0 for
// a host, 1 for a switch with a host link, 2 for a switch one hop beyond,
// and -1 for a node no host reaches. It gives a switch its tier where the
// input has none (HPCC topology.txt, ibnetdiscover output) or where a tier
// is unknown (the diagnosis, the ftree routing engine). Hosts are the
// NodeKind::kHost nodes; the search crosses every link, a host's too (every
// host is a source, so no path through one is shorter). Pure; thread-safe.
#pragma once

#include <vector>

#include "fabric/topology.h"

namespace aifabric {

// By NodeId.
std::vector<int> HostDistances(const Topology& topology);

// Sets every switch's tier to its host distance (-1 where no host is
// reachable) and keeps its switch spec: for the readers of files that
// carry no tiers.
void SetTiersFromHostDistance(Topology& topology);

}  // namespace aifabric
