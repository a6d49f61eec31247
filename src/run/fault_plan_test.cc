// The faults: list resolved against a built topology: names become links,
// defaults by kind, and each error naming its field.
#include "run/fault_plan.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "run/fabric_setup.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

Scenario LoadWithFaults(const std::string& faults, const std::string& model = "packet") {
  Result<Scenario> s = LoadScenarioText(
      "cluster: {servers: 4, gpus_per_server: 8, gpu: H100, nic: {rate: 400Gbps, per_gpu: 1}}\n"
      "fabric: {kind: roce, topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}, switch: 128x400G}\n"
      "simulation: {model: " + model + "}\n" + faults,
      "f.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

std::string ErrorOf(const Scenario& s) {
  Result<BuiltFabric> f = BuildFabric(s);
  EXPECT_FALSE(f.ok());
  return f.ok() ? "" : f.error().message;
}

TEST(ResolveFaults, NamesBecomeLinksWithTheKindsDetection) {
  const Scenario s = LoadWithFaults(
      "faults:\n"
      "  - {kind: link_down, link: [spine1, leaf0], at: 50us}\n"
      "  - {kind: gray_link, link: [leaf1, spine0], at: 0, loss_rate: 0.01, corruption_rate: 0.02}\n"
      "  - {kind: switch_down, node: spine1, at: 1ms, detection: 20us}\n");
  Result<BuiltFabric> fabric = BuildFabric(s);
  ASSERT_TRUE(fabric.ok()) << fabric.error().message;
  const Topology& t = fabric->topology;
  Result<std::vector<LinkFault>> faults = ResolveFaults(s, t);
  ASSERT_TRUE(faults.ok()) << faults.error().message;
  ASSERT_EQ(faults->size(), 3u);
  const LinkFault& down = (*faults)[0];
  ASSERT_EQ(down.links.size(), 1u);
  const Port& p = t.port(static_cast<PortId>(2 * down.links[0]));
  EXPECT_EQ((std::set<std::string>{t.node(p.node).name, t.node(p.peer).name}),
            (std::set<std::string>{"leaf0", "spine1"}));
  EXPECT_EQ(down.detection, kPhyLinkDownDetection);
  EXPECT_EQ(down.name, "spine1-leaf0");
  EXPECT_TRUE((*faults)[1].detection.IsInfinite());  // gray: silent by default
  EXPECT_EQ((*faults)[1].loss_rate, 0.01);
  EXPECT_EQ((*faults)[1].corruption_rate, 0.02);
  // spine1 has one link to each of the two leaves.
  EXPECT_EQ((*faults)[2].links.size(), t.node(t.FindByName("spine1")).ports.size());
  EXPECT_EQ((*faults)[2].detection, Time::FromUs(20));
}

TEST(ResolveFaults, ErrorsNameTheField) {
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: link_down, link: [leaf0, spine9], at: 0}]\n")),
            "faults.0.link: no node named 'spine9' in the topology");
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: link_down, link: [leaf0, leaf1], at: 0}]\n")),
            "faults.0.link: 'leaf0' and 'leaf1' share no link");
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: switch_down, node: h0, at: 0}]\n")),
            "faults.0.node: 'h0' is a host; switch_down expects a switch");
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: link_down, link: [leaf0, spine0], at: 0}]\n", "analytic")),
            "faults.0: the analytic model has no paths to fail or reroute; faults need simulation.model: flow or "
            "packet");
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: gray_link, link: [leaf0, spine0], at: 0, rate: 400Gbps}]\n", "flow")),
            "faults.0.rate: 400Gbps is not below the link's own 400Gbps; a degraded rate is lower");
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: gray_link, link: [leaf0, spine0], at: 0, loss_rate: 0.01}]\n", "flow")),
            "faults.0.loss_rate: a fluid loses no packets; a gray link's silent losses need simulation.model: "
            "packet (at flow level give its degraded rate: rate)");
  EXPECT_EQ(
      ErrorOf(LoadWithFaults("faults: [{kind: gray_link, link: [leaf0, spine0], at: 0, corruption_rate: 0.01}]\n", "flow")),
      "faults.0.corruption_rate: a fluid loses no packets; a gray link's corrupted frames need simulation.model: "
      "packet (at flow level give its degraded rate: rate)");
  // With a degraded rate beside it, the loss is still refused, by its field.
  EXPECT_EQ(ErrorOf(LoadWithFaults("faults: [{kind: gray_link, link: [leaf0, spine0], at: 0, rate: 100Gbps, "
                         "corruption_rate: 0.01}]\n",
                         "flow")),
            "faults.0.corruption_rate: a fluid loses no packets; a gray link's corrupted frames need "
            "simulation.model: packet (at flow level give its degraded rate: rate)");
}

}  // namespace
}  // namespace aifabric
