// The parallelism search: the estimate on a hand-worked single GPU, the
// enumeration counted by hand, the choice of no model parallelism for a
// small model, the closest miss of a model that fits nowhere, and that every
// split returned fits.
#include "workload/parallelism_search.h"

#include <gtest/gtest.h>

#include <string>

#include "workload/workload_test_util.h"

namespace aifabric {
namespace {

using workload_testing::Contains;

using workload_testing::Tiny;

TrainingSpec BatchWithGpuFigures(int global_batch) {
  TrainingSpec t;
  t.global_batch = global_batch;
  t.gpu_peak_tflops = 1000;
  t.compute_efficiency = 0.5;
  t.hbm_bytes_per_s = 3e12;
  t.optimizer_bytes_per_param = 30;
  return t;
}

// One 8-GPU server of H100-like GPUs: NVLink 400 GB/s, NIC 50 GB/s, 80 GB.
SearchCluster Server(int gpus = 8) {
  SearchCluster c;
  c.gpus = gpus;
  c.gpus_per_server = 8;
  c.nvlink_bytes_per_s = 400e9;
  c.nic_bytes_per_s = 50e9;
  c.hbm_bytes = 80'000'000'000;
  return c;
}

// One GPU, no parallelism: the step is m x 3 x forward FLOPs / (peak x
// efficiency) plus the optimizer. Forward per token: per layer 2 x (4h^2 +
// 8h^2) + attention scores 2 s heads (2 x 64) = 25,165,824 + 2,097,152 =
// 27,262,976; 8 layers 218,103,808; output layer 2 h V = 65,536,000; total
// 283,639,808. One micro-batch of 512 tokens: 3 x 283,639,808 x 512 =
// 435,670,745,088 FLOPs at 5e14 FLOP/s = 0.000871341490176 s; m = 4:
// 0.003485365960704 s. Parameters: 2 x 32000 x 1024 (embedding, output) +
// 1024 (final norm) + 8 x (12 h^2 + 2h) = 166,216,704; the optimizer moves
// 30 B each at 3e12 B/s: 0.00166216704 s. Step 0.005147532960704 s.
TEST(ParallelismSearch, OneGpuEstimateByHand) {
  ParallelismSpec p;
  const StepEstimate e = EstimateStepTime(Tiny(), p, BatchWithGpuFigures(4), {}, Server(1));
  EXPECT_NEAR(e.compute_s, 0.003485365960704, 1e-15);
  EXPECT_EQ(e.bubble_s, 0);
  EXPECT_EQ(e.tensor_s, 0);
  EXPECT_EQ(e.data_s, 0);
  EXPECT_NEAR(e.optimizer_s, 0.00166216704, 1e-15);
  EXPECT_NEAR(e.step_s, 0.003485365960704 + 0.00166216704, 1e-15);
}

// The 1F1B bubble is (pp - 1) micro-batch times of the slowest stage: with
// m micro-batches, bubble / (compute + TP + EP) = (pp - 1) / m.
TEST(ParallelismSearch, BubbleIsPpMinusOneOverM) {
  ParallelismSpec p;
  p.tp = 2;
  p.pp = 4;
  p.dp = 1;
  const StepEstimate e = EstimateStepTime(Tiny(), p, BatchWithGpuFigures(8), {}, Server(8));
  EXPECT_NEAR(e.bubble_s / (e.compute_s + e.tensor_s + e.expert_s), 3.0 / 8.0, 1e-12);
  EXPECT_GT(e.pipeline_s, 0);
  // Four sends of b s h x 2 B = 1 MiB across the pipeline's 3 boundaries,
  // both ways, inside the server: 2 x 3 x 1,048,576 / 400e9.
  EXPECT_NEAR(e.pipeline_s, 6 * 1048576.0 / 400e9, 1e-15);
}

// Splits of 8 GPUs for Tiny (16 heads, FFN 4096, 8 layers), all of which
// fit 80 GB: TP 1 with PP 1, 2, 4, 8; TP 2 with PP 1, 2, 4; TP 4 with PP 1,
// 2; TP 8 with PP 1: 10. With 256 sequences and ZeRO-1, per-GPU compute is
// the same for every split (m = 256 / dp micro-batches of 1/(tp pp) of the
// model); what differs is overhead. Pure DP pays one tail: reduce-scatter
// 7/8 x 4 B x 166.2M / 400 GB/s = 1.45 ms, less the last backward (0.58 ms),
// plus the all-gather 0.73 ms and a 1/8-sharded optimizer step: ~1.8 ms.
// TP 2 pays 34 all-reduces of 1 MiB (2.6 us each at 400 GB/s) on each of
// its 64+ micro-batches (> 5.6 ms); PP 2 a bubble of a micro-batch of its
// slower stage on top of its 64 (~0.5 ms) and the head imbalance (the
// last stage's output layer: 65.5M of 283.6M FLOPs per token, ~0.1 ms per
// micro-batch, ~6.4 ms). The estimate picks TP 1 x PP 1 x DP 8.
TEST(ParallelismSearch, SmallModelPicksPureDataParallelism) {
  TrainingMemoryOptions zero1;
  zero1.zero_stage = 1;
  Result<std::vector<RankedSplit>> r = SearchParallelism(Tiny(), {}, BatchWithGpuFigures(256), zero1, Server());
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 10u);
  const ParallelismSpec& best = r->front().parallelism;
  EXPECT_EQ(best.tp, 1);
  EXPECT_EQ(best.pp, 1);
  EXPECT_EQ(best.dp, 8);
  for (size_t i = 1; i < r->size(); ++i) {
    EXPECT_LE((*r)[i - 1].estimate.step_s, (*r)[i].estimate.step_s);
  }
}

// Every split returned fits, for every memory option and a model that is
// tight on these GPUs.
TEST(ParallelismSearch, EverySplitReturnedFits) {
  Result<ModelSpec> m = FindModel("llama3-70b");
  ASSERT_TRUE(m.ok());
  SearchCluster c = Server(64);
  TrainingSpec t = BatchWithGpuFigures(64);
  t.seq_len = 4096;
  ParallelismSpec base;
  base.sequence_parallel = true;
  for (int zero = 0; zero <= 3; ++zero) {
    for (Recompute rc : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
      TrainingMemoryOptions o{zero, rc};
      Result<std::vector<RankedSplit>> r = SearchParallelism(*m, base, t, o, c);
      if (!r.ok()) {
        EXPECT_TRUE(Contains(r.error().message, "the closest")) << r.error().message;
        continue;
      }
      for (const RankedSplit& s : *r) {
        EXPECT_TRUE(s.memory.fits());
        EXPECT_LE(s.memory.worst().total_bytes(), c.hbm_bytes);
        EXPECT_EQ(s.parallelism.tp * s.parallelism.pp * s.parallelism.dp, 64);
        EXPECT_TRUE(s.parallelism.sequence_parallel);
      }
    }
  }
}

// GPT-3 175B on 16 GPUs cannot fit: without ZeRO a GPU holds 18 bytes per
// parameter of its 1 / (tp pp) share, and tp pp is at most 16 (TP 8 x PP 2,
// DP 1: ~10.9B parameters, ~196 GB), the closest miss.
TEST(ParallelismSearch, NothingFitsNamesTheClosestMiss) {
  Result<ModelSpec> m = FindModel("gpt3-175b");
  ASSERT_TRUE(m.ok());
  Result<std::vector<RankedSplit>> r = SearchParallelism(*m, {}, BatchWithGpuFigures(16), {}, Server(16));
  ASSERT_FALSE(r.ok());
  const std::string& e = r.error().message;
  EXPECT_TRUE(Contains(e, "parallelism: no split of 16 GPUs fits gpt3-175b in 74.5 GiB per GPU")) << e;
  EXPECT_TRUE(Contains(e, "the closest, TP 8 x PP 2 x DP 1, needs ")) << e;
  EXPECT_TRUE(Contains(e, "GiB on stage ")) << e;
  EXPECT_TRUE(Contains(e, "(weights ")) << e;
}

TEST(ParallelismSearch, UnevenLayersGetTheBalancedSplit) {
  ModelSpec m = Tiny();
  m.layers = 7;
  Result<std::vector<RankedSplit>> r = SearchParallelism(m, {}, BatchWithGpuFigures(16), {}, Server(8));
  ASSERT_TRUE(r.ok()) << r.error().message;
  bool seen = false;
  for (const RankedSplit& s : *r) {
    if (s.parallelism.pp == 2) {
      EXPECT_EQ(s.parallelism.stage_layers, (std::vector<int>{4, 3}));
      seen = true;
    }
    EXPECT_LE(s.parallelism.pp, 7);
  }
  EXPECT_TRUE(seen);
}

// MoE: ep divides dp and the experts (8): on 8 GPUs at TP 1, PP 1 (dp 8),
// ep = 1, 2, 4, 8 are all candidates.
TEST(ParallelismSearch, ExpertParallelismForMoe) {
  ModelSpec m = Tiny();
  m.experts = 8;
  m.top_k = 2;
  m.expert_ffn_hidden = 1024;
  Result<std::vector<RankedSplit>> r = SearchParallelism(m, {}, BatchWithGpuFigures(16), {}, Server(8));
  ASSERT_TRUE(r.ok()) << r.error().message;
  int eps = 0;
  for (const RankedSplit& s : *r) {
    if (s.parallelism.tp == 1 && s.parallelism.pp == 1) ++eps;
    EXPECT_EQ(s.parallelism.dp % s.parallelism.ep, 0);
  }
  EXPECT_EQ(eps, 4);
}

}  // namespace
}  // namespace aifabric
