// Crux's weights and CASSINI's offsets, worked by hand.
#include "sched/comm_scheduling.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

// level = min(7, floor(lower x 8 / total)); weight 2^level.
TEST(CruxWeightForRank, EightBandsByRank) {
  EXPECT_DOUBLE_EQ(CruxWeightForRank(0, 0), 1);    // alone on the fabric
  EXPECT_DOUBLE_EQ(CruxWeightForRank(0, 4), 1);    // the least intensive: level 0
  EXPECT_DOUBLE_EQ(CruxWeightForRank(1, 4), 4);    // floor(8 / 4) = 2
  EXPECT_DOUBLE_EQ(CruxWeightForRank(3, 4), 64);   // floor(24 / 4) = 6
  EXPECT_DOUBLE_EQ(CruxWeightForRank(7, 8), 128);  // level 7, the top band
  EXPECT_DOUBLE_EQ(CruxWeightForRank(9, 10), 128);  // floor(72 / 10) = 7
}

// The other job computes [0, 1) and communicates [1, 2), period 2; so
// does the new one, from now = 0. Offset 0 puts its windows on the
// other's: overlap 1 per period, 4 over the horizon of 4 periods. Offset
// 1 (k = 8 of 16 steps of 0.125) puts them in the other's compute: no
// overlap; every offset between meets some of the other's windows.
TEST(CassiniOffsetSeconds, ShiftsIntoTheOthersCompute) {
  const std::vector<CommCycle> others = {{0, 1, 1, 2}};
  EXPECT_DOUBLE_EQ(CassiniOffsetSeconds(0, 1, 1, others), 1.0);
  // Started a second later, the other communicates while the new job
  // computes: offset 0 already avoids it.
  const std::vector<CommCycle> later = {{1, 1, 1, 2}};
  EXPECT_DOUBLE_EQ(CassiniOffsetSeconds(0, 1, 1, later), 0.0);
}

TEST(CassiniOffsetSeconds, NothingToAvoid) {
  const std::vector<CommCycle> others = {{0, 1, 1, 2}};
  EXPECT_DOUBLE_EQ(CassiniOffsetSeconds(0, 1, 1, {}), 0.0);  // no other job
  EXPECT_DOUBLE_EQ(CassiniOffsetSeconds(0, 1, 0, others), 0.0);  // no communication
}

}  // namespace
}  // namespace aifabric
