// Where GPUs sit: one NIC per GPU (rails), GPUs sharing a NIC, and hosts
// without a server number.
#include "fabric/cluster_layout.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

Topology Servers(int servers, int nics_per_server) {
  Topology t;
  for (int s = 0; s < servers; ++s) {
    for (int r = 0; r < nics_per_server; ++r) {
      std::string name = "h";
      name += std::to_string(t.num_nodes());
      t.AddHost(std::move(name), s, r);
    }
  }
  return t;
}

// The fastest NIC rate of t's servers, one GPU each.
DataRate FastestNicOfOneGpuServers(const Topology& t) {
  ServerSpec spec;
  spec.gpus_per_server = 1;
  Result<ClusterLayout> l = ClusterLayout::Build(t, spec);
  EXPECT_TRUE(l.ok());
  return l.ok() ? FastestNicRate(t, *l) : DataRate();
}

// Two servers of one NIC; server 1's NIC links at 400G, server 0's at 100G:
// the fastest NIC link is 400G, whichever server has it.
TEST(ClusterLayout, FastestNicRateLooksAtEveryServer) {
  Topology t = Servers(2, 1);
  const NodeId leaf = t.AddSwitch("leaf", 1, t.AddSwitchSpec(SwitchSpec{}));
  t.AddLink(0, leaf, DataRate::Gbps(100), Time::Zero());
  t.AddLink(1, leaf, DataRate::Gbps(400), Time::Zero());
  EXPECT_EQ(FastestNicOfOneGpuServers(t), DataRate::Gbps(400));
}

// A NIC's rate is the sum of its links: server 0's NIC is dual-homed, two
// 200G links to two leaves (400G), server 1's has one 300G link; the
// fastest NIC is server 0's at 400G, though its fastest link is 200G.
TEST(ClusterLayout, FastestNicRateSumsAMultiHomedNicsLinks) {
  Topology t = Servers(2, 1);
  const int spec_id = t.AddSwitchSpec(SwitchSpec{});
  const NodeId leaf0 = t.AddSwitch("leaf0", 1, spec_id);
  const NodeId leaf1 = t.AddSwitch("leaf1", 1, spec_id);
  t.AddLink(0, leaf0, DataRate::Gbps(200), Time::Zero());
  t.AddLink(0, leaf1, DataRate::Gbps(200), Time::Zero());
  t.AddLink(1, leaf0, DataRate::Gbps(300), Time::Zero());
  EXPECT_EQ(FastestNicOfOneGpuServers(t), DataRate::Gbps(400));
}

TEST(ClusterLayout, OneNicPerGpuPutsGpuIOnRailI) {
  const Topology t = Servers(2, 8);
  Result<ClusterLayout> l = ClusterLayout::Build(t, ServerSpec{});
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->servers(), 2);
  EXPECT_EQ(l->gpus(), 16);
  EXPECT_EQ(l->nic_of(3), 3);     // server 0, rail 3
  EXPECT_EQ(l->nic_of(13), 13);   // server 1, rail 5: host 8 + 5
  EXPECT_TRUE(l->same_server(8, 15));
  EXPECT_FALSE(l->same_server(7, 8));
}

TEST(ClusterLayout, TwoGpusShareEachNicWhenThereAreHalfAsMany) {
  const Topology t = Servers(1, 4);
  Result<ClusterLayout> l = ClusterLayout::Build(t, ServerSpec{});
  ASSERT_TRUE(l.ok());
  // floor(i * 4 / 8): GPUs 0,1 -> NIC 0; 2,3 -> 1; ...; 6,7 -> 3.
  EXPECT_EQ(l->nic_of(0), 0);
  EXPECT_EQ(l->nic_of(1), 0);
  EXPECT_EQ(l->nic_of(2), 1);
  EXPECT_EQ(l->nic_of(7), 3);
}

TEST(ClusterLayout, AGpuWithTwoNicsHasBoth) {
  const Topology t = Servers(1, 16);
  Result<ClusterLayout> l = ClusterLayout::Build(t, ServerSpec{});
  ASSERT_TRUE(l.ok());
  // GPU 3 of 8 with 16 NICs: NICs 6 and 7.
  EXPECT_EQ(l->nic_count(3), 2);
  EXPECT_EQ(l->nic_of(3), 6);
  EXPECT_EQ(l->nic_of(3, 1), 7);
  // One NIC per GPU, or shared: one each.
  EXPECT_EQ(ClusterLayout::Build(Servers(1, 4), ServerSpec{})->nic_count(5), 1);
}

TEST(ClusterLayout, HostsWithoutAServerAreServersOfTheirOwn) {
  Topology t;
  t.AddHost("a");
  t.AddHost("b");
  ServerSpec spec;
  spec.gpus_per_server = 1;
  Result<ClusterLayout> l = ClusterLayout::Build(t, spec);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->servers(), 2);
  EXPECT_EQ(l->nic_of(1), 1);
  EXPECT_FALSE(ClusterLayout::Build(Topology{}, spec).ok());
}

}  // namespace
}  // namespace aifabric
