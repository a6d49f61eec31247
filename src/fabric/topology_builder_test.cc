#include "fabric/topology_builder.h"

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"
#include "test_paths.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::CountTier;
using fabric_testing::MakeSpec;

TEST(TopologyBuilder, DispatchesOnType) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "32x100G", 4, 2, DataRate::Gbps(100));
  Result<Topology> ls = BuildTopology(spec);
  ASSERT_TRUE(ls.ok()) << ls.error().message;
  EXPECT_EQ(ls->max_tier(), 2);

  spec.type = TopologyType::kRailOptimized;
  Result<Topology> rail = BuildTopology(spec);
  ASSERT_TRUE(rail.ok());
  EXPECT_EQ(CountTier(*rail, 1), 2);  // one leaf per rail

  spec.type = TopologyType::kFatTree;
  spec.k = 4;
  Result<Topology> ft = BuildTopology(spec);
  ASSERT_TRUE(ft.ok());
  EXPECT_EQ(ft->max_tier(), 3);

  spec.type = TopologyType::kLingjunFile;
  spec.k = 0;
  spec.file = std::string(AIFABRIC_SOURCE_DIR) + "/data/clusters/lingjun2023_topo.csv";
  Result<Topology> lj = BuildTopology(spec);
  ASSERT_TRUE(lj.ok()) << lj.error().message;
  EXPECT_EQ(lj->hosts().size(), 847u);
}

TEST(TopologyBuilder, FileTypesNeedAFile) {
  TopologySpec spec = MakeSpec(TopologyType::kHpccFile, "32x100G", 1, 1, DataRate::Gbps(100));
  Result<Topology> t = BuildTopology(spec);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message, "fabric.topology.file: required for type hpcc");
  spec.file = "/nonexistent/topology.txt";
  t = BuildTopology(spec);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.error().message, HasSubstr("/nonexistent/topology.txt: cannot open file"));
}

// Two HCAs on one switch, as ibnetdiscover prints them: h0's link says
// 4xEDR (4 x 25 = 100G), h1's says nothing, so it runs at the switch spec's
// port rate (400G here).
TEST(TopologyBuilder, ReadsAnIbnetdiscoverFile) {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "aifabric_builder_ibnet.txt";
  std::ofstream(file) << "switchguid=0x10\n"
                         "Switch\t4 \"S-0000000000000010\"\t# \"leaf0\" base port 0 lid 3 lmc 0\n"
                         "[1]\t\"H-0000000000000100\"[1]\t# \"h0\" lid 1 4xEDR\n"
                         "[2]\t\"H-0000000000000200\"[1]\t# \"h1\" lid 2\n"
                         "caguid=0x100\n"
                         "Ca\t1 \"H-0000000000000100\"\t# \"h0\"\n"
                         "[1]\t\"S-0000000000000010\"[1]\t# lid 1 lmc 0 \"leaf0\" lid 3 4xEDR\n"
                         "caguid=0x200\n"
                         "Ca\t1 \"H-0000000000000200\"\t# \"h1\"\n"
                         "[1]\t\"S-0000000000000010\"[2]\t# lid 2 lmc 0 \"leaf0\" lid 3\n";
  TopologySpec spec = MakeSpec(TopologyType::kIbnetdiscoverFile, "64x400G", 1, 1, DataRate::Gbps(400));
  spec.file = file.string();
  spec.link_latency = Time::FromNs(250);
  Result<Topology> t = BuildTopology(spec);
  std::filesystem::remove(file);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->hosts().size(), 2u);
  ASSERT_EQ(t->num_links(), 2u);
  const NodeId h0 = t->FindByName("h0"), h1 = t->FindByName("h1"), leaf = t->FindByName("leaf0");
  ASSERT_NE(leaf, kNoNode);
  for (const Port& p : t->ports()) {
    const NodeId host = p.node == leaf ? p.peer : p.node;
    EXPECT_EQ(p.rate.gbps(), host == h0 ? 100 : 400) << t->node(p.node).name << " -> " << t->node(p.peer).name;
    EXPECT_EQ(p.latency, Time::FromNs(250));
  }
  EXPECT_NE(h1, kNoNode);
}

TEST(TopologyBuilder, TypeNamesRoundTrip) {
  for (TopologyType type : {TopologyType::kLeafSpine, TopologyType::kFatTree, TopologyType::kRailOptimized,
                            TopologyType::kHpccFile, TopologyType::kLingjunFile, TopologyType::kIbnetdiscoverFile}) {
    Result<TopologyType> parsed = ParseTopologyType(TopologyTypeName(type));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, type);
  }
  EXPECT_EQ(TopologyTypeName(TopologyType::kRailOptimized), std::string("rail_optimized"));
  Result<TopologyType> bad = ParseTopologyType("torus");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("leaf_spine, fat_tree, rail_optimized, hpcc, lingjun, ibnetdiscover"));
}

}  // namespace
}  // namespace aifabric
