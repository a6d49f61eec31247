#include "server/live_feed.h"

#include <thread>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(LiveFeed, HandsEachClientTheEventsAfterItsLastInOrder) {
  LiveFeed feed;
  feed.Push("progress", "{\"progress\":0}");
  feed.Push("snapshot", "{}");
  bool ended = true;
  std::vector<FeedEvent> events = feed.After(0, std::chrono::milliseconds(0), &ended);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_FALSE(ended);
  EXPECT_EQ(events[0].seq, 1u);
  EXPECT_EQ(events[1].type, "snapshot");
  events = feed.After(1, std::chrono::milliseconds(0), &ended);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].seq, 2u);
  feed.End("{\"status\":\"done\"}");
  feed.Push("progress", "{}");  // after the end: ignored
  events = feed.After(2, std::chrono::milliseconds(0), &ended);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].type, "end");
  EXPECT_TRUE(ended);
  EXPECT_EQ(FormatServerSentEvent(events[0]), "id: 3\nevent: end\ndata: {\"status\":\"done\"}\n\n");
}

TEST(LiveFeed, KeepsTheLastEventsAndAlwaysTheEnd) {
  LiveFeed feed;
  for (size_t i = 0; i < LiveFeed::kKeep + 10; ++i) feed.Push("snapshot", "{}");
  feed.End("{}");
  bool ended = false;
  const std::vector<FeedEvent> events = feed.After(0, std::chrono::milliseconds(0), &ended);
  ASSERT_EQ(events.size(), LiveFeed::kKeep);
  // kKeep + 11 pushed in all; the last kKeep kept.
  EXPECT_EQ(events.front().seq, 12u);
  EXPECT_EQ(events.back().type, "end");
}

TEST(LiveFeed, AWaitingClientWakesOnAPush) {
  LiveFeed feed;
  std::thread pusher([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    feed.Push("progress", "{}");
  });
  bool ended = false;
  const auto before = std::chrono::steady_clock::now();
  std::vector<FeedEvent> events = feed.After(0, std::chrono::seconds(10), &ended);
  pusher.join();
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(5));
  // A spurious wake-up may return nothing; then the next call has it.
  if (events.empty()) events = feed.After(0, std::chrono::seconds(1), &ended);
  ASSERT_EQ(events.size(), 1u);
}

}  // namespace
}  // namespace aifabric
