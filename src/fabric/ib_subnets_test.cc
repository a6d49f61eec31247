// Each plane of a multi-plane InfiniBand fabric is its own subnet, routed
// by its own subnet manager: the tables of a 2-plane fat-tree keep every
// route inside one plane, give each plane exactly the tables the engine
// gives that plane built alone, and a failure in one plane changes only
// that plane's tables.
#include "fabric/ib_subnets.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology_builder.h"

namespace aifabric {
namespace {

using fabric_testing::MakeSpec;

// A k = 4 fat-tree of 16 NICs (4 pods of 2 leaves, 2 aggs, 4 cores) built
// `planes` times; with 2 planes each NIC has a 50G link into each.
Topology FatTree(int planes) {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.k = 4;
  spec.planes = planes;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// The switches of subnet `s`, in id order.
std::vector<NodeId> SwitchesOf(const Topology& t, const std::vector<int>& subnet, int s) {
  std::vector<NodeId> out;
  for (NodeId sw : t.switches()) {
    if (subnet[sw] == s) out.push_back(sw);
  }
  return out;
}

// The place of `port` among its node's ports (its IB port number - 1).
int PortIndex(const Topology& t, PortId port) {
  const std::vector<PortId>& ports = t.node(t.port(port).node).ports;
  for (size_t i = 0; i < ports.size(); ++i) {
    if (ports[i] == port) return static_cast<int>(i);
  }
  return -1;
}

TEST(IbSubnets, APlaneIsASubnet) {
  const Topology two = FatTree(2);
  const std::vector<int> subnet = SwitchSubnets(two);
  EXPECT_EQ(SubnetCount(two), 2);
  // 8 leaves, 8 aggs and 4 cores a plane.
  EXPECT_EQ(SwitchesOf(two, subnet, 0).size(), 20u);
  EXPECT_EQ(SwitchesOf(two, subnet, 1).size(), 20u);
  EXPECT_EQ(subnet[two.FindByName("leaf0")], 0);
  EXPECT_EQ(subnet[two.FindByName("leaf8")], 1);
  EXPECT_EQ(SubnetCount(FatTree(1)), 1);
}

// Every route from every host, out of each of its two HCA ports, to every
// other host: each hop on a switch of that port's plane, and the last into
// the destination's link in that plane. So the tables never cross planes.
TEST(IbSubnets, TwoPlaneRoutesStayInTheirPlane) {
  const Topology t = FatTree(2);
  const std::vector<int> subnet = SwitchSubnets(t);
  for (IbRoutingEngine engine : {static_cast<IbRoutingEngine>(ComputeMinHop), static_cast<IbRoutingEngine>(ComputeFtree)}) {
    const ForwardingTables tables = RouteSubnets(t, engine);
    EXPECT_TRUE(tables.delivers_by_construction());
    const RoutingTable routes = RoutingTable::FromForwardingTables(t, tables);
    EXPECT_TRUE(routes.EveryHostReachesEveryHost(t));
    int walks = 0;
    for (NodeId src : t.hosts()) {
      for (NodeId dst : t.hosts()) {
        if (src == dst) continue;
        // The NIC may send on either plane: both ports are next hops.
        ASSERT_EQ(routes.NextHops(src, dst).size(), 2u);
        for (PortId first : t.node(src).ports) {
          const int plane = subnet[t.port(first).peer];
          NodeId at = t.port(first).peer;
          PortId last = first;
          int hops = 1;
          while (at != dst && hops < 10) {
            ASSERT_EQ(subnet[at], plane) << t.node(src).name << " -> " << t.node(dst).name;
            last = tables.Get(at, dst);
            ASSERT_NE(last, kNoPort);
            at = t.port(last).peer;
            ++hops;
          }
          ASSERT_EQ(at, dst);
          EXPECT_EQ(subnet[t.port(last).node], plane);
          ++walks;
        }
      }
    }
    EXPECT_EQ(walks, 16 * 15 * 2);
  }
}

// Plane p of the 2-plane tree is the 1-plane tree again (its switches in
// the same order, each with its ports in the same order), so its subnet
// manager computes the same tables: entry for entry, the same port
// number, in both planes and for both engines.
TEST(IbSubnets, EachPlaneIsRoutedAsIfAlone) {
  const Topology one = FatTree(1);
  const Topology two = FatTree(2);
  const std::vector<int> subnet = SwitchSubnets(two);
  const std::vector<NodeId> alone = one.switches();
  for (IbRoutingEngine engine : {static_cast<IbRoutingEngine>(ComputeMinHop), static_cast<IbRoutingEngine>(ComputeFtree)}) {
    const ForwardingTables single = engine(one, IbLidMap::ForTopology(one), {});
    const ForwardingTables planes = RouteSubnets(two, engine);
    for (int p = 0; p < 2; ++p) {
      const std::vector<NodeId> plane = SwitchesOf(two, subnet, p);
      ASSERT_EQ(plane.size(), alone.size());
      for (size_t k = 0; k < plane.size(); ++k) {
        for (size_t h = 0; h < one.hosts().size(); ++h) {
          const PortId a = single.Get(alone[k], one.hosts()[h]);
          const PortId b = planes.Get(plane[k], two.hosts()[h]);
          ASSERT_NE(b, kNoPort);
          EXPECT_EQ(PortIndex(two, b), PortIndex(one, a)) << two.node(plane[k]).name << " toward h" << h;
        }
      }
    }
  }
}

// A link down in plane 0 (leaf0's first uplink): plane 0's subnet manager
// routes around it, and plane 1's tables stay entry for entry what they
// were. No route of plane 0 uses the dead link any more.
TEST(IbSubnets, AFailureReroutesOnlyItsPlane) {
  const Topology t = FatTree(2);
  const std::vector<int> subnet = SwitchSubnets(t);
  const NodeId leaf0 = t.FindByName("leaf0");
  LinkId dead = -1;
  for (PortId p : t.node(leaf0).ports) {
    if (t.node(t.port(p).peer).kind == NodeKind::kSwitch) {
      dead = t.port(p).link;
      break;
    }
  }
  ASSERT_GE(dead, 0);
  std::vector<uint8_t> down(t.num_links(), 0);
  down[static_cast<size_t>(dead)] = 1;
  for (IbRoutingEngine engine : {static_cast<IbRoutingEngine>(ComputeMinHop), static_cast<IbRoutingEngine>(ComputeFtree)}) {
    const ForwardingTables before = RouteSubnets(t, engine);
    const ForwardingTables after = RouteSubnets(t, engine, down);
    int changed = 0;
    for (NodeId sw : t.switches()) {
      for (NodeId dst : t.hosts()) {
        if (subnet[sw] == 1) {
          EXPECT_EQ(after.Get(sw, dst), before.Get(sw, dst));
        } else {
          changed += after.Get(sw, dst) != before.Get(sw, dst);
          ASSERT_NE(after.Get(sw, dst), kNoPort);
          EXPECT_NE(t.port(after.Get(sw, dst)).link, dead);
        }
      }
    }
    EXPECT_GT(changed, 0);
  }
}

// h0's plane-0 link down: plane 0 has no route to h0 any more (its port is
// down), so every NIC sends to h0 on plane 1 only, and h0 sends on plane 1
// only; the others still use both planes among themselves.
TEST(IbSubnets, AHostThatLeftAPlaneIsReachedOverTheOther) {
  const Topology t = FatTree(2);
  const NodeId h0 = t.hosts()[0], h1 = t.hosts()[1];
  const PortId plane0 = t.node(h0).ports[0], plane1 = t.node(h0).ports[1];
  std::vector<uint8_t> down(t.num_links(), 0);
  down[static_cast<size_t>(t.port(plane0).link)] = 1;
  const RoutingTable routes =
      RoutingTable::FromForwardingTables(t, RouteSubnets(t, ComputeMinHop, down), down);
  EXPECT_TRUE(routes.EveryHostReachesEveryHost(t));
  for (NodeId src : t.hosts()) {
    if (src == h0) continue;
    ASSERT_EQ(routes.NextHops(src, h0).size(), 1u) << t.node(src).name;
    EXPECT_EQ(routes.NextHops(src, h0)[0], t.node(src).ports[1]);
    EXPECT_GT(routes.Distance(src, h0), 0);
  }
  ASSERT_EQ(routes.NextHops(h0, h1).size(), 1u);
  EXPECT_EQ(routes.NextHops(h0, h1)[0], plane1);
  EXPECT_EQ(routes.NextHops(t.hosts()[2], h1).size(), 2u);
}

}  // namespace
}  // namespace aifabric
