// HpccFct: the figures HPCC's ns-3 simulator (alibaba-edu/High-Precision-
// Congestion-Control, simulation/scratch/third.cc) writes per flow to
// fct.txt, worked out on an aifabric topology:
//  - the pair's base RTT, as main() computes pairRtt: twice the one-way
//    delay plus, per hop, one full payload's transmission time in whole ns
//    (floor(payload_bytes * 8e9 / rate)); no ACK transmission time. The
//    one-way delay is found as CalculateRoute finds it: breadth first from
//    the destination through switches only, the first path found. aifabric's
//    switch latencies are counted in that delay (HPCC's switches have none).
//  - standalone_fct = base RTT + floor(total_bytes * 8e9 / bottleneck_bps),
//    total_bytes = bytes + packets * per-packet header (qp_finish), all in
//    integer nanoseconds as that simulator computes them.
//  - the return of the last ACK on the idle reverse path (cables, switches
//    and the ACK's transmission per hop), which turns a one-way completion
//    into an acknowledged one.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/ids.h"
#include "core/time.h"
#include "fabric/topology.h"

namespace aifabric {

struct HpccPair {
  Time delay;                   // one way: cables plus switch latencies
  int64_t tx_delay_ns = 0;      // sum over hops of one payload's transmission, whole ns each
  uint64_t bottleneck_bps = 0;  // the slowest link on the path
  Time ack_return;              // one ACK of ack_wire_bytes back over the same hops, idle
  int hops = 0;                 // links crossed; 0 when dst is unreachable
};

// REQUIRES: src and dst are hosts of `topology`.
HpccPair HpccPairOf(const Topology& topology, NodeId src, NodeId dst, uint32_t payload_bytes,
                    uint32_t ack_wire_bytes);

// The same for many pairs at once, out[i] for pairs[i]: one search per
// destination switch (per destination for a host with several cables).
std::vector<HpccPair> HpccPairsOf(const Topology& topology, const std::vector<std::pair<NodeId, NodeId>>& pairs,
                                  uint32_t payload_bytes, uint32_t ack_wire_bytes);

// pairRtt: delay * 2 + tx_delay, in ns (the delay truncated to whole ns).
int64_t HpccBaseRttNs(const HpccPair& pair);

// qp_finish's standalone_fct in ns; 0 for a pair with no path. REQUIRES: payload_bytes > 0, bytes > 0.
int64_t HpccStandaloneFctNs(const HpccPair& pair, uint64_t bytes, uint32_t payload_bytes, uint32_t header_bytes);

}  // namespace aifabric
