#include "plan/switch_config.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/text_file.h"
#include "plan/plan_test_scenarios.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;
using plan_testing::Build;
using plan_testing::Load;

// A fresh temp dir, removed at the end.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/aifabric-plan-XXXXXX";
    path_ = mkdtemp(tmpl);
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Every file below `dir`, relative to it.
std::set<std::string> Tree(const std::string& dir) {
  std::set<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) files.insert(fs::relative(e.path(), dir).string());
  return files;
}

TEST(WriteSwitchConfig, RoceWritesAConfigDbPerSwitchAndTheCablingPlan) {
  const Scenario s = Load(plan_testing::kRoceScenario);
  const BuiltFabric f = Build(s);
  TempDir tmp;
  const std::string dir = tmp.path() + "/cfg";
  ASSERT_TRUE(WriteSwitchConfig(s, f, dir).ok());
  EXPECT_EQ(Tree(dir), (std::set<std::string>{"cabling.csv", "leaf0", "leaf0/config_db.json", "leaf1",
                                              "leaf1/config_db.json", "spine0", "spine0/config_db.json", "spine1",
                                              "spine1/config_db.json"}));
  Result<std::string> text = ReadTextFile(dir + "/spine0/config_db.json");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(nlohmann::json::parse(*text)["DEVICE_METADATA"]["localhost"]["hostname"], "spine0");
  // Deterministic: a second write gives the same bytes.
  const std::string dir2 = tmp.path() + "/cfg2";
  ASSERT_TRUE(WriteSwitchConfig(s, f, dir2).ok());
  EXPECT_EQ(*ReadTextFile(dir2 + "/spine0/config_db.json"), *text);
  EXPECT_EQ(*ReadTextFile(dir2 + "/cabling.csv"), *ReadTextFile(dir + "/cabling.csv"));
}

TEST(WriteSwitchConfig, InfinibandWritesOpenSmFiles) {
  const Scenario s = Load(plan_testing::kIbScenario);
  const BuiltFabric f = Build(s);
  TempDir tmp;
  ASSERT_TRUE(WriteSwitchConfig(s, f, tmp.path()).ok());
  EXPECT_EQ(Tree(tmp.path()), (std::set<std::string>{"cabling.csv", "opensm", "opensm/README", "opensm/opensm.conf",
                                                      "opensm/partitions.conf"}));
}

TEST(WriteSwitchConfig, AnUnwritablePathLeavesNothing) {
  const Scenario s = Load(plan_testing::kRoceScenario);
  const BuiltFabric f = Build(s);
  TempDir tmp;
  // A regular file where a folder is needed.
  std::ofstream(tmp.path() + "/blocker") << "x";
  Status st = WriteSwitchConfig(s, f, tmp.path() + "/blocker/cfg");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("blocker"), std::string::npos) << st.error().message;
  EXPECT_EQ(Tree(tmp.path()), (std::set<std::string>{"blocker"}));

  // A failure after some switches were written (spine0's folder is a
  // file): neither their files, their temporaries nor their folders stay.
  const std::string dir = tmp.path() + "/cfg";
  fs::create_directories(dir);
  std::ofstream(dir + "/spine0") << "not a folder";
  st = WriteSwitchConfig(s, f, dir);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(Tree(dir), (std::set<std::string>{"spine0"}));
}

TEST(WriteSwitchConfig, AValueTheConfigCannotExpressWritesNothing) {
  const Scenario s = Load(plan_testing::kRoceScenario, {"fabric.roce.ecn.pmax=0.005"});
  const BuiltFabric f = Build(s);
  TempDir tmp;
  const std::string dir = tmp.path() + "/cfg";
  Status st = WriteSwitchConfig(s, f, dir);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("fabric.roce.ecn.pmax"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir));
}

}  // namespace
}  // namespace aifabric
