// Integer ids of the fabric's parts. Plain aliases: they index dense arrays
// owned by the Topology, so they stay small and cheap to copy.
#pragma once

#include <cstdint>

namespace aifabric {

using NodeId = int32_t;   // a host (NIC endpoint) or a switch
using LinkId = int32_t;   // a bidirectional cable between two nodes
using PortId = int32_t;   // a directed channel: node -> peer over one link
using FlowId = int64_t;   // a transfer the workload asked for

constexpr NodeId kNoNode = -1;
constexpr PortId kNoPort = -1;

}  // namespace aifabric
