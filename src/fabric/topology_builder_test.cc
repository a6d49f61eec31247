#include "fabric/topology_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"

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
  spec.file = AIFABRIC_SOURCE_DIR "/data/clusters/lingjun2023_topo.csv";
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

TEST(TopologyBuilder, TypeNamesRoundTrip) {
  for (TopologyType type : {TopologyType::kLeafSpine, TopologyType::kFatTree, TopologyType::kRailOptimized,
                            TopologyType::kHpccFile, TopologyType::kLingjunFile}) {
    Result<TopologyType> parsed = ParseTopologyType(TopologyTypeName(type));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, type);
  }
  EXPECT_EQ(TopologyTypeName(TopologyType::kRailOptimized), std::string("rail_optimized"));
  Result<TopologyType> bad = ParseTopologyType("torus");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("leaf_spine, fat_tree, rail_optimized, hpcc, lingjun"));
}

}  // namespace
}  // namespace aifabric
