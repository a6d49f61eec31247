// Replays every input kept under fuzz/regressions/<target>/ (the crashes and
// broken contracts the fuzzers found, each fixed in its reader) through the
// target's check, in the normal build, without libFuzzer: a regression
// crashes this test or fails its contract here.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "fuzz/fuzz_checks.h"
#include "test_paths.h"

namespace aifabric::fuzz {
namespace {

namespace fs = std::filesystem;

const fs::path kRegressions = fs::path(AIFABRIC_SOURCE_DIR) / "fuzz" / "regressions";

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FuzzRegressions, EveryKeptInputHoldsItsReadersContract) {
  int replayed = 0;
  for (const FuzzTarget& target : FuzzTargets()) {
    const fs::path dir = kRegressions / target.name;
    if (!fs::is_directory(dir)) continue;
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
      EXPECT_EQ(target.check(Slurp(e.path())).broke, "") << e.path();
      ++replayed;
    }
  }
  RecordProperty("replayed", replayed);
}

TEST(FuzzRegressions, EveryRegressionFolderIsATarget) {
  if (!fs::is_directory(kRegressions)) return;
  for (const fs::directory_entry& e : fs::directory_iterator(kRegressions)) {
    if (e.is_directory()) {
      EXPECT_NE(FindFuzzTarget(e.path().filename().string()), nullptr) << e.path();
    }
  }
}

// The smallest inputs every reader must survive: nothing, one byte, a line
// break, a NUL.
TEST(FuzzRegressions, EveryTargetTakesTheSmallestInputs) {
  using namespace std::string_literals;
  for (const FuzzTarget& target : FuzzTargets()) {
    for (const std::string& input : {""s, "x"s, "\n"s, "\0"s}) {
      EXPECT_EQ(target.check(input).broke, "") << target.name << " on " << testing::PrintToString(input);
    }
  }
}

}  // namespace
}  // namespace aifabric::fuzz
