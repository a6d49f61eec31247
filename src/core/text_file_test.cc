// Quote: how every reader's messages show what they read.
#include "core/text_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace aifabric {
namespace {

TEST(Quote, PutsTheTextBetweenSingleQuotesUnescaped) {
  EXPECT_EQ(Quote("4KiB"), "'4KiB'");
  EXPECT_EQ(Quote(""), "''");
  EXPECT_EQ(Quote("it's \"x\"\t"), "'it's \"x\"\t'");
}

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(ReadTextFile, ReadsAWholeFileUpToTheBound) {
  const std::string path = TempFile("aifabric_text_file_ten.txt", "0123456789");
  Result<std::string> text = ReadTextFile(path, 10);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, "0123456789");
  std::filesystem::remove(path);
}

TEST(ReadTextFile, RefusesARegularFileOverTheBoundBeforeReadingIt) {
  const std::string path = TempFile("aifabric_text_file_eleven.txt", "01234567890");
  Result<std::string> text = ReadTextFile(path, 10);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, path + ": larger than 10 bytes, the most aifabric reads from one input file");
  std::filesystem::remove(path);
}

TEST(ReadTextFile, BoundsADeviceThatNeverEnds) {
  // /dev/zero has no size and no end: the bound, 2 MiB here, stops it.
  Result<std::string> text = ReadTextFile("/dev/zero", 2u << 20);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.error().message, "/dev/zero: larger than 2 MiB, the most aifabric reads from one input file");
}

TEST(ReadTextFile, NamesAFolderAndAMissingFile) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  Result<std::string> folder = ReadTextFile(dir);
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.error().message, dir + ": is a folder, not a file");
  Result<std::string> missing = ReadTextFile("/nonexistent/aifabric.yaml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "/nonexistent/aifabric.yaml: cannot open file (No such file or directory)");
}

}  // namespace
}  // namespace aifabric
