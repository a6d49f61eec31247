// The fabric of a run as the dashboard draws it: TopologyJson renders a
// Topology as JSON (GET /api/runs/{id}/topology, docs/serve.md), one node
// per host and switch and one link per cable (both directions of it, ports
// 2*id and 2*id+1 in links.csv), and WriteRunTopology writes that of a
// scenario's fabric into a run's folder as topology.json before the run
// simulates, so the page can draw it while the run goes. Pure functions of
// their arguments; thread-safe.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "fabric/topology.h"
#include "scenario/scenario.h"

namespace aifabric {

// The file the run's folder holds it in.
inline constexpr const char* kRunTopologyFile = "topology.json";

// {"nodes": [{"name", "kind": "host"|"switch", "tier", "server", "rail", "pod"}, ...],   (node id order)
//  "links": [{"id", "a", "b", "rate_gbps", "latency_ns"}, ...]}                          (link id order)
// a and b are node names; link `id`'s directions are links.csv's link_id
// 2*id (a->b) and 2*id+1 (b->a). tier: 0 for hosts, -1 unknown.
nlohmann::ordered_json TopologyJson(const Topology& topology);

// Builds the scenario's topology and writes its TopologyJson as
// DIR/topology.json. Errors name the scenario field or the file.
Status WriteRunTopology(const Scenario& scenario, const std::string& dir);

}  // namespace aifabric
