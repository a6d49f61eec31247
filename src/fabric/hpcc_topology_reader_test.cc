#include "fabric/hpcc_topology_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fabric/routing_table.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;

// A temp dir holding topology.txt, removed at the end of the test.
class HpccFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(::testing::TempDir()) /
           ("aifabric_hpcc_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string Write(const std::string& text) {
    const std::string path = (dir_ / "topology.txt").string();
    std::ofstream(path) << text;
    return path;
  }
  std::string Err(const std::string& text) {
    Result<Topology> t = ReadHpccTopologyFile(Write(text), fabric_testing::NamedSwitch("sw"));
    return t.ok() ? "(parsed)" : t.error().message;
  }

  std::filesystem::path dir_;
};

// Hosts 0-3; switches 4, 5 (ToRs: one hop from a host) and 6 (two hops).
// The error-rate column is present on some lines and absent on one.
constexpr char kSmall[] =
    "7 3 6\n"
    "4 5 6\n"
    "0 4 100Gbps 0.001ms 0\n"
    "1 4 100Gbps 0.001ms 0\n"
    "2 5 100Gbps 0.001ms\n"
    "3 5 100Gbps 0.001ms 0\n"
    "4 6 400Gbps 500ns 0\n"
    "5 6 400Gbps 500ns 0\n";

TEST_F(HpccFile, ReadsSmallFile) {
  Result<Topology> t = ReadHpccTopologyFile(Write(kSmall), fabric_testing::NamedSwitch("sw"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->num_nodes(), 7u);
  EXPECT_EQ(t->num_links(), 6u);
  EXPECT_EQ(t->hosts(), (std::vector<NodeId>{0, 1, 2, 3}));
  EXPECT_EQ(t->node(4).kind, NodeKind::kSwitch);
  EXPECT_EQ(t->node(4).tier, 1);
  EXPECT_EQ(t->node(6).tier, 2);
  EXPECT_EQ(t->node(6).name, "sw6");
  EXPECT_EQ(t->node(2).name, "h2");
  EXPECT_EQ(t->node(6).switch_spec, 0);
  EXPECT_EQ(t->switch_specs()[0].name, "sw");
  // 0.001ms = 1us; each link keeps its own rate.
  EXPECT_EQ(t->port(0).latency, Time::FromUs(1));
  EXPECT_EQ(t->port(0).rate, DataRate::Gbps(100));
  EXPECT_EQ(t->port(8).rate, DataRate::Gbps(400));
  EXPECT_EQ(t->port(8).latency, Time::FromNs(500));
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  EXPECT_EQ(rt.Distance(0, 3), 4);  // 0-4-6-5-3
}

TEST_F(HpccFile, SwitchIdsBeforeHostsAndRoundTrip) {
  // Node 0 is the switch: hosts 1, 2 keep their ids, host_index 0 and 1.
  Result<Topology> t = ParseHpccTopology("3 1 2\n0\n1 0 100Gbps 1us 0\n2 0 100Gbps 1us 0\n", "x", SwitchSpec{});
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->hosts(), (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(t->host_index(2), 1);
  EXPECT_EQ(t->node(0).tier, 1);
  // Writing and reading back gives the same graph.
  const std::string written = WriteHpccTopology(*t);
  EXPECT_EQ(written, "3 1 2\n0\n1 0 100Gbps 1000ns 0\n2 0 100Gbps 1000ns 0\n");
  Result<Topology> again = ParseHpccTopology(written, "y", SwitchSpec{});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->num_links(), 2u);
}

// Counts the file cannot back: a node with no link is refused (so a few
// bytes declaring 10^7 nodes build nothing), and 10^8 declared links in a
// one-line file end in the missing-links error, not a reservation of
// gigabytes.
TEST_F(HpccFile, CountsTheFileCannotBackAreRefused) {
  Result<Topology> lonely = ParseHpccTopology("3 1 1\n0\n1 0 100Gbps 1us 0\n", "t.txt", SwitchSpec{});
  ASSERT_FALSE(lonely.ok());
  EXPECT_EQ(lonely.error().message, "t.txt:1: node 2 of the 3 declared has no link");
  Result<Topology> many = ParseHpccTopology("10000000 0 0\n\n", "t.txt", SwitchSpec{});
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error().message, "t.txt:1: node 0 of the 10000000 declared has no link");
  Result<Topology> links = ParseHpccTopology("2 1 99999999\n0\n", "t.txt", SwitchSpec{});
  ASSERT_FALSE(links.ok());
  EXPECT_EQ(links.error().message, "t.txt:2: the file ends after 0 links, but line 1 declares 99999999");
}

