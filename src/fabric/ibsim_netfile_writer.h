// WriteIbsimNetFile writes a fabric as an ibsim net file: the
// ibnetdiscover-compatible topology text that the InfiniBand fabric simulator
// reads (`ibsim -s <file>`), so OpenSM and the infiniband-diags tools can run
// against an aifabric fabric without hardware. Pure; thread-safe.
//
// Layout (ibsim 0.10, linux-rdma/ibsim net-examples and sim_net.c):
//
//   caguid=0xa1fa000000000000
//   Hca	1 "h0"	# "h0"
//   [1]	"leaf0"[1]	# "leaf0" lid 0 4xEDR
//
//   switchguid=0xa1fa000000001000
//   Switch	8 "leaf0"	# "leaf0"
//   [1]	"h0"[1]	# "h0" lid 0 4xEDR
//
// Hosts come first (ibsim attaches clients to the first node unless SIM_HOST
// says otherwise, so OpenSM runs on h0 as on a real cluster's head node),
// then switches, each in node-id order. Each node gets its GUID from
// `map` (IbLidMap::ForTopology by default) through a `caguid=`/`switchguid=`
// line, a node with as many ports as its highest IB port number, and one
// line per link in IB port order. "lid 0 <width>x<speed>" tells ibsim the
// link rate (IbLinkRateName); a rate with no IB name gets ibsim's default
// (4xSDR), and ibsim 0.10 does not know NDR/XDR either (it warns and brings
// the link up at SDR) — routing does not depend on it.
//
// Node ids are the Topology names when they suit ibsim (1..40 printable
// characters without '"', '#' or '@', unique); others become "node<id>".
// ibsim's default limits are 2048 nodes, 256 switches and 13312 ports;
// larger fabrics need `ibsim -N/-S/-P`.
#pragma once

#include <string>

#include "fabric/ib_lid_map.h"
#include "fabric/topology.h"

namespace aifabric {

std::string WriteIbsimNetFile(const Topology& topology);
// With explicit GUIDs and IB port numbers. REQUIRES: `map` was built for
// `topology` and numbers every port.
std::string WriteIbsimNetFile(const Topology& topology, const IbLidMap& map);

// The ibsim node id WriteIbsimNetFile gives each node, by NodeId.
std::vector<std::string> IbsimNodeIds(const Topology& topology);

}  // namespace aifabric
