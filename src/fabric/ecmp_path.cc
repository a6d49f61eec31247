#include "fabric/ecmp_path.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

TransferRequest WithSourcePort(TransferRequest r) {
  if (r.sport == 0) r.sport = static_cast<uint16_t>(10000 + r.id % 50000);
  return r;
}

uint32_t FlowHash(const TransferRequest& r) {
  const uint64_t addresses = static_cast<uint64_t>(r.src) << 32 | static_cast<uint32_t>(r.dst);
  const uint64_t ports = static_cast<uint64_t>(r.sport) << 16 | r.dport;
  return MixHash(addresses ^ (ports * 0x9E3779B97F4A7C15ull) ^ 17);
}

uint64_t EcmpSalt(uint64_t ecmp_seed, NodeId node) {
  return MixHash(ecmp_seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(node));
}

std::vector<uint64_t> EcmpSalts(const Topology& topology, uint64_t ecmp_seed) {
  std::vector<uint64_t> salts(topology.num_nodes());
  for (const Node& node : topology.nodes()) salts[node.id] = EcmpSalt(ecmp_seed, node.id);
  return salts;
}

PortId EcmpNextHop(const RoutingTable& routes, std::span<const uint64_t> salts, NodeId node, NodeId dst,
                   uint32_t hash) {
  const std::span<const PortId> hops = routes.NextHops(node, dst);
  assert(!hops.empty());
  if (hops.size() == 1) return hops[0];
  return hops[MixHash(hash ^ salts[node]) % hops.size()];
}

void AppendEcmpPath(const Topology& topology, const RoutingTable& routes, std::span<const uint64_t> salts, NodeId src,
                    NodeId dst, uint32_t hash, std::vector<PortId>& out) {
  NodeId at = src;
  while (at != dst) {
    const PortId p = EcmpNextHop(routes, salts, at, dst, hash);
    out.push_back(p);
    at = topology.port(p).peer;
  }
}

std::vector<PortId> EcmpPath(const Topology& topology, const RoutingTable& routes, std::span<const uint64_t> salts,
                             NodeId src, NodeId dst, uint32_t hash) {
  std::vector<PortId> path;
  path.reserve(static_cast<size_t>(std::max(0, routes.Distance(src, dst))));
  AppendEcmpPath(topology, routes, salts, src, dst, hash, path);
  return path;
}

std::vector<TransferRequest> SplitIntoQueuePairs(const TransferRequest& request, uint32_t mtu_bytes, uint32_t qps) {
  assert(request.bytes > 0 && mtu_bytes > 0 && qps >= 1);
  const uint64_t packets = (request.bytes + mtu_bytes - 1) / mtu_bytes;
  const uint32_t count = static_cast<uint32_t>(std::min<uint64_t>(qps, packets));
  const TransferRequest base = WithSourcePort(request);
  std::vector<TransferRequest> parts;
  parts.reserve(count);
  uint64_t offset_packets = 0;
  for (uint32_t q = 0; q < count; ++q) {
    TransferRequest part = base;
    const uint64_t part_packets = packets / count + (q < packets % count ? 1 : 0);
    const uint64_t first = offset_packets * mtu_bytes;
    part.bytes = std::min<uint64_t>(request.bytes, (offset_packets + part_packets) * mtu_bytes) - first;
    offset_packets += part_packets;
    if (q > 0) part.sport = static_cast<uint16_t>(base.sport + q * 7919u);  // a prime stride
    parts.push_back(part);
  }
  return parts;
}

}  // namespace aifabric