TEST_F(HpccFile, ErrorsNameFileAndLine) {
  EXPECT_THAT(Err("7 3\n"), HasSubstr("topology.txt:1: expected 'nodes switches links' (three integers)"));
  EXPECT_THAT(Err(""), HasSubstr("topology.txt:1: expected 'nodes switches links'"));
  EXPECT_THAT(Err("-3 0 0\n"), HasSubstr("topology.txt:1: counts must be >= 0"));
  EXPECT_THAT(Err("3 4 0\n"), HasSubstr("topology.txt:1: 4 switches declared, but only 3 nodes"));
  EXPECT_THAT(Err("3 1 0\n"), HasSubstr("topology.txt:2: expected 1 switch ids, got end of file"));
  EXPECT_THAT(Err("3 2 0\n1\n"), HasSubstr("topology.txt:2: expected 2 switch ids (line 1), got 1"));
  EXPECT_THAT(Err("3 2 0\n1 1\n"), HasSubstr("topology.txt:2: duplicate switch id 1"));
  EXPECT_THAT(Err("3 1 0\n5\n"), HasSubstr("topology.txt:2: switch node 5, but the file declares only 3 nodes"));
  EXPECT_THAT(Err("3 1 1\n0\n0 1 100Gbps\n"), HasSubstr("topology.txt:3: expected 'src dst rate delay [error_rate]' (4 or 5 fields), got 3"));
  EXPECT_THAT(Err("3 1 1\n0\n0 7 100Gbps 1us\n"), HasSubstr("topology.txt:3: link to node 7, but the file declares only 3 nodes"));
  EXPECT_THAT(Err("3 1 1\n0\nx 1 100Gbps 1us\n"), HasSubstr("topology.txt:3: expected a node id for the link from, got 'x'"));
  EXPECT_THAT(Err("3 1 1\n0\n1 1 100Gbps 1us\n"), HasSubstr("topology.txt:3: link from node 1 to itself"));
  EXPECT_THAT(Err("3 1 1\n0\n0 1 fast 1us\n"), HasSubstr("topology.txt:3: link rate: expected a rate"));
  EXPECT_THAT(Err("3 1 1\n0\n0 1 100Gbps soon\n"), HasSubstr("topology.txt:3: link delay: expected a time"));
  EXPECT_THAT(Err("3 1 1\n0\n0 1 100Gbps 1us 7\n"), HasSubstr("topology.txt:3: expected an error rate between 0 and 1"));
  EXPECT_THAT(Err("3 1 2\n0\n0 1 100Gbps 1us 0\n"), HasSubstr("topology.txt:3: the file ends after 1 links, but line 1 declares 2"));
  EXPECT_THAT(Err("3 1 1\n0\n0 1 100Gbps 1us 0\n\n0 2 100Gbps 1us 0\n"),
              HasSubstr("topology.txt:5: more links than the 1 declared on line 1"));
  Result<Topology> missing = ReadHpccTopologyFile((dir_ / "nope.txt").string(), SwitchSpec{});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.error().message, HasSubstr("nope.txt: cannot open file"));
}

}  // namespace
}  // namespace aifabric
