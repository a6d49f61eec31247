// What a user gets on bad input or an unwritable output, run as a user
// runs it: exit 2, a message naming the file or field, and nothing of the
// run left behind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::string kQuickstart = std::string(AIFABRIC_SOURCE_DIR) + "/examples/quickstart.yaml";

std::vector<std::string> Tree(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(dir)) names.push_back(fs::relative(e.path(), dir).string());
  std::sort(names.begin(), names.end());
  return names;
}

// /dev/zero never ends: the bounded reader stops at its limit (256 MiB)
// and says so, instead of running out of memory.
TEST(BadInputCli, ADeviceFileAsTheScenarioIsAClearError) {
  CommandResult r = RunAifabric("validate /dev/zero");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("/dev/zero: larger than 256 MiB"));
}

TEST(BadInputCli, ANameThatClimbsOutOfTheOutputFolderIsRefused) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kQuickstart + " --model analytic --quiet --set name=../../x");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("--set name: '../../x'"));
}

// A folder where links.csv should go: the run exits 2 naming it, and of
// its files none stays (the folder that was there is all that is left).
TEST(BadInputCli, AnUnwritableOutputLeavesNothingBehind) {
  TempDir dir;
  const std::string out = dir.path() + "/q";
  fs::create_directories(out + "/links.csv");
  CommandResult r = RunAifabric("run " + kQuickstart + " --model analytic --quiet --out " + out);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(out + "/links.csv"));
  EXPECT_EQ(Tree(out), std::vector<std::string>{"links.csv"});
}

TEST(BadInputCli, ACollectiveJsonOntoAFolderLeavesNoTemporary) {
  TempDir dir;
  CommandResult r = RunAifabric("collective -b 1M -e 1M -J " + dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(dir.path()));
  EXPECT_TRUE(Tree(dir.path()).empty());
  EXPECT_FALSE(Exists(dir.path() + ".tmp"));
}

// The campaign's absurd workload: one flow of 2^63 bytes, between two hosts
// under one leaf at MTU 4096. Its estimate by hand: 2^63 / 4096 = 2^51
// packets x 2 links x 3 events (run/run_cost.h) = 1.35e16 events, 675,000
// times the default --max-events 2e10 (about an hour of the packet model).
constexpr const char* kAbsurdFlow =
    "name: absurd\n"
    "cluster: {servers: 2, gpus_per_server: 1, nic: {rate: 400Gbps}}\n"
    "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 2}, switch: 64x400G, mtu: 4096}\n"
    "workload:\n  - flows: [{src: 0, dst: 1, size: 9223372036854775808}]\n";

TEST(BadInputCli, AnAbsurdWorkloadIsRefusedUpFrontWithItsEstimate) {
  TempDir dir;
  const std::string scenario = dir.Write("absurd.yaml", kAbsurdFlow);
  CommandResult r = RunAifabric("run " + scenario + " --out " + dir.path() + "/out");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "aifabric: error: " + scenario +
                       ": workload.0: estimated 1.4e+16 events at packet level (one flow of 9223372036854775808 "
                       "bytes), over --max-events 2e+10; raise --max-events to run it\n");
  EXPECT_TRUE(r.out.empty());
  // Nothing ran, nothing was written: no output folder, no progress line.
  EXPECT_EQ(Tree(dir.path()), std::vector<std::string>{"absurd.yaml"});
  // validate says the same, and compare before its first model.
  CommandResult v = RunAifabric("validate " + scenario);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(v.err, r.err);
  CommandResult c = RunAifabric("compare " + scenario + " --models flow,packet -J " + dir.path() + "/c.json");
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err, r.err);
  EXPECT_EQ(Tree(dir.path()), std::vector<std::string>{"absurd.yaml"});
}

TEST(BadInputCli, AnAbsurdCollectiveSweepIsRefusedUpFront) {
  // An all-reduce of 2 TiB over the built-in 2 x 8 GPUs: ring's
  // 2 S x 15/16 x 2 servers on the fabric, for each of ring, tree and NVLS
  // (Simple only, past 64 MiB), 2.47e13 bytes in 6.04e9 packets, each over
  // the 2 links of its rail (PXN) x 3 events = 3.62e10, and each
  // candidate's DAG at its bound of 2e7 transfers x 4 events = 2.4e8:
  // 3.6e10 events.
  TempDir dir;
  CommandResult r = RunAifabric("collective -b 2048G -e 2048G -J " + dir.path() + "/c.json");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("default collective cluster: collective: estimated 3.6e+10 events at packet level "
                               "(1 sizes of all_reduce over 16 GPUs, the largest 2199023255552 bytes), over "
                               "--max-events 2e+10; raise --max-events to run it"));
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(Tree(dir.path()).empty());
}

