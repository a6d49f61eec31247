// Faults end to end: examples/faults/ runs and its summary.json says what
// the fault did; a fault naming nothing that exists is a clear error
// (exit 2); --set adds faults as any list.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli_harness.h"

namespace aifabric::testing {
namespace {

const std::string kExample = AIFABRIC_SOURCE_DIR "/examples/faults/link_down.yaml";

TEST(FaultsCli, LinkDownExampleReportsLossesAndTheReroute) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("fault       link_down leaf0-spine0#2 at 50.000 us: detected at 70.000 us"));
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  ASSERT_EQ(s["faults"].size(), 1u);
  const auto& f = s["faults"][0];
  EXPECT_EQ(f["kind"], "link_down");
  EXPECT_EQ(f["at_ns"].get<double>(), 50'000);
  // The scenario's detection delay, 20 us after the failure.
  EXPECT_EQ(f["detected_ns"].get<double>(), 70'000);
  EXPECT_EQ(f["rerouted_ns"].get<double>(), 70'000);
  EXPECT_EQ(f["route_changes"].get<uint64_t>(), 1u);  // the repair at 5 ms comes after the run
  EXPECT_GT(f["flows_rerouted"].get<uint64_t>(), 0u);
  // Every drop of the run is the fault's (the fabric is lossy RoCE but its
  // buffers hold this load); every flow completes, so each data byte lost
  // was resent at least once (go-back-N resends more).
  const uint64_t lost = f["packets_lost"].get<uint64_t>();
  EXPECT_GT(lost, 0u);
  EXPECT_EQ(s["drops"].get<uint64_t>(), lost);
  EXPECT_EQ(s["flows"]["completed"], s["flows"]["count"]);
  EXPECT_GE(f["bytes_resent"].get<uint64_t>(), s["bytes"]["dropped"].get<uint64_t>());
  EXPECT_GT(s["bytes"]["dropped"].get<uint64_t>(), 0u);
}

TEST(FaultsCli, AFaultNamingNothingIsAnError) {
  CommandResult r =
      RunAifabric("run " + kExample + " --quiet --set 'faults.0.link=[leaf0, spine7]' --out /tmp/never-written");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("faults.0.link: no node named 'spine7' in the topology"));
  CommandResult v = RunAifabric("validate " + kExample + " --set faults.0.index=9");
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_THAT(v.err, ::testing::HasSubstr("faults.0.index: 'leaf0' and 'spine0' share 8 links; expected 0..7, got 9"));
}

TEST(FaultsCli, NoFaultsLeavesTheSummaryAsItWas) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExample + " --quiet --set faults= --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto s = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  EXPECT_FALSE(s.contains("faults"));
  EXPECT_EQ(s["drops"].get<uint64_t>(), 0u);
}

}  // namespace
}  // namespace aifabric::testing
