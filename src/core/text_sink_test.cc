#include "core/text_sink.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

// A sink with a 4-byte buffer that records what it was asked to make room
// for: the bytes it held and the text that did not fit (then it empties
// the buffer and keeps that text aside).
class RecordingSink final : public TextSink {
 public:
  RecordingSink() { SetBuffer(buffer_, buffer_, buffer_ + sizeof buffer_); }
  std::string held() const { return std::string(buffered()); }

  std::vector<std::pair<std::string, std::string>> overflows;  // (held, text)

 private:
  void Overflow(std::string_view text) override {
    overflows.emplace_back(buffered(), text);
    SetBuffer(buffer_, buffer_, buffer_ + sizeof buffer_);
  }
  char buffer_[4];
};

TEST(TextSink, AppendsInlineUntilTheBufferIsFull) {
  RecordingSink sink;
  sink.Append("ab");
  sink.Append("");
  sink.Append('c');
  sink.Append("d");  // exactly full
  EXPECT_TRUE(sink.overflows.empty());
  EXPECT_EQ(sink.held(), "abcd");
  sink.Append('e');  // does not fit: the sink is asked, with what it holds
  sink.Append("fghij");
  EXPECT_EQ(sink.overflows, (std::vector<std::pair<std::string, std::string>>{{"abcd", "e"}, {"", "fghij"}}));
  EXPECT_TRUE(sink.status().ok());
}

TEST(StringSink, KeepsEverythingUntilTaken) {
  StringSink sink;
  const std::string big(3 << 20, 'x');  // beyond any file buffer
  sink.Append("head ");
  for (int i = 0; i < 1000; ++i) sink.Append('.');  // grows by doubling, byte by byte too
  sink.Append(big);
  sink.Append('!');
  EXPECT_EQ(sink.view().size(), 5 + 1000 + big.size() + 1);
  EXPECT_EQ(sink.Take(), "head " + std::string(1000, '.') + big + "!");
  EXPECT_EQ(sink.view(), "");
  sink.Append("again");
  EXPECT_EQ(sink.Take(), "again");
  EXPECT_TRUE(sink.status().ok());
}

}  // namespace
}  // namespace aifabric
