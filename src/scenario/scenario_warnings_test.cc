// The traps ScenarioWarnings names, one test each, and none for a plain
// scenario.
#include "scenario/scenario_warnings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// A 4-server RoCE leaf-spine at 400G with the 64x400G catalog switch
// (113 MB), PFC, ECN and DCQCN by default, plus `fabric_extra` under
// fabric: and `tail` after it.
Scenario LoadWithFabric(const std::string& fabric_extra, const std::string& tail = "",
              const std::string& switch_spec = "64x400G") {
  const std::string text = "name: traps\ncluster: {servers: 4, gpus_per_server: 1, nic: {rate: 400Gbps}}\n"
                           "fabric:\n  kind: roce\n  topology: {type: leaf_spine, hosts_per_leaf: 2}\n"
                           "  switch: " + switch_spec + "\n" +
                           fabric_extra + "workload:\n  - permutation: {size: 1MiB}\n" + tail;
  Result<Scenario> s = LoadScenarioText(text, "traps.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().message);
  return s.ok() ? std::move(s).value() : Scenario{};
}

std::vector<ScenarioTrap> Traps(const std::vector<ScenarioWarning>& warnings) {
  std::vector<ScenarioTrap> traps;
  for (const ScenarioWarning& w : warnings) traps.push_back(w.trap);
  return traps;
}

TEST(ScenarioWarnings, APlainScenarioHasNone) {
  EXPECT_TRUE(ScenarioWarnings(LoadWithFabric("")).empty());
  // Spraying with selective repeat, as the docs advise, is fine.
  EXPECT_TRUE(ScenarioWarnings(LoadWithFabric("  load_balancing: spray\n  transport: {recovery: selective_repeat}\n")).empty());
}

TEST(ScenarioWarnings, SprayingOrAdaptiveRoutingWithGoBackN) {
  for (const char* mode : {"spray", "adaptive"}) {
    const std::vector<ScenarioWarning> w = ScenarioWarnings(LoadWithFabric(std::string("  load_balancing: ") + mode + "\n"));
    ASSERT_EQ(Traps(w), std::vector<ScenarioTrap>{ScenarioTrap::kReorderingWithGoBackN}) << mode;
    EXPECT_EQ(w[0].field, "fabric.transport.recovery");
    EXPECT_NE(w[0].message.find("set fabric.transport.recovery: selective_repeat"), std::string::npos);
    EXPECT_NE(w[0].message.find(mode), std::string::npos);
  }
  // Flowlets reorder only across idle gaps: no warning.
  EXPECT_TRUE(ScenarioWarnings(LoadWithFabric("  load_balancing: flowlet\n")).empty());
}

TEST(ScenarioWarnings, ALossyClassOnAPriorityPfcProtects) {
  // Class bulk is lossless on priority 3; class scavenger says lossless:
  // false but shares priority 3, so PFC pauses it as well.
  const Scenario s = LoadWithFabric(
      "  qos:\n    classes:\n"
      "      - {name: bulk, priority: 3, lossless: true}\n"
      "      - {name: scavenger, priority: 3, lossless: false}\n");
  const std::vector<ScenarioWarning> w = ScenarioWarnings(s);
  ASSERT_EQ(Traps(w), std::vector<ScenarioTrap>{ScenarioTrap::kLossyClassOnLosslessPriority});
  EXPECT_EQ(w[0].field, "fabric.qos.classes.1.lossless");
  EXPECT_NE(w[0].message.find("class 'scavenger' is lossless: false, but PFC protects its priority 3 (class 'bulk'"),
            std::string::npos)
      << w[0].message;
  EXPECT_NE(w[0].message.find("give the class a priority of its own"), std::string::npos);
  // fabric.roce.pfc.lossless wins over a class's lossless: true.
  const std::vector<ScenarioWarning> left_out = ScenarioWarnings(
      LoadWithFabric("  qos:\n    classes:\n      - {name: bulk, priority: 2, lossless: true}\n"
           "  roce: {pfc: {lossless: [3]}}\n"));
  ASSERT_EQ(Traps(left_out), std::vector<ScenarioTrap>{ScenarioTrap::kLossyClassOnLosslessPriority});
  EXPECT_NE(left_out[0].message.find("fabric.roce.pfc.lossless leaves priority 2 out"), std::string::npos);
}

TEST(ScenarioWarnings, EcnThresholdsAboveTheBuffer) {
  // A 40 MB switch: kmax 60 MB cannot be reached, and kmin 41 MB never
  // marks.
  const std::string sw = "{radix: 64, port_rate: 400Gbps, latency: 450ns, buffer: 40MB}";
  const std::vector<ScenarioWarning> w = ScenarioWarnings(LoadWithFabric("  roce: {ecn: {kmin: 41MB, kmax: 60MB}}\n", "", sw));
  ASSERT_EQ(Traps(w), std::vector<ScenarioTrap>{ScenarioTrap::kEcnAboveBuffer});
  EXPECT_NE(w[0].message.find("kmin 41000000 B / kmax 60000000 B"), std::string::npos) << w[0].message;
  EXPECT_NE(w[0].message.find("no queue can reach kmin"), std::string::npos);
  // 40 MB / 16 and / 4.
  EXPECT_NE(w[0].message.find("(e.g. 2500000 B and 10000000 B)"), std::string::npos);
  // kmax alone above: marking never reaches pmax.
  const std::vector<ScenarioWarning> kmax = ScenarioWarnings(LoadWithFabric("  roce: {ecn: {kmin: 1MB, kmax: 50MB}}\n", "", sw));
  ASSERT_EQ(kmax.size(), 1u);
  EXPECT_NE(kmax[0].message.find("no queue can reach kmax"), std::string::npos);
  // The defaults at 400G (800 KB / 3.2 MB) sit below the 40 MB buffer.
  EXPECT_TRUE(ScenarioWarnings(LoadWithFabric("", "", sw)).empty());
}

TEST(ScenarioWarnings, UntilShorterThanTheWorkloadsIdealTime) {
  // h0 receives 4 x 1 MB from t = 10 us over one 400G link: it cannot end
  // before 10 us + 4e6 x 8 / 400e9 s = 10 us + 80 us = 90 us.
  Topology t;
  const NodeId h0 = t.AddHost("h0");
  SwitchSpec spec;
  spec.radix = 8;
  spec.port_rate = DataRate::Gbps(400);
  spec.buffer_bytes = 64 << 20;
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
  t.AddLink(h0, sw, DataRate::Gbps(400), Time::FromNs(500));
  std::vector<FlowSpec> flows;
  for (int i = 0; i < 4; ++i) {
    std::string name = "s";
    name += std::to_string(i);
    const NodeId h = t.AddHost(name);
    t.AddLink(h, sw, DataRate::Gbps(400), Time::FromNs(500));
    flows.push_back(FlowSpec{static_cast<FlowId>(i), h, h0, 1'000'000, Time::FromUs(10)});
  }
  Scenario s = LoadWithFabric("", "simulation: {until: 89us}\n");
  std::vector<ScenarioWarning> w = ScenarioWarnings(s, &t, flows);
  ASSERT_EQ(Traps(w), std::vector<ScenarioTrap>{ScenarioTrap::kUntilBeforeIdeal});
  EXPECT_EQ(w[0].field, "simulation.until");
  EXPECT_NE(w[0].message.find("89.0 us ends before the workload can: h0 receives 4000000 B at 400 Gb/s"),
            std::string::npos)
      << w[0].message;
  EXPECT_NE(w[0].message.find("at least 90.0 us"), std::string::npos);
  s.until = Time::FromUs(90);
  EXPECT_TRUE(ScenarioWarnings(s, &t, flows).empty());
  // Without the built flows (a job workload) nothing is checked.
  s.until = Time::FromUs(1);
  EXPECT_TRUE(ScenarioWarnings(s).empty());
}

TEST(ScenarioWarnings, NamesForSummaryJson) {
  EXPECT_STREQ(ScenarioTrapName(ScenarioTrap::kReorderingWithGoBackN), "reordering_with_go_back_n");
  EXPECT_STREQ(ScenarioTrapName(ScenarioTrap::kLossyClassOnLosslessPriority), "lossy_class_on_lossless_priority");
  EXPECT_STREQ(ScenarioTrapName(ScenarioTrap::kEcnAboveBuffer), "ecn_above_buffer");
  EXPECT_STREQ(ScenarioTrapName(ScenarioTrap::kUntilBeforeIdeal), "until_before_ideal");
}

}  // namespace
}  // namespace aifabric
