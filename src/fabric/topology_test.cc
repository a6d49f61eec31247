#include "fabric/topology.h"

#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"

namespace aifabric {
namespace {

TEST(Topology, IdsPortsAndReverse) {
  Topology t;
  EXPECT_EQ(t.AddHost("h0", 0, 0), 0);
  EXPECT_EQ(t.AddHost("h1", 0, 1), 1);
  const int spec = t.AddSwitchSpec(fabric_testing::NamedSwitch("sw"));
  EXPECT_EQ(t.AddSwitch("leaf0", 1, spec), 2);
  // Link l has ports 2l (a->b) and 2l+1 (b->a).
  EXPECT_EQ(t.AddLink(0, 2, DataRate::Gbps(400), Time::FromNs(500)), 0);
  EXPECT_EQ(t.AddLink(2, 1, DataRate::Gbps(100), Time::FromNs(100)), 1);
  EXPECT_EQ(t.num_links(), 2u);
  EXPECT_EQ(t.port(0).node, 0);
  EXPECT_EQ(t.port(0).peer, 2);
  EXPECT_EQ(t.port(1).node, 2);
  EXPECT_EQ(t.port(1).reverse(), 0);
  EXPECT_EQ(t.port(3).node, 1);
  EXPECT_EQ(t.port(3).rate, DataRate::Gbps(100));
  EXPECT_EQ(t.node(2).ports, (std::vector<PortId>{1, 2}));
  EXPECT_EQ(t.hosts(), (std::vector<NodeId>{0, 1}));
  EXPECT_EQ(t.switches(), (std::vector<NodeId>{2}));
  EXPECT_EQ(t.host_index(1), 1);
  EXPECT_EQ(t.host_index(2), -1);
  EXPECT_EQ(t.max_tier(), 1);
  EXPECT_EQ(t.FindByName("leaf0"), 2);
  EXPECT_EQ(t.FindByName("nope"), kNoNode);
}

TEST(Topology, MarkSwitchKeepsHostIndexConsistent) {
  Topology t;
  for (int i = 0; i < 5; ++i) t.AddHost(std::string("n").append(std::to_string(i)), i, 0);
  const int spec = t.AddSwitchSpec(fabric_testing::NamedSwitch("sw"));
  t.MarkSwitch(1, 1, spec);
  t.MarkSwitch(3, 2, spec);
  EXPECT_EQ(t.hosts(), (std::vector<NodeId>{0, 2, 4}));
  EXPECT_EQ(t.host_index(0), 0);
  EXPECT_EQ(t.host_index(1), -1);
  EXPECT_EQ(t.host_index(2), 1);
  EXPECT_EQ(t.host_index(4), 2);
  EXPECT_EQ(t.node(3).kind, NodeKind::kSwitch);
  EXPECT_EQ(t.node(3).tier, 2);
  EXPECT_EQ(t.node(3).server, -1);
  EXPECT_EQ(t.max_tier(), 2);
  // Again on a switch: only tier and spec change.
  t.MarkSwitch(3, 1, spec);
  EXPECT_EQ(t.node(3).tier, 1);
  EXPECT_EQ(t.hosts().size(), 3u);
  // A host added later still gets the next index.
  EXPECT_EQ(t.AddHost("late"), 5);
  EXPECT_EQ(t.host_index(5), 3);
  t.SetPod(1, 7);
  EXPECT_EQ(t.node(1).pod, 7);
}

}  // namespace
}  // namespace aifabric
