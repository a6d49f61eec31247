// ECMP path selection shared by every network model, so that the packet and
// flow models route each flow identically: the 5-tuple hash of a transfer,
// the per-switch salt, the next hop among a RoutingTable's equal-cost set,
// the whole path from source to destination, and the split of a transfer
// over several queue pairs (each its own 5-tuple). Pure functions; safe to
// call from any thread.
//
// The choice at node n toward host d for a flow hash h is
//   NextHops(n, d)[MixHash(h ^ salt(n)) % |NextHops(n, d)|],
//   salt(n) = MixHash(ecmp_seed * 0x9E3779B97F4A7C15 + n),
// so the path is a pure function of (topology, routes, seed, hash).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/ids.h"
#include "fabric/network_model.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"

namespace aifabric {

// Mixes a 32-bit value (a finalizer from MurmurHash3): ECMP hashing.
inline uint32_t MixHash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

// Fills in the source port (the host-side entropy) when the caller left it
// 0: 10000 + id mod 50000.
TransferRequest WithSourcePort(TransferRequest r);

// The ECMP hash of a flow's 5-tuple (src, dst, sport, dport, UDP=17).
uint32_t FlowHash(const TransferRequest& r);

// The ECMP salt of one node, and of every node of a topology (by NodeId).
uint64_t EcmpSalt(uint64_t ecmp_seed, NodeId node);
std::vector<uint64_t> EcmpSalts(const Topology& topology, uint64_t ecmp_seed);

// The port out of `node` toward host `dst` for flow hash `hash`.
// REQUIRES: routes.NextHops(node, dst) non-empty; salts from EcmpSalts.
PortId EcmpNextHop(const RoutingTable& routes, std::span<const uint64_t> salts, NodeId node, NodeId dst,
                   uint32_t hash);

// The ports from `src` to host `dst`, hop by hop, for flow hash `hash`.
// REQUIRES: dst reachable from src.
std::vector<PortId> EcmpPath(const Topology& topology, const RoutingTable& routes, std::span<const uint64_t> salts,
                             NodeId src, NodeId dst, uint32_t hash);
// The same path appended to `out` (no allocation when it has room).
void AppendEcmpPath(const Topology& topology, const RoutingTable& routes, std::span<const uint64_t> salts, NodeId src,
                    NodeId dst, uint32_t hash, std::vector<PortId>& out);

// Splits a transfer over min(qps, packets) queue pairs in whole `mtu_bytes`
// packets (the first parts get the remainder), each with its own UDP source
// port (the first keeps WithSourcePort's, the q-th adds q * 7919, a prime
// stride) so ECMP sees distinct 5-tuples. Part ids are the request's id.
// REQUIRES: request.bytes > 0, mtu_bytes > 0, qps >= 1.
std::vector<TransferRequest> SplitIntoQueuePairs(const TransferRequest& request, uint32_t mtu_bytes, uint32_t qps);

}  // namespace aifabric
