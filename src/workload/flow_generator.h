// BuildFlows turns one traffic entry of a scenario's workload (a TrafficSpec)
// into the concrete flows to start: explicit lists and HPCC flow files are
// checked and copied; permutation, incast, all-to-all and Poisson patterns
// are generated over the topology's hosts. Pure function of its inputs and
// the Rng's state; thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ids.h"
#include "core/result.h"
#include "core/rng.h"
#include "fabric/topology.h"
#include "workload/traffic_spec.h"

namespace aifabric {

// Beyond this many flows a generator returns an error instead of building
// them (bounds memory and time for a mistyped duration or host count).
constexpr uint64_t kMaxGeneratedFlows = 10'000'000;

// Builds the flows of `spec`. Ids are first_id, first_id + 1, ... in
// generation order (list/file order; for patterns see each generator); the
// result is sorted by (start, id). Every flow has src != dst, both hosts of
// `topology`, bytes > 0. Errors name the field under `field_prefix` (e.g.
// "workload[0].flows[3].dst: node 40 is not a host (the topology has 32
// nodes)"), or the file and line for files.
//
// Patterns, over topology.hosts() in host-index order (never raw node ids,
// so HPCC topologies with interleaved switch ids work):
//  - permutation: a uniformly random derangement (every host sends to one
//    other host and receives from one), drawn by rejection: Fisher-Yates
//    shuffles until one has no fixed point (1/e of them do, so ~2.7 tries).
//    Flows in sender host order.
//  - incast: the receiver (default host index 0) and the `senders` hosts
//    that follow it in host order, wrapping past the last host. Flows in
//    that order.
//  - all-to-all: every ordered pair of distinct hosts, source-major.
//  - poisson: see poisson_flows.h; flows in start order.
// `rng` is advanced only by the random patterns (permutation, poisson).
Result<std::vector<FlowSpec>> BuildFlows(const TrafficSpec& spec, const Topology& topology,
                                         Rng& rng, FlowId first_id,
                                         const std::string& field_prefix = "workload");

}  // namespace aifabric
