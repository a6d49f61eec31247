#include "fabric/dot_writer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"
#include "fabric/leaf_spine_builder.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::MakeSpec;

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// 128 hosts, 2 leaves, 16 spines with 4 parallel links per leaf-spine pair:
// 128 host edges + 2 x 16 merged edges = 160 edges, each merged one "4 x".
TEST(DotWriter, RanksAndMergedEdges) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", 16, 8, DataRate::Gbps(400));
  spec.spines = 16;
  Result<Topology> t = BuildLeafSpine(spec);
  ASSERT_TRUE(t.ok());
  const std::string dot = ToDot(*t);
  EXPECT_THAT(dot, HasSubstr("graph fabric {"));
  EXPECT_THAT(dot, HasSubstr("rankdir=BT;"));
  EXPECT_EQ(Count(dot, "rank=same;"), 3);  // hosts, leaves, spines
  EXPECT_EQ(Count(dot, " -- "), 160);
  EXPECT_EQ(Count(dot, "[label=\"4 x 400Gbps\"]"), 32);
  EXPECT_EQ(Count(dot, "[label=\"400Gbps\"]"), 128);
  // Host 0 sits under leaf0 (node 128): edges run from the lower tier up.
  EXPECT_THAT(dot, HasSubstr("n0 -- n128 [label=\"400Gbps\"];"));
  EXPECT_THAT(dot, HasSubstr("n128 [label=\"leaf0\", shape=box];"));
  EXPECT_THAT(dot, HasSubstr("n0 [label=\"h0\", shape=ellipse];"));
}

TEST(DotWriter, EscapesNames) {
  Topology t;
  t.AddHost("a\"b");
  t.AddHost("c");
  t.AddLink(1, 0, DataRate::Gbps(100), Time::Zero());
  const std::string dot = ToDot(t);
  EXPECT_THAT(dot, HasSubstr("n0 [label=\"a\\\"b\", shape=ellipse];"));
  EXPECT_THAT(dot, HasSubstr("n0 -- n1 [label=\"100Gbps\"];"));
}

}  // namespace
}  // namespace aifabric
