// ComputeSlowdowns: a kernel's end under straggler windows, worked by hand.
#include "workload/compute_slowdown.h"

#include <gtest/gtest.h>

#include "workload/workload_test_util.h"

namespace aifabric {
namespace {

using workload_testing::Us;

TEST(ComputeSlowdowns, NoWindowLeavesTheNominalDuration) {
  const ComputeSlowdowns s({{3, Us(0), Us(100), 0.5}});
  EXPECT_EQ(s.KernelEnd(2, Us(10), Us(40)), Us(50));   // another GPU
  EXPECT_EQ(s.KernelEnd(3, Us(100), Us(40)), Us(140));  // after the window
}

TEST(ComputeSlowdowns, AKernelInsideAWindowTakesOneOverFactorAsLong) {
  // 40 us at half speed: 80 us.
  const ComputeSlowdowns s({{3, Us(0), Time::Infinite(), 0.5}});
  EXPECT_EQ(s.KernelEnd(3, Us(10), Us(40)), Us(90));
}

TEST(ComputeSlowdowns, OnlyThePartInsideTheWindowIsStretched) {
  // Window [20, 50) us at 0.5. A 40 us kernel from 0: 20 us of work by 20,
  // the window's 30 us do 15 us of work (35 done), the last 5 us at full
  // speed: ends at 55 us.
  const ComputeSlowdowns s({{0, Us(20), Us(50), 0.5}});
  EXPECT_EQ(s.KernelEnd(0, Us(0), Us(40)), Us(55));
  // Starting inside it: from 40, 10 us of window do 5 us of work, the
  // other 35 us after 50: ends at 85 us.
  EXPECT_EQ(s.KernelEnd(0, Us(40), Us(40)), Us(85));
  // Ending inside it: from 10, 10 us of work by 20, then 10 us of work
  // at half speed take 20 us: ends at 40 us.
  EXPECT_EQ(s.KernelEnd(0, Us(10), Us(20)), Us(40));
}

TEST(ComputeSlowdowns, OverlappingWindowsTakeTheSlowest) {
  // [0, 100) at 0.5 and [0, 10) at 0.25: 10 us at 0.25 do 2.5 us; the
  // remaining 7.5 us at 0.5 take 15 us: ends at 25 us.
  const ComputeSlowdowns s({{1, Us(0), Us(100), 0.5}, {1, Us(0), Us(10), 0.25}});
  EXPECT_EQ(s.KernelEnd(1, Us(0), Us(10)), Us(25));
}

TEST(ComputeSlowdowns, AZeroKernelEndsWhereItStarts) {
  const ComputeSlowdowns s({{1, Us(0), Us(100), 0.5}});
  EXPECT_EQ(s.KernelEnd(1, Us(7), Time::Zero()), Us(7));
}

}  // namespace
}  // namespace aifabric
