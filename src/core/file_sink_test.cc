#include "core/file_sink.h"

#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "core/text_file.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// A fresh, empty folder for one test.
std::string FreshDir(const std::string& name) {
  const fs::path dir = fs::path(::testing::TempDir()) / ("file_sink_test_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// 10,000 numbered lines, 98,890 bytes (6 x 10,000 + 38,890 digits): many
// times a small buffer.
std::string Lines() {
  std::string text;
  for (int i = 0; i < 10000; ++i) text += "line " + std::to_string(i) + "\n";
  return text;
}

// Writes `text` to `path` through a FileSink; false if that failed.
bool WriteWhole(const std::string& path, std::string_view text) {
  FileSink sink(path);
  sink.Append(text);
  return sink.Close().ok();
}

TEST(FileSink, WritesThroughASmallBufferAndAppearsOnlyAtClose) {
  const std::string dir = FreshDir("small_buffer");
  const std::string path = dir + "/out.txt";
  const std::string text = Lines();
  FileSink sink(path, /*buffer_bytes=*/64);
  for (size_t at = 0; at < text.size(); at += 7) sink.Append(std::string_view(text).substr(at, 7));
  sink.Append(std::string(1000, 'z'));  // longer than the buffer: written directly
  EXPECT_FALSE(fs::exists(path));       // only the temporary so far
  EXPECT_TRUE(fs::exists(path + ".tmp"));
  ASSERT_TRUE(sink.Close().ok());
  Result<std::string> read = ReadTextFile(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_EQ(*read, text + std::string(1000, 'z'));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(FileSink, ReplacesAnEarlierFileAndAnEmptyFileIsAFile) {
  const std::string dir = FreshDir("replace");
  const std::string path = dir + "/out.txt";
  ASSERT_TRUE(WriteWhole(path, "old contents that are longer"));
  ASSERT_TRUE(WriteWhole(path, "new"));
  EXPECT_EQ(*ReadTextFile(path), "new");
  ASSERT_TRUE(WriteWhole(dir + "/empty.txt", ""));
  EXPECT_EQ(fs::file_size(dir + "/empty.txt"), 0u);
}

TEST(FileSink, AMissingFolderIsReported) {
  const std::string dir = FreshDir("missing");
  const std::string path = dir + "/no/such/folder/out.txt";
  FileSink sink(path);
  EXPECT_FALSE(sink.status().ok());  // known at once
  sink.Append(Lines());               // dropped, not thrown
  const Status closed = sink.Close();
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error().message, "cannot write " + path + ".tmp: No such file or directory");
  EXPECT_FALSE(fs::exists(dir + "/no"));
}

TEST(FileSink, AFolderWhereTheFileShouldBeIsReportedAndKept) {
  const std::string dir = FreshDir("folder");
  const std::string path = dir + "/out.txt";
  fs::create_directories(path + "/inside");
  FileSink sink(path);
  sink.Append(Lines());
  const Status closed = sink.Close();
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error().message, "cannot rename " + path + ".tmp to " + path + ": Is a directory");
  EXPECT_TRUE(fs::is_directory(path + "/inside"));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

TEST(FileSink, AFullDiskIsReportedAndLeavesNoFile) {
  // The temporary is a link to /dev/full, where every write fails ENOSPC.
  const std::string dir = FreshDir("full");
  const std::string path = dir + "/out.txt";
  fs::create_symlink("/dev/full", path + ".tmp");
  FileSink sink(path, /*buffer_bytes=*/1024);
  EXPECT_TRUE(sink.status().ok());  // opening works; the first drain fails
  sink.Append(Lines());
  EXPECT_FALSE(sink.status().ok());
  const Status closed = sink.Close();
  ASSERT_FALSE(closed.ok());
  EXPECT_EQ(closed.error().message, "cannot write " + path + ".tmp: No space left on device");
  EXPECT_FALSE(fs::exists(path));
  EXPECT_FALSE(fs::is_symlink(path + ".tmp"));
}

TEST(FileSink, AnAbandonedWriteLeavesTheEarlierFile) {
  const std::string dir = FreshDir("abandoned");
  const std::string path = dir + "/out.txt";
  ASSERT_TRUE(WriteWhole(path, "kept"));
  {
    FileSink abandoned(path, /*buffer_bytes=*/16);
    abandoned.Append(Lines());  // partly on disk, in the temporary
  }
  EXPECT_EQ(*ReadTextFile(path), "kept");
  EXPECT_FALSE(fs::exists(path + ".tmp"));
}

}  // namespace
}  // namespace aifabric
