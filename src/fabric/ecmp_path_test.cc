// ECMP path selection: paths follow shortest-path next hops, the queue-pair
// split is in whole packets with distinct source ports.
#include "fabric/ecmp_path.h"

#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"

namespace aifabric {
namespace {

TEST(EcmpPath, APathFollowsShortestPathNextHopsToTheDestination) {
  const Topology t = fabric_testing::LeafSpine4x4();
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  const std::vector<uint64_t> salts = EcmpSalts(t, 7);
  // h0 -> h15: host, leaf, spine, leaf: 4 ports, each a next hop toward h15.
  for (uint32_t hash = 0; hash < 64; ++hash) {
    const std::vector<PortId> path = EcmpPath(t, routes, salts, 0, 15, hash);
    ASSERT_EQ(path.size(), 4u);
    NodeId at = 0;
    for (PortId p : path) {
      EXPECT_EQ(p, EcmpNextHop(routes, salts, at, 15, hash));
      at = t.port(p).peer;
    }
    EXPECT_EQ(at, 15);
  }
}

TEST(EcmpPath, QueuePairsSplitWholePacketsWithDistinctSourcePorts) {
  // 10 packets of 1000 B (the last 500 B) over 3 queue pairs: 4, 3, 3
  // packets = 4000, 3000, 2500 B; source ports 10042, +7919, +2*7919.
  TransferRequest r;
  r.id = 42;
  r.src = 0;
  r.dst = 1;
  r.bytes = 9500;
  const std::vector<TransferRequest> parts = SplitIntoQueuePairs(r, 1000, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].bytes, 4000u);
  EXPECT_EQ(parts[1].bytes, 3000u);
  EXPECT_EQ(parts[2].bytes, 2500u);
  EXPECT_EQ(parts[0].sport, 10042);
  EXPECT_EQ(parts[1].sport, 10042 + 7919);
  EXPECT_EQ(parts[2].sport, 10042 + 2 * 7919);
  // Never more queue pairs than packets.
  r.bytes = 1500;
  EXPECT_EQ(SplitIntoQueuePairs(r, 1000, 8).size(), 2u);
}

}  // namespace
}  // namespace aifabric
