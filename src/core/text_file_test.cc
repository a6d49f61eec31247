// Quote: how every reader's messages show what they read.
#include "core/text_file.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(Quote, PutsTheTextBetweenSingleQuotesUnescaped) {
  EXPECT_EQ(Quote("4KiB"), "'4KiB'");
  EXPECT_EQ(Quote(""), "''");
  EXPECT_EQ(Quote("it's \"x\"\t"), "'it's \"x\"\t'");
}

}  // namespace
}  // namespace aifabric
