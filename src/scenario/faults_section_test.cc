// The scenario's faults: list: each kind's fields read, the defaults left
// to the fabric (detection unset), --set over the list, and each error
// with its line and field.
#include "scenario/faults_section.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

Result<Scenario> LoadFaults(const std::string& faults, const std::vector<std::string>& sets = {}) {
  const std::string text =
      "name: f\n"                                                         // 1
      "cluster: {servers: 4, gpus_per_server: 8, gpu: H100}\n"            // 2
      "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 16}}\n" +    // 3
      faults;
  return LoadScenarioText(text, "f.yaml", ".", sets);
}

std::string FaultsError(const std::string& faults, const std::vector<std::string>& sets = {}) {
  Result<Scenario> r = LoadFaults(faults, sets);
  EXPECT_FALSE(r.ok()) << "expected an error for:\n" << faults;
  return r.ok() ? "" : r.error().message;
}

TEST(FaultsSection, EveryKindReadsItsFields) {
  Result<Scenario> s = LoadFaults(
      "faults:\n"
      "  - {kind: link_down, link: [leaf0, spine1], at: 50us, until: 2ms}\n"
      "  - {kind: link_flap, link: [leaf1, spine0], at: 1ms, until: 2ms, period: 200us, down_for: 50us, detection: 10us}\n"
      "  - {kind: gray_link, link: [host3, leaf0], at: 0, loss_rate: 0.01, detection: bfd}\n"
      "  - {kind: switch_down, node: spine1, at: 3ms, detection: none}\n"
      "  - {kind: nic_port_down, node: host5, at: 1ms}\n"
      "  - {kind: straggler, gpu: 7, at: 0, factor: 0.5}\n"
      "  - {kind: gray_link, link: [host4, leaf0], at: 0, corruption_rate: 0.02}\n"
      "  - {kind: gray_link, link: [host5, leaf0], at: 0, loss_rate: 0.001, corruption_rate: 0.003, rate: 100Gbps}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->faults.size(), 8u);
  const FaultSpec& down = s->faults[0];
  EXPECT_EQ(down.kind, FaultKind::kLinkDown);
  EXPECT_EQ(down.a, "leaf0");
  EXPECT_EQ(down.b, "spine1");
  EXPECT_EQ(down.at, Time::FromUs(50));
  EXPECT_EQ(down.until, Time::FromMs(2));
  EXPECT_FALSE(down.detection.has_value());  // the fabric's default
  EXPECT_EQ(down.path, "faults.0");
  const FaultSpec& flap = s->faults[1];
  EXPECT_EQ(flap.period, Time::FromUs(200));
  EXPECT_EQ(flap.down_for, Time::FromUs(50));
  EXPECT_EQ(flap.detection, Time::FromUs(10));
  EXPECT_EQ(s->faults[2].loss_rate, 0.01);  // silent
  EXPECT_EQ(s->faults[2].corruption_rate, 0.0);
  EXPECT_EQ(s->faults[2].detection, kBfdDetection);
  EXPECT_EQ(s->faults[2].until, Time::Infinite());
  EXPECT_EQ(s->faults[3].node, "spine1");
  EXPECT_EQ(s->faults[3].detection, Time::Infinite());
  EXPECT_EQ(s->faults[4].kind, FaultKind::kNicPortDown);
  EXPECT_EQ(s->faults[5].gpu, 7);
  EXPECT_EQ(s->faults[5].factor, 0.5);
  // The three gray knobs apart and together.
  EXPECT_EQ(s->faults[6].loss_rate, 0.0);
  EXPECT_EQ(s->faults[6].corruption_rate, 0.02);
  EXPECT_EQ(s->faults[6].rate.bps(), 0);
  EXPECT_EQ(s->faults[7].loss_rate, 0.001);
  EXPECT_EQ(s->faults[7].corruption_rate, 0.003);
  EXPECT_EQ(s->faults[7].rate, DataRate::Gbps(100));
}

TEST(FaultsSection, SetReplacesTheListOrAField) {
  Result<Scenario> s = LoadFaults("faults: [{kind: link_down, link: [leaf0, spine0], at: 10us}]\n",
                            {"faults.0.at=20us"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->faults[0].at, Time::FromUs(20));
  Result<Scenario> t = LoadFaults("", {"faults=[{kind: gray_link, link: [leaf0, spine0], at: 0, loss_rate: 0.001}]"});
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->faults.size(), 1u);
  EXPECT_EQ(t->faults[0].kind, FaultKind::kGrayLink);
}

TEST(FaultsSection, ErrorsNameTheLineAndField) {
  EXPECT_EQ(FaultsError("faults: {kind: link_down}\n"),
            "f.yaml:4:9: faults: expected a list of {kind, at, until, ...}, got a map");
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_dawn, link: [a, b], at: 0}\n").find("faults.0.kind: expected one of"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_down, at: 0}\n").find("faults.0.link: missing"), std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_down, link: [a], at: 0}\n").find("faults.0.link: expected two node names"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_down, link: [a, b]}\n").find("faults.0.at: missing"), std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_flap, link: [a, b], at: 0, period: 10us, down_for: 20us, until: 1ms}\n")
                .find("faults.0.down_for: expected a time > 0 and below `period`"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_flap, link: [a, b], at: 0, period: 10us, down_for: 2us}\n")
                .find("faults.0.until: missing"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: gray_link, link: [a, b], at: 0, loss_rate: 2}\n")
                .find("faults.0.loss_rate: expected a probability in [0, 1]"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: gray_link, link: [a, b], at: 0, loss_rate: -0.1}\n")
                .find("faults.0.loss_rate: expected a probability in [0, 1]"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: gray_link, link: [a, b], at: 0, corruption_rate: 1.5}\n")
                .find("faults.0.corruption_rate: expected a probability in [0, 1]"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: gray_link, link: [a, b], at: 0, loss_rate: 0.01, corruption_rate: x}\n")
                .find("faults.0.corruption_rate:"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: gray_link, link: [a, b], at: 0}\n")
                .find("faults.0.loss_rate: missing; a gray link takes loss_rate (silent loss, e.g. 0.01), "
                      "corruption_rate"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_down, link: [a, b], at: 0, corruption_rate: 0.1}\n")
                .find("corruption_rate"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: link_down, link: [a, b], at: 2ms, until: 1ms}\n")
                .find("faults.0.until: expected a time after `at`"),
            std::string::npos);
  EXPECT_NE(FaultsError("faults:\n  - {kind: switch_down, node: s, at: 0, loss_rate: 0.1}\n").find("loss_rate"),
            std::string::npos);
}

}  // namespace
}  // namespace aifabric
