// What a user gets on bad input or an unwritable output, run as a user
// runs it: exit 2, a message naming the file or field, and nothing of the
// run left behind.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

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

}  // namespace
}  // namespace aifabric::testing
