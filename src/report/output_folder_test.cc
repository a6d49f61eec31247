// OutputFolder: files land under their names (subfolders made as needed)
// only at Commit, through temporaries that never stay behind, and a file
// that cannot be written is an error naming it.
#include "report/output_folder.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/report_test_util.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

std::string MakeTempDir() {
  std::string tmpl = (fs::temp_directory_path() / "aifabric_out_XXXXXX").string();
  EXPECT_NE(mkdtemp(tmpl.data()), nullptr);
  return tmpl;
}

using report_testing::Contents;

TEST(OutputFolder, CreatesTheFolderAndSubfolders) {
  const std::string tmpl = MakeTempDir();
  const std::string dir = tmpl + "/out";
  OutputFolder out(dir);
  ASSERT_TRUE(out.Write("a.txt", "one\n").ok());
  ASSERT_TRUE(out.Write("spec+crux/b.csv", "x,y\n").ok());
  ASSERT_TRUE(out.Commit().ok());
  EXPECT_EQ(Contents(dir + "/a.txt"), "one\n");
  EXPECT_EQ(Contents(dir + "/spec+crux/b.csv"), "x,y\n");
  EXPECT_FALSE(fs::exists(dir + "/a.txt.tmp"));
  EXPECT_EQ(out.names(), (std::vector<std::string>{"a.txt", "spec+crux/b.csv"}));
  fs::remove_all(tmpl);
}

TEST(OutputFolder, NothingIsInPlaceBeforeCommitAndAnUncommittedFolderLeavesNoTemporary) {
  const std::string tmpl = MakeTempDir();
  {
    OutputFolder out(tmpl);
    ASSERT_TRUE(out.Write("summary.json", "{}\n").ok());
    EXPECT_FALSE(fs::exists(tmpl + "/summary.json"));
    EXPECT_TRUE(fs::exists(tmpl + "/summary.json.tmp"));
  }  // dropped without Commit, as after an error
  EXPECT_TRUE(fs::is_empty(tmpl));
  fs::remove_all(tmpl);
}

TEST(OutputFolder, AFileThatCannotBeWrittenIsAnErrorNamingIt) {
  const std::string tmpl = MakeTempDir();
  fs::create_directories(tmpl + "/links.csv.tmp");  // a folder where the temporary should go
  OutputFolder out(tmpl);
  const Status st = out.Write("links.csv", "x\n");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find("links.csv"), std::string::npos) << st.error().message;
  fs::remove_all(tmpl);
}

// A folder where the second file should go: the first, already renamed,
// is removed again, and no temporary stays.
TEST(OutputFolder, AFailedCommitLeavesNothingOfTheRunBehind) {
  const std::string dir = MakeTempDir();
  fs::create_directories(dir + "/links.csv");
  {
    OutputFolder out(dir);
    ASSERT_TRUE(out.Write("summary.json", "{}\n").ok());
    ASSERT_TRUE(out.Write("links.csv", "link_id\n").ok());
    ASSERT_TRUE(out.Write("flows.csv", "flow_id\n").ok());
    Status committed = out.Commit();
    ASSERT_FALSE(committed.ok());
    EXPECT_NE(committed.error().message.find(dir + "/links.csv"), std::string::npos) << committed.error().message;
  }
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"links.csv"});  // the folder that was there, nothing else
  EXPECT_TRUE(fs::is_empty(dir + "/links.csv"));
  fs::remove_all(dir);
}

TEST(OutputFolder, ANameThatClimbsOutIsRefused) {
  const std::string dir = MakeTempDir();
  OutputFolder out(dir + "/run");
  for (const std::string name : {"../x.csv", "a/../../x.csv", "/tmp/x.csv", ""}) {
    Status written = out.Write(name, "x");
    ASSERT_FALSE(written.ok()) << name;
    EXPECT_NE(written.error().message.find("outside the output folder"), std::string::npos) << written.error().message;
  }
  EXPECT_TRUE(out.Write("sub/x.csv", "x").ok());
  EXPECT_TRUE(out.names() == std::vector<std::string>{"sub/x.csv"});
  fs::remove_all(dir);
}

}  // namespace
}  // namespace aifabric
