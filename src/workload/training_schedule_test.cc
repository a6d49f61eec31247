// The 1F1B schedule (Megatron-LM's non-interleaved pipeline schedule).
#include "workload/training_schedule.h"

#include <gtest/gtest.h>

#include <string>

namespace aifabric {
namespace {

std::string Render(const std::vector<PipelineOp>& ops) {
  std::string s;
  for (const PipelineOp& op : ops) {
    if (!s.empty()) s += " ";
    s += op.backward ? "B" : "F";
    s += std::to_string(op.micro_batch);
  }
  return s;
}

TEST(TrainingSchedule, OneFOneBOnFourStagesEightMicroBatches) {
  // Stage 0: warm-up p-1-0 = 3 forwards, 5 (F, B) pairs, 3 backwards.
  EXPECT_EQ(Render(OneFOneBSchedule(0, 4, 8)), "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7");
  // Stage 1: 2 warm-up forwards.
  EXPECT_EQ(Render(OneFOneBSchedule(1, 4, 8)), "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 F6 B4 F7 B5 B6 B7");
  // Stage 3 (last): no warm-up, strict alternation.
  EXPECT_EQ(Render(OneFOneBSchedule(3, 4, 8)), "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7");
}

TEST(TrainingSchedule, FewerMicroBatchesThanStages) {
  // Warm-up is capped at m: all forwards, then all backwards (GPipe-like).
  EXPECT_EQ(Render(OneFOneBSchedule(0, 4, 2)), "F0 F1 B0 B1");
  EXPECT_EQ(Render(OneFOneBSchedule(0, 1, 3)), "F0 B0 F1 B1 F2 B2");
}

}  // namespace
}  // namespace aifabric
