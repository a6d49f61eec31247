// Poisson flow arrivals, the usual data-center benchmark built on the HPCC
// traffic_gen CDFs: each host starts flows as a Poisson process whose mean
// gap is mean_size_bits / (host_link_rate * load), to destinations uniform
// over the other hosts, with sizes drawn from a flow-size CDF. Pure function
// of its inputs and the Rng's state; thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "core/rng.h"
#include "fabric/topology.h"
#include "workload/flow_size_cdf.h"
#include "workload/traffic_spec.h"

namespace aifabric {

// The expected number of flows of `spec` over the whole topology:
//   sum over hosts of duration_s * rate_bps * load / (mean_bytes * 8).
// REQUIRES: every host has at least one port.
double ExpectedPoissonFlows(const PoissonSpec& spec, const Topology& topology,
                            const FlowSizeCdf& cdf);

// Generates the arrivals in [start, start + duration). The host link rate is
// the rate of the host's first port. Randomness: one value is drawn from
// `rng` to seed this workload, and host index i draws from that seed's
// Fork(i), so a host's flows do not depend on the order hosts are visited
// and two Poisson workloads built from the same `rng` differ. Per arrival,
// a host draws the gap, then the destination, then the size.
// Flows come sorted by start (ties in host order), ids 0 (BuildFlows
// assigns them). Errors: load outside (0, 1], duration <= 0, an unreadable
// CDF, fewer than 2 hosts, a host with no link, or more than
// kMaxGeneratedFlows expected ("<prefix>.poisson.duration").
Result<std::vector<FlowSpec>> BuildPoissonFlows(const PoissonSpec& spec,
                                                const Topology& topology, Rng& rng,
                                                const std::string& field_prefix);

}  // namespace aifabric
