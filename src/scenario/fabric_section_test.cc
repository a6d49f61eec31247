// fabric.switch against fabric.kind: an InfiniBand switch cannot run RoCEv2;
// InfiniBand on an Ethernet switch loads with a warning that names the
// InfiniBand switch of the same port rate.
#include "scenario/fabric_section.h"

#include <gtest/gtest.h>

#include <string>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// gtest without gmock: "text contains part", with the text on failure.
::testing::AssertionResult Contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << part << "' not in: " << text;
}

// Loads `text` as s.yaml, with what the loader printed on stderr.
struct Loaded {
  Result<Scenario> scenario;
  std::string err;
};
Loaded LoadCapturing(const std::string& text) {
  ::testing::internal::CaptureStderr();
  Result<Scenario> s = LoadScenarioText(text, "s.yaml", ".", {});
  return Loaded{std::move(s), ::testing::internal::GetCapturedStderr()};
}

TEST(FabricSwitchFamily, InfinibandSwitchLoadsUnderIbQuietly) {
  Loaded l = LoadCapturing("fabric:\n  kind: ib\n  switch: QM9700\n");
  ASSERT_TRUE(l.scenario.ok()) << l.scenario.error().message;
  EXPECT_EQ(l.scenario->topology.switch_spec.family, SwitchFamily::kInfiniband);
  EXPECT_EQ(l.err, "");
}

TEST(FabricSwitchFamily, RoceOnAnInfinibandSwitchIsAnError) {
  Loaded l = LoadCapturing("fabric:\n  kind: roce\n  switch: QM9700\n");
  ASSERT_FALSE(l.scenario.ok());
  EXPECT_TRUE(Contains(l.scenario.error().message,
                       "s.yaml:3:11: fabric.switch: 'QM9700' is an InfiniBand switch and cannot run RoCEv2 "
                       "(fabric.kind: roce)"));
  EXPECT_TRUE(Contains(l.scenario.error().message, "64x800G"));  // an Ethernet switch to use instead
  // RoCE is the default kind.
  EXPECT_FALSE(LoadCapturing("fabric:\n  switch: Q3400\n").scenario.ok());
}

TEST(FabricSwitchFamily, IbOnAnEthernetSwitchWarnsWithTheSwitchToUse) {
  Loaded l = LoadCapturing("fabric:\n  kind: ib\n  switch: 64x400G\n");
  ASSERT_TRUE(l.scenario.ok()) << l.scenario.error().message;
  EXPECT_TRUE(Contains(l.err, "aifabric: warning: s.yaml:3: fabric.switch: '64x400G' is an Ethernet switch but "
                              "fabric.kind is ib"));
  // The catalog's InfiniBand switches at 400G, and not the 800G one.
  EXPECT_TRUE(Contains(l.err, "use an InfiniBand switch at 400Gbps: QM9700, QM9790"));
  EXPECT_FALSE(Contains(l.err, "Q3400"));
  // At 800G: the Quantum-X800.
  EXPECT_TRUE(Contains(LoadCapturing("fabric:\n  kind: ib\n  switch: 64x800G\n").err, "at 800Gbps: Q3400"));
  // No InfiniBand switch at 100G: it says so and lists those there are.
  EXPECT_TRUE(Contains(LoadCapturing("fabric:\n  kind: ib\n  switch: 32x100G\n").err,
                       "no InfiniBand switch at 100Gbps; its InfiniBand switches: QM9700 (400Gbps)"));
  // The default switch is an Ethernet one too.
  EXPECT_TRUE(Contains(LoadCapturing("fabric:\n  kind: ib\n").err,
                       "the default '128x400G' (fabric.switch not given) is an Ethernet switch"));
  // RoCE on Ethernet: nothing to say.
  EXPECT_EQ(LoadCapturing("fabric:\n  switch: 64x400G\n").err, "");
}

