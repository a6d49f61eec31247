// The training memory model against published figures: ZeRO's Figure 1,
// Korthikanti et al.'s Table 2 on a hand-worked layer, and a Llama 3 70B
// plan worked by hand; parameter counting checked against the step
// builder's and against the whole model's count.
#include "workload/training_memory.h"

#include <gtest/gtest.h>

#include <cmath>

#include "workload/model_costs.h"
#include "workload/workload_test_util.h"

namespace aifabric {
namespace {

using workload_testing::Par;

TrainingSpec GlobalBatch(int global_batch, int micro_batch = 1) {
  TrainingSpec t;
  t.global_batch = global_batch;
  t.micro_batch = micro_batch;
  return t;
}

// ZeRO (arXiv:1910.02054) Figure 1: Psi = 7.5B parameters, Nd = 64, K = 12,
// fp16 weights and gradients: baseline (2 + 2 + K) Psi = 120 GB; P_os
// 2 Psi + 2 Psi + K Psi / Nd = 31.4 GB; P_os+g 2 Psi + (2 + K) Psi / Nd =
// 16.6 GB; P_os+g+p (2 + 2 + K) Psi / Nd = 1.9 GB.
TEST(TrainingMemory, ZeroPaperFigureOne) {
  const double psi = 7.5e9;
  const double expected_gb[4] = {120.0, 31.4, 16.6, 1.9};
  const double exact[4] = {16 * psi, 4 * psi + 12 * psi / 64, 2 * psi + 14 * psi / 64, 16 * psi / 64};
  for (int stage = 0; stage <= 3; ++stage) {
    const ModelStateBytes b = ModelStateMemory(psi, 64, stage, 2, 2, AdamStateBytes(2));
    EXPECT_DOUBLE_EQ(b.total(), exact[stage]) << "stage " << stage;
    EXPECT_DOUBLE_EQ(std::round(b.total() / 1e8) / 10, expected_gb[stage]) << "stage " << stage;
  }
  // Stage 1 shards only the optimizer state; 2 the gradients too; 3 everything.
  const ModelStateBytes s2 = ModelStateMemory(psi, 64, 2, 2, 2, 12);
  EXPECT_DOUBLE_EQ(s2.weights, 2 * psi);
  EXPECT_DOUBLE_EQ(s2.gradients, 2 * psi / 64);
  EXPECT_DOUBLE_EQ(s2.optimizer, 12 * psi / 64);
  EXPECT_EQ(AdamStateBytes(4), 8);  // fp32 weights need no master copy
}

// A GPT-3 175B layer (GeLU, f = 4h, standard attention).
ModelSpec Gpt3Layer() {
  ModelSpec m;
  m.name = "gpt";
  m.layers = 96;
  m.hidden = 12288;
  m.heads = 96;
  m.ffn_hidden = 4 * 12288;
  m.gated_mlp = false;
  m.vocab = 50257;
  m.seq_len = 2048;
  return m;
}

// Korthikanti et al. (arXiv:2205.05198) Table 2, s = 2048, b = 1,
// h = 12288, a = 96, t = 8: s b h = 25,165,824 and 5 a s / h = 80.
//   no parallelism   sbh (34 + 80)          = 2,868,903,936
//   TP               sbh (10 + 24/8 + 80/8) = sbh x 23 = 578,813,952
//   TP + SP          sbh (34 + 80) / 8      = 358,612,992
//   TP + selective   sbh (10 + 24/8)        = sbh x 13 = 327,155,712
//   TP + SP + sel.   sbh x 34 / 8           = 106,954,752
//   full recompute   2 sbh                  = 50,331,648
TEST(TrainingMemory, KorthikantiTableTwoOnAGpt3Layer) {
  const ModelSpec m = Gpt3Layer();
  auto at = [&](int tp, bool sp, Recompute r) { return LayerActivationBytes(m, 0, 2048, 1, tp, sp, r, 2); };
  EXPECT_DOUBLE_EQ(at(1, false, Recompute::kNone), 2'868'903'936.0);
  EXPECT_DOUBLE_EQ(at(8, false, Recompute::kNone), 578'813'952.0);
  EXPECT_DOUBLE_EQ(at(8, true, Recompute::kNone), 358'612'992.0);
  EXPECT_DOUBLE_EQ(at(8, false, Recompute::kSelective), 327'155'712.0);
  EXPECT_DOUBLE_EQ(at(8, true, Recompute::kSelective), 106'954'752.0);
  EXPECT_DOUBLE_EQ(at(8, true, Recompute::kFull), 50'331'648.0);
  // Linear in the micro-batch; SP on one GPU is no SP.
  EXPECT_DOUBLE_EQ(LayerActivationBytes(m, 0, 2048, 4, 8, true, Recompute::kNone, 2), 4 * 358'612'992.0);
  EXPECT_DOUBLE_EQ(at(1, true, Recompute::kNone), at(1, false, Recompute::kNone));
}

// Llama 3 70B (h 8192, 64 heads of 128, 8 KV heads, SwiGLU 28672, vocab
// 128256 untied, 80 layers), TP 8 x PP 4 x DP 8, ZeRO-1, bf16 weights, fp32
// gradients, s = 8192, b = 1, global batch 128 (m = 16), SP + selective.
// Per layer per GPU: attention (8192^2 + 2 x 8192 x 1024 + 8192^2) / 8 =
// 18,874,368; MLP 3 x 8192 x 28672 / 8 = 88,080,384; norms 2 x 8192 =
// 16,384 (not split): 106,971,136; 20 layers 2,139,422,720. Embedding
// 128256 x 8192 / 8 = 131,334,144 on stage 0; the output layer the same
// plus the final norm 8192 on stage 3:
//   stage 0: 2,270,756,864   stages 1, 2: 2,139,422,720   stage 3: 2,270,765,056
// Stage 3's model states: weights 2 B = 4,541,530,112; gradients 4 B =
// 9,083,060,224; Adam 12 B / 8 = 3,406,147,584 (6 + 12/8 = 7.5 B per parameter,
// Megatron's distributed-optimizer figure).
// Activations: per layer s b h (10 + 8 + 6 x 28672/8192) / 8 = 67,108,864 x
// 39 / 8 = 327,155,712; stage 0 keeps 4 micro-batches of 20 layers plus,
// per micro-batch, token ids 8 s b = 65,536 and the embedding's dropout mask
// s b h / 8 = 8,388,608: 26,172,456,960 + 33,816,576 = 26,206,273,536.
// Stage 0's total 17,030,676,480 + 26,206,273,536 = 43,236,950,016 is the
// worst and fits 80 GB.
TEST(TrainingMemory, Llama70bTp8Pp4ZeroOneByHand) {
  Result<ModelSpec> m = FindModel("llama3-70b");
  ASSERT_TRUE(m.ok());
  ParallelismSpec p = Par(8, 4, 8);
  p.sequence_parallel = true;
  TrainingMemoryOptions o;
  o.zero_stage = 1;
  o.recompute = Recompute::kSelective;
  Result<TrainingMemory> r = EstimateTrainingMemory(*m, p, GlobalBatch(128), o, 80'000'000'000);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->stages.size(), 4u);
  EXPECT_EQ(r->stages[0].params.dense, 2'270'756'864);
  EXPECT_EQ(r->stages[1].params.dense, 2'139'422'720);
  EXPECT_EQ(r->stages[2].params.dense, 2'139'422'720);
  EXPECT_EQ(r->stages[3].params.dense, 2'270'765'056);
  const StageMemory& last = r->stages[3];
  EXPECT_EQ(last.weights_bytes, 4'541'530'112u);
  EXPECT_EQ(last.gradients_bytes, 9'083'060'224u);
  EXPECT_EQ(last.optimizer_bytes, 3'406'147'584u);
  EXPECT_EQ(last.in_flight, 1);
  const StageMemory& first = r->stages[0];
  EXPECT_EQ(first.in_flight, 4);
  EXPECT_EQ(first.activations_bytes, 26'206'273'536u);
  EXPECT_EQ(first.total_bytes(), 43'236'950'016u);
  EXPECT_EQ(r->worst_stage, 0);
  EXPECT_TRUE(r->fits());
}

// With fewer micro-batches than stages, 1F1B keeps only m in flight.
TEST(TrainingMemory, InFlightMicroBatchesAreCappedByTheirCount) {
  Result<ModelSpec> m = FindModel("llama3-70b");
  ASSERT_TRUE(m.ok());
  Result<TrainingMemory> r = EstimateTrainingMemory(*m, Par(8, 4, 8), GlobalBatch(16), {}, 80'000'000'000);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->stages[0].in_flight, 2);  // m = 16 / 8
  EXPECT_EQ(r->stages[2].in_flight, 2);
  EXPECT_EQ(r->stages[3].in_flight, 1);
}

// Conservation: with tp = 1 and untied embeddings, the stages' parameters
// add up to the whole model's (CountParameters), experts counted ep times.
TEST(TrainingMemory, StagesHoldTheWholeModelOnce) {
  for (const char* name : {"llama3-70b", "llama3-8b", "deepseek-v3"}) {
    Result<ModelSpec> m = FindModel(name);
    ASSERT_TRUE(m.ok());
    const int ep = m->moe() ? 8 : 1;
    ParallelismSpec p = Par(1, 1, 8, ep);
    int64_t sum = 0;
    const StageParams s = StageParameters(*m, p, 0, 0, m->layers);
    sum += s.dense + s.expert * ep;
    EXPECT_EQ(sum, CountParameters(*m).total) << name;
  }
  Result<ModelSpec> m = FindModel("llama3-70b");
  ASSERT_TRUE(m.ok());
  const ParallelismSpec p = Par(1, 4, 1);
  int64_t sum = 0;
  for (int s = 0; s < 4; ++s) sum += StageParameters(*m, p, s, 20 * s, 20).dense;
  EXPECT_EQ(sum, CountParameters(*m).total);
}

// The step builder counts the gradients each stage reduces its own way
// (per backward node); both must agree.
TEST(TrainingMemory, StageParametersMatchTheTrainingStep) {
  Result<ModelSpec> m = FindModel("llama3-8b");
  ASSERT_TRUE(m.ok());
  for (const ParallelismSpec& p : {Par(8, 4, 1), Par(2, 2, 2), Par(4, 1, 2)}) {
    ClusterShape c;
    c.gpus = p.tp * p.pp * p.dp;
    c.gpus_per_server = 8;
    ParallelismSpec coarse = p;
    coarse.layers_per_node = 8;
    Result<TrainingStep> step = BuildTrainingStep(*m, coarse, GlobalBatch(8), c);
    ASSERT_TRUE(step.ok()) << step.error().message;
    const std::vector<int> counts = StageLayerCounts(*m, p);
    int first = 0;
    for (int s = 0; s < p.pp; ++s) {
      const StageParams sp = StageParameters(*m, p, s, first, counts[static_cast<size_t>(s)]);
      EXPECT_EQ(sp.dense + sp.expert, step->stage_params_per_gpu[static_cast<size_t>(s)]) << "stage " << s;
      first += counts[static_cast<size_t>(s)];
    }
  }
}

// GPT-3 175B on 16 GPUs (TP 8 x PP 2): 174.6B / 16 = ~10.9B parameters per
// GPU at 18 bytes each is ~196 GB of model states alone: it cannot fit.
TEST(TrainingMemory, Gpt3On16GpusDoesNotFit) {
  Result<ModelSpec> m = FindModel("gpt3-175b");
  ASSERT_TRUE(m.ok());
  Result<TrainingMemory> r = EstimateTrainingMemory(*m, Par(8, 2, 1), GlobalBatch(8), {}, 80'000'000'000);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->fits());
  EXPECT_GT(r->worst().weights_bytes + r->worst().gradients_bytes + r->worst().optimizer_bytes, 190'000'000'000u);
  // ZeRO-3 over DP = 1 shards nothing but adds the gathered-layer buffers:
  // two layers of 12 h^2 / 8 parameters (+ norms) at 2 bytes.
  TrainingMemoryOptions z3;
  z3.zero_stage = 3;
  Result<TrainingMemory> r3 = EstimateTrainingMemory(*m, Par(8, 2, 1), GlobalBatch(8), z3, 80'000'000'000);
  ASSERT_TRUE(r3.ok());
  const uint64_t layer = 12ull * 12288 * 12288 / 8 + 2 * 12288;
  EXPECT_EQ(r3->stages[0].buffer_bytes, 2 * layer * 2);
}

TEST(TrainingMemory, ExpertStatesShardOverTheExpertDataParallelGroup) {
  Result<ModelSpec> m = FindModel("deepseek-v3");
  ASSERT_TRUE(m.ok());
  TrainingMemoryOptions o;
  o.zero_stage = 1;
  Result<TrainingMemory> r = EstimateTrainingMemory(*m, Par(8, 1, 16, 8), GlobalBatch(32), o, 80'000'000'000);
  ASSERT_TRUE(r.ok());
  const StageMemory& s = r->stages[0];
  // Adam: dense over 16 ranks, experts over 16 / 8 = 2.
  const double expected = 12.0 * static_cast<double>(s.params.dense) / 16 + 12.0 * static_cast<double>(s.params.expert) / 2;
  EXPECT_EQ(s.optimizer_bytes, static_cast<uint64_t>(std::llround(expected)));
}

TEST(TrainingMemory, ErrorsNameTheField) {
  Result<ModelSpec> m = FindModel("llama3-8b");
  ASSERT_TRUE(m.ok());
  TrainingMemoryOptions o;
  o.zero_stage = 4;
  Result<TrainingMemory> r = EstimateTrainingMemory(*m, Par(8, 1, 1), GlobalBatch(8), o, 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message.rfind("zero: 4", 0), 0u) << r.error().message;
  Result<TrainingMemory> batch = EstimateTrainingMemory(*m, Par(1, 1, 3), GlobalBatch(8), {}, 1);
  ASSERT_FALSE(batch.ok());
  EXPECT_NE(batch.error().message.find("training.global_batch"), std::string::npos);
}

}  // namespace
}  // namespace aifabric
