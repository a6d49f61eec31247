// Reader for the Alibaba Lingjun 2023 cluster topology
// (alibaba/alibaba-lingjun-dataset-2023 data/topo.csv; a copy is in
// data/clusters/): a CSV with the header "ip,DSW,PSW,ASW" and one row per
// host, naming the host's ToR (ASW), aggregation (PSW) and core (DSW) groups.
//
// It builds the 3-tier Clos the rows imply:
//   hosts, in row order, named by the (hashed) ip column, server = row index
//     (0-based, header excluded), rail 0;
//   tier 1: one ToR per distinct (PSW, ASW) pair — ASW labels repeat under
//     different PSWs in the real file, so a label alone is not a switch —
//     named "<PSW>/<ASW>", linked to its hosts;
//   tier 2: one switch per distinct PSW label, named by it, linked to each of
//     its ToRs (ToRs and PSWs carry Node::pod = the PSW's index);
//   tier 3: one switch per distinct DSW label, linked to each PSW that
//     appears under it.
// Switches of a tier are numbered in order of first appearance. Host links run
// at min(nic_rate, port rate), the others at the switch port rate, all with
// spec.link_latency; every switch gets spec.switch_spec.
// The labels name switch *groups* (PSW and DSW groups of the real cluster),
// and the file says nothing about how many cables join them, so each group
// becomes one logical switch (its radix is not checked) and the cables are
// sized from the scenario's oversubscription ratios: a ToR with h hosts gets
// ceil(h * host_rate / (oversubscription * port_rate)) parallel uplinks to
// its PSW; a PSW with d downlinks gets ceil(d / agg_oversubscription) uplinks,
// split evenly (rounded up) over the DSWs above it. With the defaults (1, 1)
// the fabric is non-blocking.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

// Parses the CSV text; errors read "<origin>:<line>: <what was expected>".
// Uses spec.nic_rate, spec.switch_spec and spec.link_latency.
Result<Topology> ParseLingjunTopology(std::string_view text, const std::string& origin, const TopologySpec& spec);

// Reads spec.file.
Result<Topology> ReadLingjunTopologyFile(const TopologySpec& spec);

}  // namespace aifabric
