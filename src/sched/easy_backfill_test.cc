#include "sched/easy_backfill.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

Time S(double s) { return Time::FromSeconds(s); }

// 4 GPUs free, the head needs 16; running: 8 GPUs end at 50 s, 4 at 20 s,
// 8 at 90 s. Free over time: 4, then 8 at 20 s, 16 at 50 s: the head
// starts at 50 s with 0 extra.
TEST(EasyBackfillTest, HeadReservesTheEarliestTimeEnoughGpusFree) {
  const std::vector<RunningJobEnd> running = {{S(50), 8}, {S(20), 4}, {S(90), 8}};
  const BackfillReservation r = ReserveForHead(S(10), 16, 4, running);
  EXPECT_EQ(r.shadow, S(50));
  EXPECT_EQ(r.extra_gpus, 0);
  // A job ending by 50 s may start; one ending after may not, unless it
  // fits in the extra GPUs (none here).
  EXPECT_TRUE(MayBackfill(r, S(10), S(40), 4));
  EXPECT_FALSE(MayBackfill(r, S(10), S(41), 4));
  // The head needing 12 leaves 4 extra at 50 s: a long 4-GPU job fits them.
  const BackfillReservation r12 = ReserveForHead(S(10), 12, 4, running);
  EXPECT_EQ(r12.shadow, S(50));
  EXPECT_EQ(r12.extra_gpus, 4);
  EXPECT_TRUE(MayBackfill(r12, S(10), S(1000), 4));
  EXPECT_FALSE(MayBackfill(r12, S(10), S(1000), 5));
}

TEST(EasyBackfillTest, HeadThatFitsNowReservesNow) {
  const BackfillReservation r = ReserveForHead(S(5), 4, 6, {});
  EXPECT_EQ(r.shadow, S(5));
  EXPECT_EQ(r.extra_gpus, 2);
}

TEST(EasyBackfillTest, OverdueJobsCountAsEndingNow) {
  // The caller passes max(now, expected end); a past end gives shadow = now.
  const std::vector<RunningJobEnd> running = {{S(3), 8}};
  const BackfillReservation r = ReserveForHead(S(10), 8, 0, running);
  EXPECT_EQ(r.shadow, S(10));
}

TEST(EasyBackfillTest, NeverEnoughGpusMeansNoReservation) {
  const BackfillReservation r = ReserveForHead(S(0), 64, 8, std::vector<RunningJobEnd>{{S(5), 8}});
  EXPECT_TRUE(r.shadow.IsInfinite());
  EXPECT_EQ(r.extra_gpus, 0);
  EXPECT_FALSE(MayBackfill(r, S(0), S(1), 1));
}

}  // namespace
}  // namespace aifabric
