#include "sched/slurm_topology.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

using sched_testing::FatTree4;
using sched_testing::Layout;
using sched_testing::LeafSpine2x2;

std::string Named(const char* prefix, int i) {
  std::string n = prefix;
  n += std::to_string(i);
  return n;
}

TEST(CompressHostlist, SlurmManPageExample) {
  // topology.conf(5): "Nodes=tux[0-3,12,18-20]".
  EXPECT_EQ(CompressHostlist({"tux0", "tux1", "tux2", "tux3", "tux12", "tux18", "tux19", "tux20"}),
            "tux[0-3,12,18-20]");
}

TEST(CompressHostlist, SingleNameHasNoBrackets) {
  EXPECT_EQ(CompressHostlist({"node0007"}), "node0007");
  EXPECT_EQ(CompressHostlist({"login"}), "login");
  EXPECT_EQ(CompressHostlist({}), "");
}

TEST(CompressHostlist, RangesGapsAndZeroPadding) {
  EXPECT_EQ(CompressHostlist({"node0001", "node0002", "node0003", "node0004"}), "node[0001-0004]");
  // The brief's example: prefix[001-004,007].
  EXPECT_EQ(CompressHostlist({"n007", "n003", "n001", "n004", "n002"}), "n[001-004,007]");
  // Padding kept across a decade: 08..11 at width 2.
  EXPECT_EQ(CompressHostlist({"n08", "n09", "n10", "n11"}), "n[08-11]");
  // Two singles in one group stay bracketed, comma-separated, not a range.
  EXPECT_EQ(CompressHostlist({"s1", "s3"}), "s[1,3]");
  // Duplicates collapse.
  EXPECT_EQ(CompressHostlist({"s2", "s2", "s3"}), "s[2-3]");
}

TEST(CompressHostlist, PrefixesAndWidthsStayApart) {
  EXPECT_EQ(CompressHostlist({"b2", "a1", "b1"}), "a1,b[1-2]");
  // Unpadded numbers of different lengths share a range (Slurm reads
  // "n[9-10]" as n9, n10); a padded one stays apart from shorter ones.
  EXPECT_EQ(CompressHostlist({"n10", "n9"}), "n[9-10]");
  EXPECT_EQ(CompressHostlist({"n01", "n1"}), "n1,n01");
}

TEST(NodeNamer, DefaultsAndValidation) {
  NodeNamer namer;
  EXPECT_TRUE(namer.Validate().ok());
  EXPECT_EQ(namer.Name(0), "node0001");
  EXPECT_EQ(namer.Name(127), "node0128");
  namer.prefix = "gpu-";
  namer.digits = 2;
  namer.first_number = 0;
  EXPECT_EQ(namer.Name(5), "gpu-05");
  EXPECT_EQ(namer.Name(123), "gpu-123");  // wider than the padding: not cut

  for (const char* bad : {"", "Node", "n_", "gpu1", "-n"}) {
    NodeNamer b;
    b.prefix = bad;
    Status st = b.Validate();
    ASSERT_FALSE(st.ok()) << bad;
    EXPECT_NE(st.error().message.find("prefix"), std::string::npos) << st.error().message;
  }
  NodeNamer d;
  d.digits = 0;
  ASSERT_FALSE(d.Validate().ok());
  EXPECT_NE(d.Validate().error().message.find("digits is 0"), std::string::npos);
}

TEST(SlurmTopology, LeafSpineTwoByTwo) {
  const Topology t = LeafSpine2x2();
  Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t), SlurmTopologyOptions());
  ASSERT_TRUE(conf.ok()) << conf.error().message;
  EXPECT_EQ(*conf,
            "# topology.conf for Slurm's topology/tree plugin, written by aifabric (4 servers, 4 switches)\n"
            "SwitchName=leaf0 Nodes=node[0001-0002]\n"
            "SwitchName=leaf1 Nodes=node[0003-0004]\n"
            "SwitchName=spine0 Switches=leaf[0-1]\n"
            "SwitchName=spine1 Switches=leaf[0-1]\n");
}

TEST(SlurmTopology, LinkSpeedIsFastestChildLinkInGbps) {
  const Topology t = LeafSpine2x2();
  SlurmTopologyOptions opt;
  opt.link_speed = true;
  opt.header = false;
  opt.namer.prefix = "gpu-";
  opt.namer.digits = 3;
  Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t), opt);
  ASSERT_TRUE(conf.ok()) << conf.error().message;
  // Leaves reach their servers at 100G, spines their leaves at 400G.
  EXPECT_EQ(*conf,
            "SwitchName=leaf0 Nodes=gpu-[001-002] LinkSpeed=100\n"
            "SwitchName=leaf1 Nodes=gpu-[003-004] LinkSpeed=100\n"
            "SwitchName=spine0 Switches=leaf[0-1] LinkSpeed=400\n"
            "SwitchName=spine1 Switches=leaf[0-1] LinkSpeed=400\n");
}