TEST(FabricSwitchFamily, InlineSwitchTakesTheFabricsFamilyUnlessGiven) {
  const char* ib_inline = "fabric:\n  kind: ib\n  switch: {radix: 8, port_rate: 100Gbps, latency: 100ns, buffer: 1MB}\n";
  Loaded l = LoadCapturing(ib_inline);
  ASSERT_TRUE(l.scenario.ok()) << l.scenario.error().message;
  EXPECT_EQ(l.scenario->topology.switch_spec.family, SwitchFamily::kInfiniband);
  EXPECT_EQ(l.err, "");
  Loaded roce = LoadCapturing("fabric:\n  switch: {radix: 8, port_rate: 100Gbps, latency: 100ns, buffer: 1MB}\n");
  ASSERT_TRUE(roce.scenario.ok()) << roce.scenario.error().message;
  EXPECT_EQ(roce.scenario->topology.switch_spec.family, SwitchFamily::kEthernet);
  Loaded wrong = LoadCapturing(
      "fabric:\n  switch: {family: infiniband, radix: 8, port_rate: 100Gbps, latency: 100ns, buffer: 1MB}\n");
  ASSERT_FALSE(wrong.scenario.ok());
  EXPECT_TRUE(Contains(wrong.scenario.error().message, "cannot run RoCEv2"));
}

TEST(FabricTopologyHoming, DualTorAndPlanesAreRead) {
  Loaded l = LoadCapturing("fabric:\n  topology: {type: leaf_spine, dual_tor: true, planes: 2}\n");
  ASSERT_TRUE(l.scenario.ok()) << l.scenario.error().message;
  EXPECT_TRUE(l.scenario->topology.dual_tor);
  EXPECT_EQ(l.scenario->topology.planes, 2);
  Loaded plain = LoadCapturing("fabric:\n  topology: {type: fat_tree}\n");
  ASSERT_TRUE(plain.scenario.ok()) << plain.scenario.error().message;
  EXPECT_FALSE(plain.scenario->topology.dual_tor);
  EXPECT_EQ(plain.scenario->topology.planes, 1);
}

TEST(FabricTopologyHoming, BadValuesNameTheField) {
  Loaded zero = LoadCapturing("fabric:\n  topology: {planes: 0}\n");
  ASSERT_FALSE(zero.scenario.ok());
  EXPECT_TRUE(Contains(zero.scenario.error().message, "fabric.topology.planes"));
  Loaded word = LoadCapturing("fabric:\n  topology: {dual_tor: maybe}\n");
  ASSERT_FALSE(word.scenario.ok());
  EXPECT_TRUE(Contains(word.scenario.error().message, "fabric.topology.dual_tor"));
  // An InfiniBand HCA port is one LID the subnet manager routes on its
  // own: no bond across two switches, so no dual-ToR; planes are subnets.
  Loaded ib = LoadCapturing("fabric:\n  kind: ib\n  switch: QM9700\n  topology: {dual_tor: true}\n");
  ASSERT_FALSE(ib.scenario.ok());
  EXPECT_TRUE(Contains(ib.scenario.error().message, "fabric.topology.dual_tor: only with kind: roce"));
  EXPECT_TRUE(Contains(ib.scenario.error().message, "no MC-LAG or bond hashing"));
  EXPECT_TRUE(Contains(ib.scenario.error().message, "use planes: N"));
  Loaded planes = LoadCapturing("fabric:\n  kind: ib\n  switch: QM9700\n  topology: {planes: 2}\n");
  ASSERT_TRUE(planes.scenario.ok()) << planes.scenario.error().message;
  EXPECT_EQ(planes.scenario->topology.planes, 2);
  // A topology file lists its own links.
  Loaded file = LoadCapturing("fabric:\n  topology: {format: hpcc, file: t.txt, dual_tor: true}\n");
  ASSERT_FALSE(file.scenario.ok());
  EXPECT_TRUE(Contains(file.scenario.error().message, "dual_tor"));
}

}  // namespace
}  // namespace aifabric
