#include "plan/cabling_plan.h"

#include <set>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>

#include "plan/plan_test_scenarios.h"

namespace aifabric {
namespace {

using plan_testing::Build;
using plan_testing::Load;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(CablingPlan, OneRowPerLinkSwitchFirstWithTheLengthOfItsLatency) {
  const Scenario s = Load(plan_testing::kRoceScenario);
  const BuiltFabric f = Build(s);
  std::vector<std::pair<DataRate, double>> asked;
  const std::string csv = CablingCsv(f.topology, FabricKind::kRoce, [&](DataRate rate, double length_m) {
    asked.emplace_back(rate, length_m);
    return std::string("X");
  });
  const std::vector<std::string> lines = Lines(csv);
  ASSERT_EQ(lines.at(0), "switch,port,peer,peer_port,cable_type,reach_m");
  // 4 host links + 2 leaves x 2 spines = 8 links, each once.
  ASSERT_EQ(lines.size(), 1u + 8u);
  EXPECT_EQ(f.topology.num_links(), 8u);
  std::set<std::string> unique(lines.begin() + 1, lines.end());
  EXPECT_EQ(unique.size(), 8u);
  // The host links name the switch end first and the NIC's port 1;
  // leaf-spine links the leaf (lower tier) first. 500 ns x 1.98e8 m/s = 99 m.
  EXPECT_EQ(lines[1], "leaf0,Ethernet0,h0,1,X,99.0");
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind("leaf", 0), 0u) << lines[i];
    EXPECT_NE(lines[i].find(",X,99.0"), std::string::npos) << lines[i];
  }
  EXPECT_NE(csv.find("leaf1,Ethernet24,spine1,Ethernet8,X,99.0"), std::string::npos) << csv;
  ASSERT_EQ(asked.size(), 8u);
  for (const auto& [rate, length] : asked) {
    EXPECT_EQ(rate, DataRate::Gbps(400));
    EXPECT_NEAR(length, 99.0, 1e-9);
  }
}

TEST(CablingPlan, LengthsRoundUpToTheDecimetreAndIbPortsAreNumbered) {
  // 123 ns x 1.98e8 m/s = 24.354 m -> 24.4.
  const Scenario s = Load(plan_testing::kIbScenario, {"fabric.link.latency=123ns"});
  const BuiltFabric f = Build(s);
  const std::string csv = CablingCsv(f.topology, FabricKind::kIb, DefaultCableType);
  EXPECT_NE(csv.find("leaf0,1,h0,1,400G-AOC,24.4\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("leaf0,3,spine0,1,400G-AOC,24.4\n"), std::string::npos) << csv;
}

TEST(CablingPlan, DefaultCableTypeByReach) {
  const DataRate r = DataRate::Gbps(400);
  EXPECT_EQ(DefaultCableType(r, 0.5), "400G-DAC");
  EXPECT_EQ(DefaultCableType(r, 3.0), "400G-DAC");
  EXPECT_EQ(DefaultCableType(r, 3.1), "400G-AOC");
  EXPECT_EQ(DefaultCableType(r, 30.0), "400G-AOC");
  EXPECT_EQ(DefaultCableType(r, 99.0), "400G-SR");
  EXPECT_EQ(DefaultCableType(r, 100.5), "400G-DR");
  EXPECT_EQ(DefaultCableType(r, 500.0), "400G-DR");
  EXPECT_EQ(DefaultCableType(r, 1999.0), "400G-FR");
  EXPECT_EQ(DefaultCableType(r, 9000.0), "400G-LR");
  EXPECT_EQ(DefaultCableType(r, 40000.0), "400G-ZR");
  EXPECT_EQ(DefaultCableType(DataRate::Gbps(800), 2.0), "800G-DAC");
  EXPECT_NEAR(CableLengthM(Time::FromNs(5)), 0.99, 1e-12);  // about 5.05 ns per metre
}

}  // namespace
}  // namespace aifabric