TEST(SlurmTopology, TwoPodFatTree) {
  // k = 4 with 8 servers fills 2 pods: pod 0 = leaf0 (servers 0-1),
  // leaf1 (2-3), agg0, agg1; pod 1 = leaf2 (4-5), leaf3 (6-7), agg2, agg3.
  // agg0 and agg2 (index 0 in their pods) link to core0, core1; agg1 and
  // agg3 to core2, core3.
  const Topology t = FatTree4(8);
  SlurmTopologyOptions opt;
  opt.header = false;
  Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t), opt);
  ASSERT_TRUE(conf.ok()) << conf.error().message;
  EXPECT_EQ(*conf,
            "SwitchName=leaf0 Nodes=node[0001-0002]\n"
            "SwitchName=leaf1 Nodes=node[0003-0004]\n"
            "SwitchName=leaf2 Nodes=node[0005-0006]\n"
            "SwitchName=leaf3 Nodes=node[0007-0008]\n"
            "SwitchName=agg0 Switches=leaf[0-1]\n"
            "SwitchName=agg1 Switches=leaf[0-1]\n"
            "SwitchName=agg2 Switches=leaf[2-3]\n"
            "SwitchName=agg3 Switches=leaf[2-3]\n"
            "SwitchName=core0 Switches=agg[0,2]\n"
            "SwitchName=core1 Switches=agg[0,2]\n"
            "SwitchName=core2 Switches=agg[1,3]\n"
            "SwitchName=core3 Switches=agg[1,3]\n");
}

TEST(SlurmTopology, FullFatTreeEveryServerOnceAndChildCounts) {
  // Full k = 4 tree: 16 servers, 4 pods, 20 switches. Each leaf holds
  // k/2 = 2 servers, each agg k/2 = 2 leaves, each core one agg per pod = 4.
  const Topology t = FatTree4(16);
  Result<std::vector<SlurmSwitchLine>> lines = BuildSlurmTree(t, Layout(t), SlurmTopologyOptions());
  ASSERT_TRUE(lines.ok()) << lines.error().message;
  ASSERT_EQ(lines->size(), 20u);
  std::map<std::string, int> seen;
  for (const SlurmSwitchLine& l : *lines) {
    for (const std::string& n : l.nodes) ++seen[n];
    if (l.tier == 1) {
      EXPECT_EQ(l.nodes.size(), 2u) << l.name;
      EXPECT_TRUE(l.switches.empty()) << l.name;
    } else {
      EXPECT_TRUE(l.nodes.empty()) << l.name;
      EXPECT_EQ(l.switches.size(), l.tier == 2 ? 2u : 4u) << l.name;
    }
  }
  ASSERT_EQ(seen.size(), 16u);
  for (const auto& [name, count] : seen) EXPECT_EQ(count, 1) << name;
}

TEST(SlurmTopology, RailOptimizedListsEachServerUnderItsRailZeroLeaf) {
  // 2 servers x 2 rails: rail-0 NICs (h0, h2) on leaf0, rail-1 NICs (h1, h3)
  // on leaf1, one spine. Each server appears once, under leaf0; leaf1 holds
  // no home server and is left out, so spine0 lists only leaf0.
  Topology t;
  for (int s = 0; s < 2; ++s) {
    for (int r = 0; r < 2; ++r) t.AddHost(Named("h", s * 2 + r), s, r);
  }
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  const NodeId leaf0 = t.AddSwitch("leaf0", 1, spec), leaf1 = t.AddSwitch("leaf1", 1, spec);
  const NodeId spine0 = t.AddSwitch("spine0", 2, spec);
  const DataRate r = DataRate::Gbps(400);
  t.AddLink(0, leaf0, r, Time::Zero());
  t.AddLink(1, leaf1, r, Time::Zero());
  t.AddLink(2, leaf0, r, Time::Zero());
  t.AddLink(3, leaf1, r, Time::Zero());
  t.AddLink(leaf0, spine0, r, Time::Zero());
  t.AddLink(leaf1, spine0, r, Time::Zero());
  SlurmTopologyOptions opt;
  opt.header = false;
  Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t, 2), opt);
  ASSERT_TRUE(conf.ok()) << conf.error().message;
  EXPECT_EQ(*conf,
            "SwitchName=leaf0 Nodes=node[0001-0002]\n"
            "SwitchName=spine0 Switches=leaf0\n");
}

TEST(SlurmTopology, ErrorsNameTheProblem) {
  {
    Topology t;  // a server with no switch
    t.AddHost("lonely", 0, 0);
    Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t), SlurmTopologyOptions());
    ASSERT_FALSE(conf.ok());
    EXPECT_NE(conf.error().message.find("\"lonely\""), std::string::npos) << conf.error().message;
  }
  {
    Topology t = LeafSpine2x2();
    t.MarkSwitch(t.FindByName("spine1"), -1, 0);  // tier unknown (as in an HPCC file)
    Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t), SlurmTopologyOptions());
    ASSERT_FALSE(conf.ok());
    EXPECT_NE(conf.error().message.find("\"spine1\" has tier -1"), std::string::npos) << conf.error().message;
  }
  {
    Topology t = LeafSpine2x2();
    SlurmTopologyOptions opt;
    opt.namer.prefix = "Bad";
    Result<std::string> conf = FormatSlurmTopologyConf(t, Layout(t), opt);
    ASSERT_FALSE(conf.ok());
    EXPECT_NE(conf.error().message.find("node namer: prefix \"Bad\""), std::string::npos) << conf.error().message;
  }
}

}  // namespace
}  // namespace aifabric