TEST(BadInputCli, RaisingTheBoundLetsARunStart) {
  TempDir dir;
  const std::string scenario = dir.Write("absurd.yaml", kAbsurdFlow);
  // With no bound the absurd flow passes the check (validate runs nothing):
  // it would run for days.
  CommandResult v = RunAifabric("validate " + scenario + " --max-events 0");
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_THAT(v.out, HasSubstr("estimated cost: 1.4e+16 events at packet level"));
  // 1 MiB is 256 packets x 2 links x 3 = 1,536 events: over 1000, and it
  // runs under 2000.
  std::string small_text = kAbsurdFlow;
  small_text.replace(small_text.find("9223372036854775808"), 19, "1MiB");
  const std::string small = dir.Write("small.yaml", small_text);
  CommandResult over = RunAifabric("run " + small + " --quiet --max-events 1000 --out " + dir.path() + "/o1");
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_THAT(over.err, HasSubstr("estimated 1536 events at packet level (one flow of 1048576 bytes), over "
                                  "--max-events 1000; raise --max-events to run it"));
  EXPECT_FALSE(Exists(dir.path() + "/o1"));
  CommandResult raised = RunAifabric("run " + small + " --quiet --max-events 2e3 --out " + dir.path() + "/o2");
  EXPECT_EQ(raised.exit_code, 0) << raised.err;
  EXPECT_TRUE(Exists(dir.path() + "/o2/summary.json"));
  // A simulated time bounds what the flow can move: 20 us at 400G is
  // 1 MB, and the 2^63-byte flow runs that long under the default bound.
  CommandResult until =
      RunAifabric("run " + scenario + " --quiet --set simulation.until=20us --out " + dir.path() + "/o3");
  EXPECT_EQ(until.exit_code, 0) << until.err;
  // Memory: the quickstart holds more than 1 MiB.
  CommandResult memory =
      RunAifabric("run " + kQuickstart + " --quiet --max-memory 1MiB --out " + dir.path() + "/o4");
  EXPECT_EQ(memory.exit_code, 2);
  EXPECT_THAT(memory.err, HasSubstr("of memory at packet level"));
  EXPECT_THAT(memory.err, HasSubstr("over --max-memory 1.0 MiB; raise --max-memory to run it"));
  EXPECT_FALSE(Exists(dir.path() + "/o4"));
  CommandResult bad = RunAifabric("run " + small + " --max-events lots");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--max-events: expected a count of events like 2e10 or 0 (no bound), got 'lots'"));
}

// The estimate does not count a tenant's `duration` repeats
// (run/run_cost.h): training_inference.yaml's training tenant repeats for
// 1 s, estimated at 1,897 events. Run, it processes more: --max-events
// holds while it goes too, and a run that passes it stops with exit 2,
// names where it was, and writes nothing.
TEST(BadInputCli, ARunThatPassesMaxEventsWhileRunningStopsAndWritesNothing) {
  TempDir dir;
  const std::string scenario = std::string(AIFABRIC_SOURCE_DIR) + "/examples/multi_tenant/training_inference.yaml";
  CommandResult full = RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/full");
  ASSERT_EQ(full.exit_code, 0) << full.err;
  const nlohmann::json summary = nlohmann::json::parse(ReadFile(dir.path() + "/full/summary.json"));
  const double events = summary["events"].get<double>();
  ASSERT_GT(events, 3000);  // the shared simulation's own count, past the bound below
  CommandResult over = RunAifabric("run " + scenario + " --quiet --max-events 3000 --out " + dir.path() + "/o");
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_THAT(over.err, HasSubstr("over --max-events 3000 (estimated before the run: 1897, which does not count "
                                  "a tenant's `duration` repeats); stopped, nothing written"));
  EXPECT_FALSE(Exists(dir.path() + "/o"));
  // With the bound above what it processes, it runs to the end.
  CommandResult raised = RunAifabric("run " + scenario + " --quiet --max-events " +
                                     std::to_string(static_cast<uint64_t>(events) + 2048) + " --out " + dir.path() + "/o2");
  EXPECT_EQ(raised.exit_code, 0) << raised.err;
  EXPECT_TRUE(Exists(dir.path() + "/o2/summary.json"));
}

}  // namespace
}  // namespace aifabric::testing
