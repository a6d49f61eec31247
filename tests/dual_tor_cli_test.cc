// Dual-ToR end to end: examples/faults/dual_tor_link_loss.yaml validates
// with its dual homing shown, runs, fails h3's port 0 over and finishes
// every flow; a NIC port that does not exist is a clear error (exit 2).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;

const std::string kExample = std::string(AIFABRIC_SOURCE_DIR) + "/examples/faults/dual_tor_link_loss.yaml";

TEST(DualTorCli, ValidateShowsEveryNicOnTwoToRs) {
  CommandResult r = RunAifabric("validate " + kExample);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // 16 NICs x 2 links + 2 ToRs x 8 uplinks (leaf_spine_builder_test.cc
  // works the sizing) = 48 links.
  EXPECT_THAT(r.out, HasSubstr("16 hosts, 10 switches, 48 links (leaf_spine, dual-ToR, RoCEv2"));
  EXPECT_THAT(r.out, HasSubstr("host links: 2 per NIC, to up to 2 switches (multi-homed)"));
}

TEST(DualTorCli, ExampleFailsOverAndFinishesEveryFlow) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample + " --quiet --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["faults"].size(), 1u);
  const auto& f = s["faults"][0];
  EXPECT_EQ(f["kind"], "nic_port_down");
  EXPECT_EQ(f["name"], "h3:0");
  EXPECT_EQ(f["detected_ns"].get<double>(), 30'000);  // at 20 us + the 10 us detection
  EXPECT_GT(f["flows_rerouted"].get<uint64_t>(), 0u);
  EXPECT_GT(f["packets_lost"].get<uint64_t>(), 0u);
  // The NIC has its other port: every flow completes (single-homed, h3's
  // flows would wait for the repair at 50 ms).
  EXPECT_EQ(s["flows"]["completed"], s["flows"]["count"]);
}

TEST(DualTorCli, ANicPortThatDoesNotExistIsAnError) {
  CommandResult r = RunAifabric("validate " + kExample + " --set faults.0.port=2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("faults.0.port: 'h3' has 2 link(s); expected 0..1, got 2"));
  CommandResult ib = RunAifabric("validate " + kExample + " --set fabric.kind=ib --set fabric.switch=QM9700");
  EXPECT_EQ(ib.exit_code, 2);
  EXPECT_THAT(ib.err, HasSubstr("fabric.topology.dual_tor: only with kind: roce: InfiniBand has no MC-LAG or bond "
                                "hashing a NIC's flows over two switches"));
  EXPECT_THAT(ib.err, HasSubstr("use planes: N (one HCA port per plane, each plane its own subnet)"));
}

}  // namespace
}  // namespace aifabric::testing
