// The training-step generator: FLOPs against the 6N formula, bytes per
// parallelism dimension, the 1F1B order in the graph, node counts, and
// errors that name the field. Hand-worked numbers in the comments.
#include "workload/training_step.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "workload/model_costs.h"
#include "workload/workload_test_util.h"

namespace aifabric {
namespace {

using workload_testing::Contains;

using workload_testing::Tiny;

// Tiny with MoE layers 1, 3, 5, 7 (first dense, then every other): 8 experts
// of width 1024 (GeLU), top-2, no shared expert.
ModelSpec TinyMoe() {
  ModelSpec m = Tiny();
  m.name = "tiny-moe";
  m.experts = 8;
  m.top_k = 2;
  m.expert_ffn_hidden = 1024;
  m.first_dense_layers = 1;
  m.moe_layer_freq = 2;
  return m;
}

using workload_testing::Par;

TrainingSpec Batch(int global_batch) {
  TrainingSpec t;
  t.global_batch = global_batch;
  return t;
}

// The sum of S per (dimension, op) over a graph's nodes.
std::map<std::pair<CommDimension, CollectiveOp>, uint64_t> BytesByOp(const JobGraph& g) {
  std::map<std::pair<CommDimension, CollectiveOp>, uint64_t> out;
  for (JobNodeIndex i = 0; i < g.size(); ++i) {
    const JobNode& n = g.node(i);
    if (n.kind == JobNodeKind::kCollective) out[{n.dimension, n.op}] += n.bytes;
  }
  return out;
}

std::vector<std::vector<JobNodeIndex>> Predecessors(const JobGraph& g) {
  std::vector<std::vector<JobNodeIndex>> pred(g.size());
  for (JobNodeIndex i = 0; i < g.size(); ++i) {
    for (JobNodeIndex s : g.successors(i)) pred[s].push_back(i);
  }
  return pred;
}

TEST(TrainingStep, FlopsMatchSixNPlusAttention) {
  // Llama 3 8B at seq 1024, 8 sequences on TP2 PP2 DP2 (8 GPUs).
  // N_matmul = 32 x (41,943,040 + 176,160,768) + head 128256 x 4096 = 7,504,658,432
  // (the input embedding is a lookup: no FLOPs).
  // FLOPs/token = 6 N + 12 l s h = 45,027,950,592 + 12 x 32 x 1024 x 4096 (1,610,612,736) = 46,638,563,328.
  // Tokens = 8 x 1024 = 8,192 -> 382,063,110,782,976 FLOPs per step.
  const ModelSpec m = *FindModel("llama3-8b");
  ParallelismSpec p = Par(2, 2, 2);
  TrainingSpec t = Batch(8);
  t.seq_len = 1024;
  Result<TrainingStep> s = BuildTrainingStep(m, p, t, {8, 8});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->tokens_per_step, 8192u);
  EXPECT_DOUBLE_EQ(TrainingFlopsPerToken(m, 1024), 46'638'563'328.0);
  EXPECT_DOUBLE_EQ(s->model_flops_per_step, 382'063'110'782'976.0);
  double node_flops = 0;
  for (JobNodeIndex i = 0; i < s->graph.size(); ++i) node_flops += s->graph.node(i).flops;
  EXPECT_NEAR(node_flops / s->model_flops_per_step, 1.0, 1e-12);
  // A compute node lasts its FLOPs / (989.4 TF x 0.60).
  for (JobNodeIndex i = 0; i < s->graph.size(); ++i) {
    const JobNode& n = s->graph.node(i);
    if (n.kind != JobNodeKind::kCompute || n.flops == 0) continue;
    EXPECT_NEAR(n.duration.seconds(), n.flops / (989.4e12 * 0.60), 1e-12);
    break;
  }
}

TEST(TrainingStep, Gpt3FlopsMatchMegatronsFormula) {
  // Megatron (arXiv:2104.04473 5.1) without recompute: 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) per
  // step of B sequences; per token 72 x 96 x 12288^2 x (1 + 2048/73728 + 50257/14155776)
  // = 1,043,677,052,928 x 1.0313329... = 1.0764e12.
  const ModelSpec m = *FindModel("gpt3-175b");
  const double h = 12288, l = 96, s = 2048, v = 50257;
  const double megatron = 72 * l * h * h * (1 + s / (6 * h) + v / (12 * l * h));
  EXPECT_NEAR(TrainingFlopsPerToken(m, 2048) / megatron, 1.0, 1e-12);
}

TEST(TrainingStep, BytesPerDimension) {
  // Tiny on TP2 PP2 DP2, micro-batch 1, global batch 8 -> m = 8 / (1 x 2) = 4.
  // act = b s h dtype = 1 x 512 x 1024 x 2 = 1,048,576.
  ParallelismSpec p = Par(2, 2, 2);
  TrainingSpec t = Batch(8);
  Result<TrainingStep> s = BuildTrainingStep(Tiny(), p, t, {8, 4});
  ASSERT_TRUE(s.ok()) << s.error().message;
  ASSERT_EQ(s->micro_batches, 4);
  const uint64_t act = 1'048'576;
  // TP per DP replica: 4 all-reduces per layer (2 fwd, 2 bwd) x 8 layers x m, plus the
  // embedding's forward all-reduce and the output layer's backward all-reduce per
  // micro-batch: (4 x 8 + 2) x 4 = 136 all-reduces of act; x dp 2 = 272 x act.
  EXPECT_EQ(s->bytes(CommDimension::kTensor), 272 * act);
  // PP per pipeline (one per (tp, dp) pair, 4 of them): 2 x (p - 1) x m x act = 8 x act; x 4.
  EXPECT_EQ(s->bytes(CommDimension::kPipeline), 32 * act);
  // DP: each GPU reduces its gradients (fp32) once. Parameters per GPU:
  // stage 0: 4 layers x (4,194,304 / 2 + 8,388,608 / 2 + 2,048) + embedding 32000 x 1024 / 2
  //        = 25,174,016 + 16,384,000 = 41,558,016;
  // stage 1: 25,174,016 + output 16,384,000 + final norm 1,024 = 41,559,040.
  ASSERT_EQ(s->stage_params_per_gpu.size(), 2u);
  EXPECT_EQ(s->stage_params_per_gpu[0], 41'558'016);
  EXPECT_EQ(s->stage_params_per_gpu[1], 41'559'040);
  // Two DP groups (one per TP rank) per stage: 2 x 4 x (41,558,016 + 41,559,040) = 664,936,448.
  EXPECT_EQ(s->bytes(CommDimension::kData), 664'936'448u);
  // Buckets of 25 MiB = 6,553,600 fp32 gradients: stage 0 needs ceil(41,558,016 / 6,553,600) = 7.
  size_t buckets = 0;
  const std::vector<GpuId> stage0_group{0, 2};  // TP rank 0 of DP ranks 0, 1 (gpu = tp + 2 (dp + 2 stage))
  for (JobNodeIndex i = 0; i < s->graph.size(); ++i) {
    const JobNode& n = s->graph.node(i);
    if (n.kind != JobNodeKind::kCollective || n.dimension != CommDimension::kData) continue;
    EXPECT_EQ(n.op, CollectiveOp::kAllReduce);
    EXPECT_LE(n.bytes, 25u << 20);
    if (s->graph.group(n.group) == stage0_group) ++buckets;
  }
  EXPECT_EQ(buckets, 7u);
  EXPECT_EQ(s->bytes(CommDimension::kExpert), 0u);
}

TEST(TrainingStep, SequenceParallelAndDistributedOptimizerBytes) {
  ParallelismSpec p = Par(2, 2, 2);
  p.sequence_parallel = true;
  p.distributed_optimizer = true;
  TrainingSpec t = Batch(8);
  Result<TrainingStep> s = BuildTrainingStep(Tiny(), p, t, {8, 4});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const uint64_t act = 1'048'576;
  const auto by_op = BytesByOp(s->graph);
  // SP: each all-reduce becomes a reduce-scatter + all-gather of the same S. Per replica
  // and micro-batch: 8 layers x 4 of each, the embedding's RS (fwd) + AG (bwd), the
  // head's AG (fwd) + RS (bwd): 34 RS and 34 AG; x m 4 x dp 2 = 272 each.
  EXPECT_EQ((by_op.at({CommDimension::kTensor, CollectiveOp::kReduceScatter})), 272 * act);
  EXPECT_EQ((by_op.at({CommDimension::kTensor, CollectiveOp::kAllGather})), 272 * act);
  EXPECT_EQ(by_op.count({CommDimension::kTensor, CollectiveOp::kAllReduce}), 0u);
  // Pipeline sends carry the sequence shard: act / tp.
  EXPECT_EQ(s->bytes(CommDimension::kPipeline), 32 * act / 2);
  // Distributed optimizer: reduce-scatter the fp32 gradients (same bytes as the
  // all-reduce above), all-gather the bf16 parameters (half).
  EXPECT_EQ((by_op.at({CommDimension::kData, CollectiveOp::kReduceScatter})), 664'936'448u);
  EXPECT_EQ((by_op.at({CommDimension::kData, CollectiveOp::kAllGather})), 664'936'448u / 2);
}

TEST(TrainingStep, ExpertAllToAllBytes) {
  // TinyMoe on TP2 PP1 DP4 EP2, global batch 8 -> m = 2. Per MoE layer and micro-batch:
  // dispatch + combine forward, the same backward, each S = b s h top_k dtype / tp
  // = 1,048,576 x 2 / 2 = 1,048,576. 4 MoE layers x 4 x m 2 = 32 all-to-alls per EP group;
  // EP groups: tp 2 x dp/ep 2 = 4 -> 128 x 1,048,576.
  ParallelismSpec p = Par(2, 1, 4, 2);
  TrainingSpec t = Batch(8);
  Result<TrainingStep> s = BuildTrainingStep(TinyMoe(), p, t, {8, 8});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->bytes(CommDimension::kExpert), 128u * 1'048'576);
  // Expert gradients: 4 layers x 8/2 experts x 2 x 1024 x 1024 / tp 2 = 16,777,216 per GPU,
  // reduced over the expert-DP group (dp / ep = 2 GPUs: DP ranks 0 and 2), fp32.
  uint64_t expert_dp = 0;
  const std::vector<GpuId> edp{0, 4};  // TP rank 0 of DP ranks 0 and 2
  for (JobNodeIndex i = 0; i < s->graph.size(); ++i) {
    const JobNode& n = s->graph.node(i);
    if (n.kind == JobNodeKind::kCollective && n.dimension == CommDimension::kData && s->graph.group(n.group) == edp) {
      expert_dp += n.bytes;
    }
  }
  EXPECT_EQ(expert_dp, 16'777'216u * 4);
  // EP groups are DP ranks {0,1} and {2,3} of one TP rank: GPUs {0,2} and {4,6} for TP rank 0.
  bool found = false;
  for (JobNodeIndex i = 0; i < s->graph.size() && !found; ++i) {
    const JobNode& n = s->graph.node(i);
    if (n.kind == JobNodeKind::kCollective && n.dimension == CommDimension::kExpert) {
      found = s->graph.group(n.group) == std::vector<GpuId>{0, 2};
    }
  }
  EXPECT_TRUE(found);
}

TEST(TrainingStep, OneFOneBOrderAndDependenciesInTheGraph) {
  // 4 layers on PP4 (one per stage), TP1 DP1, m = 8: each pass of a micro-batch is two
  // compute nodes per GPU (attention, MLP). Stage 0 is GPU 0, stage 3 GPU 3.
  ModelSpec m = Tiny();
  m.layers = 4;
  ParallelismSpec p = Par(1, 4, 1);
  TrainingSpec t = Batch(8);
  Result<TrainingStep> s = BuildTrainingStep(m, p, t, {4, 4});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const JobGraph& g = s->graph;
  const auto pred = Predecessors(g);
  // The compute nodes of a GPU, in the order they were issued, and their phases.
  auto sequence = [&](GpuId gpu) {
    std::string seq;
    std::vector<JobNodeIndex> nodes;
    for (JobNodeIndex i = 0; i < g.size(); ++i) {
      const JobNode& n = g.node(i);
      const std::string& label = g.label(n.label);
      if (n.kind != JobNodeKind::kCompute || n.gpu != gpu) continue;
      if (label == "optimizer" || label == "fwd head" || label == "bwd head") continue;
      seq += label[0] == 'f' ? "F" : "B";
      nodes.push_back(i);
    }
    return std::make_pair(seq, nodes);
  };
  auto [seq0, nodes0] = sequence(0);
  auto [seq3, nodes3] = sequence(3);
  // Stage 0: F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7 (two nodes each);
  // stage 3: F0 B0 F1 B1 ... F7 B7.
  EXPECT_EQ(seq0, "FFFFFFFFBBFFBBFFBBFFBBFFBBBBBBBB");
  EXPECT_EQ(seq3, "FFBBFFBBFFBBFFBBFFBBFFBBFFBBFFBB");
  // Each compute node of stage 0 depends on the previous one: one kernel at a time, in order.
  for (size_t k = 1; k < nodes0.size(); ++k) {
    const auto& p_k = pred[nodes0[k]];
    EXPECT_NE(std::find(p_k.begin(), p_k.end(), nodes0[k - 1]), p_k.end()) << k;
  }
  // Stage 0's backward of micro-batch 0 (its 9th node) waits for the gradient from stage 1.
  bool from_stage1 = false;
  for (JobNodeIndex q : pred[nodes0[8]]) {
    const JobNode& n = g.node(q);
    from_stage1 = from_stage1 || (n.kind == JobNodeKind::kTransfer && n.gpu == 1 && n.peer == 0);
  }
  EXPECT_TRUE(from_stage1);
  // Stage 3's first forward waits for activations from stage 2, sent after stage 2's first forward.
  bool from_stage2 = false;
  for (JobNodeIndex q : pred[nodes3[0]]) {
    const JobNode& n = g.node(q);
    if (n.kind != JobNodeKind::kTransfer || n.gpu != 2) continue;
    from_stage2 = true;
    ASSERT_EQ(pred[q].size(), 1u);
    EXPECT_EQ(g.label(g.node(pred[q][0]).label), "fwd L2 mlp");
  }
  EXPECT_TRUE(from_stage2);
}

// The longest path through the graph when communication takes no time: the
// step time on an infinitely fast network.
double CriticalPathSeconds(const JobGraph& g) {
  std::vector<uint32_t> in(g.size());
  std::vector<double> finish(g.size(), 0), start(g.size(), 0);
  std::vector<JobNodeIndex> ready;
  for (JobNodeIndex i = 0; i < g.size(); ++i) {
    in[i] = g.in_degree(i);
    if (in[i] == 0) ready.push_back(i);
  }
  double end = 0;
  while (!ready.empty()) {
    const JobNodeIndex i = ready.back();
    ready.pop_back();
    const JobNode& n = g.node(i);
    finish[i] = start[i] + (n.kind == JobNodeKind::kCompute ? n.duration.seconds() : 0);
    end = std::max(end, finish[i]);
    for (JobNodeIndex s : g.successors(i)) {
      start[s] = std::max(start[s], finish[i]);
      if (--in[s] == 0) ready.push_back(s);
    }
  }
  return end;
}

TEST(TrainingStep, FreeCommunicationLeavesTheOneFOneBBubble) {
  // PP4, one layer per stage, m = 8, vocabulary 1 (no head to speak of), an optimizer of
  // ~0 time: 1F1B takes (m + p - 1)(t_f + t_b) = 11 x 3 t_f, t_f = one layer's forward:
  // (2 x 12,582,912 params + 4 x 512 x 1024 scores) x 512 tokens / (989.4 TF x 0.6).
  ModelSpec m = Tiny();
  m.layers = 4;
  m.vocab = 1;
  TrainingSpec t = Batch(8);
  t.hbm_bytes_per_s = 1e30;
  Result<TrainingStep> s = BuildTrainingStep(m, Par(1, 4, 1), t, {4, 4});
  ASSERT_TRUE(s.ok()) << s.error().message;
  const double t_f = (2.0 * 12'582'912 + 4.0 * 512 * 1024) * 512 / (989.4e12 * 0.6);
  EXPECT_NEAR(CriticalPathSeconds(s->graph) / (11 * 3 * t_f), 1.0, 1e-4);
  // Without pipelining (PP1 on one GPU) the same work is m x 4 layers x 3 t_f, no bubble.
  Result<TrainingStep> flat = BuildTrainingStep(m, Par(1, 1, 1), t, {1, 1});
  ASSERT_TRUE(flat.ok());
  EXPECT_NEAR(CriticalPathSeconds(flat->graph) / (8 * 4 * 3 * t_f), 1.0, 1e-4);
}

TEST(TrainingStep, BucketsWaitForTheirGradientsOrForTheEndOfBackward) {
  ParallelismSpec p = Par(1, 1, 2);
  p.bucket_bytes = 64u << 20;
  TrainingSpec t = Batch(4);
  for (bool overlap : {true, false}) {
    p.overlap_grad_reduce = overlap;
    Result<TrainingStep> s = BuildTrainingStep(Tiny(), p, t, {2, 2});
    ASSERT_TRUE(s.ok()) << s.error().message;
    const auto pred = Predecessors(s->graph);
    std::vector<std::string> first_bucket_deps;
    for (JobNodeIndex i = 0; i < s->graph.size(); ++i) {
      const JobNode& n = s->graph.node(i);
      if (n.kind != JobNodeKind::kCollective || n.dimension != CommDimension::kData) continue;
      for (JobNodeIndex q : pred[i]) first_bucket_deps.push_back(s->graph.label(s->graph.node(q).label));
      break;
    }
    // 64 MiB = 16,777,216 fp32 gradients. Backward completes: head 32,769,024 (the
    // untied output layer + final norm), so the first bucket closes there with overlap;
    // without, it waits for the embedding's gradient at the end of backward (layer 0's attention).
    ASSERT_EQ(first_bucket_deps.size(), 2u);  // one node per DP rank
    for (const std::string& d : first_bucket_deps) EXPECT_EQ(d, overlap ? "bwd head" : "bwd L0 attn");
  }
}

TEST(TrainingStep, RecomputeAddsTimeAndTensorTrafficButNoUsefulFlops) {
  ParallelismSpec p = Par(2, 1, 1);
  TrainingSpec t = Batch(2);
  Result<TrainingStep> base = BuildTrainingStep(Tiny(), p, t, {2, 2});
  t.recompute = true;
  Result<TrainingStep> rc = BuildTrainingStep(Tiny(), p, t, {2, 2});
  ASSERT_TRUE(base.ok() && rc.ok());
  EXPECT_DOUBLE_EQ(rc->model_flops_per_step, base->model_flops_per_step);
  EXPECT_EQ(rc->max_gpu_useful_compute, base->max_gpu_useful_compute);
  EXPECT_GT(rc->max_gpu_compute, base->max_gpu_compute);
  // + the recomputed forward's 2 all-reduces per layer per micro-batch: 8 x 2 x m 2 x act.
  EXPECT_EQ(rc->bytes(CommDimension::kTensor) - base->bytes(CommDimension::kTensor), 32u * 1'048'576);
}

TEST(TrainingStep, CoarseningKeepsTotalsWithFewerNodes) {
  ParallelismSpec p = Par(2, 2, 2);
  TrainingSpec t = Batch(8);
  Result<TrainingStep> fine = BuildTrainingStep(TinyMoe(), p, t, {8, 4});
  p.layers_per_node = 4;
  Result<TrainingStep> coarse = BuildTrainingStep(TinyMoe(), p, t, {8, 4});
  ASSERT_TRUE(fine.ok() && coarse.ok());
  EXPECT_LT(coarse->graph.size(), fine->graph.size() / 3);
  EXPECT_EQ(coarse->comm_bytes, fine->comm_bytes);
  EXPECT_EQ(coarse->stage_params_per_gpu, fine->stage_params_per_gpu);
  EXPECT_NEAR(coarse->max_gpu_compute.seconds() / fine->max_gpu_compute.seconds(), 1.0, 1e-6);  // ps rounding
}

TEST(TrainingStep, NodeCounts) {
  // Tiny on TP2 PP2 DP2, m = 4, no SP. Per GPU: 4 layers x 4 compute nodes x m = 64, the
  // last stage + 2 head nodes x m = 8, + 1 optimizer: 4 x 65 + 4 x 73 = 552 compute.
  // TP all-reduces per TP group (2 per stage): (4 layers x 4 + 1 embedding or head) x m = 68,
  // x 4 groups = 272. DP buckets: stage 0: 7 per group, stage 1: ceil(41,559,040 / 6,553,600) = 7;
  // 4 groups -> 28. Transfers: 2 x (p-1) x m x tp x dp = 32.
  ParallelismSpec p = Par(2, 2, 2);
  TrainingSpec t = Batch(8);
  Result<TrainingStep> s = BuildTrainingStep(Tiny(), p, t, {8, 4});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->compute_nodes, 552u);
  EXPECT_EQ(s->collective_nodes, 272u + 28u);
  EXPECT_EQ(s->transfer_nodes, 32u);
  EXPECT_EQ(s->graph.size(), 552u + 300u + 32u);
}

TEST(TrainingStep, Gpt3On1024GpusIsTractable) {
  // GPT-3 175B, TP8 PP8 DP16, global batch 256 -> m = 16, 12 layers per stage.
  // compute: 1024 GPUs x 16 x 12 x 4 + 128 last-stage GPUs x 16 x 2 (head) + 1024 optimizer
  //        = 786,432 + 4,096 + 1,024 = 791,552;
  // TP all-reduces: 128 groups x 16 x 48 + (embedding, head) 2 x 16 x 16 groups = 98,816;
  // pipeline sends 128 pipelines x 2 x 7 x 16 = 28,672; tied-embedding all-reduces 128;
  // DP buckets: 26,784 (64 groups, ~10.9 GB of fp32 gradients each in 25 MiB buckets).
  Result<TrainingStep> s = BuildTrainingStep(*FindModel("gpt3-175b"), Par(8, 8, 16), Batch(256), {1024, 8});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->micro_batches, 16);
  EXPECT_EQ(s->compute_nodes, 791'552u);
  EXPECT_EQ(s->transfer_nodes, 28'672u);
  EXPECT_EQ(s->collective_nodes, 98'816u + 128u + 26'784u);
  EXPECT_EQ(s->graph.size(), 945'952u);
}

TEST(TrainingStep, DeepSeekV3WithUnevenStages) {
  // 61 layers over 4 stages [16, 15, 15, 15]; TP2, DP8, EP8 on 64 GPUs; coarse nodes.
  ParallelismSpec p = Par(2, 4, 8, 8);
  p.stage_layers = {16, 15, 15, 15};
  p.layers_per_node = 4;
  TrainingSpec t = Batch(64);
  Result<TrainingStep> s = BuildTrainingStep(*FindModel("deepseek-v3"), p, t, {64, 8});
  ASSERT_TRUE(s.ok()) << s.error().message;
  // 58 MoE layers x 4 all-to-alls x m 8 x (tp 2 x dp/ep 1 = 2 EP groups), each
  // S = 4096 x 7168 x 8 x 2 / 2 = 234,881,024.
  EXPECT_EQ(s->bytes(CommDimension::kExpert), uint64_t{58} * 4 * 8 * 2 * 234'881'024);
  // dp / ep = 1: expert gradients need no reduction; the dense ones do.
  EXPECT_GT(s->bytes(CommDimension::kData), 0u);
}

TEST(TrainingStep, RankMapping) {
  // Megatron's order: gpu = tp + TP (dp + DP stage); the other: tp + TP (stage + PP dp).
  const TrainingRankLayout megatron(4, 2, 4, RankOrder::kTpDpPp);
  EXPECT_EQ(megatron.gpu(1, 2, 3), 3 + 4 * (2 + 4 * 1));
  const TrainingRankLayout pp_inner(4, 2, 4, RankOrder::kTpPpDp);
  EXPECT_EQ(pp_inner.gpu(1, 2, 3), 3 + 4 * (1 + 2 * 2));
}

TEST(TrainingStep, ErrorsNameTheField) {
  auto error = [](const ModelSpec& m, const ParallelismSpec& p, const TrainingSpec& t, ClusterShape c) {
    Result<TrainingStep> s = BuildTrainingStep(m, p, t, c);
    return s.ok() ? std::string("ok") : s.error().message;
  };
  const TrainingSpec t = Batch(8);
  EXPECT_TRUE(Contains(error(Tiny(), Par(3, 1, 8), t, {24, 8}), "parallelism.tp: 3 does not divide cluster.gpus_per_server = 8"));
  EXPECT_TRUE(Contains(error(Tiny(), Par(2, 2, 2), t, {16, 8}), "parallelism: tp x pp x dp = 2 x 2 x 2 = 8 but cluster.gpus = 16"));
  EXPECT_TRUE(Contains(error(Tiny(), Par(1, 3, 1), t, {3, 1}), "parallelism.pp: 3 stages do not split model.layers = 8"));
  ParallelismSpec cp = Par(1, 1, 1);
  cp.cp = 2;
  EXPECT_TRUE(Contains(error(Tiny(), cp, t, {1, 1}), "parallelism.cp: 2 is not supported"));
  EXPECT_TRUE(Contains(error(Tiny(), Par(1, 1, 2, 2), t, {2, 2}), "parallelism.ep: 2 needs a mixture-of-experts model"));
  EXPECT_TRUE(Contains(error(TinyMoe(), Par(1, 1, 3, 2), Batch(6), {3, 1}), "parallelism.ep: 2 does not divide parallelism.dp = 3"));
  EXPECT_TRUE(Contains(error(Tiny(), Par(1, 1, 4), Batch(6), {4, 4}), "training.global_batch: 6 sequences are not a multiple"));
  ParallelismSpec uneven = Par(1, 2, 1);
  uneven.stage_layers = {4, 5};
  EXPECT_TRUE(Contains(error(Tiny(), uneven, t, {2, 2}), "parallelism.stage_layers: the stages hold 9 layers"));
  EXPECT_TRUE(Contains(error(Tiny(), Par(1, 1, 1), Batch(0), {1, 1}), "training.global_batch: 0 must be >= 1"));
  TrainingSpec greedy = Batch(1);
  greedy.compute_efficiency = 2;
  EXPECT_TRUE(Contains(error(Tiny(), Par(1, 1, 1), greedy, {1, 1}), "training.compute_efficiency"));
  EXPECT_TRUE(Contains(error(Tiny(), Par(1, 1, 1), t, {12, 8}), "cluster.gpus: 12 must be a positive multiple"));
  ModelSpec odd = Tiny();
  odd.heads = 6;
  odd.head_dim = 128;
  EXPECT_TRUE(Contains(error(odd, Par(4, 1, 1), t, {4, 4}), "model.heads: 6 is not a multiple of parallelism.tp = 4"));
  ModelSpec broken = Tiny();
  broken.vocab = 0;
  EXPECT_TRUE(Contains(error(broken, Par(1, 1, 1), t, {1, 1}), "model.vocab: 0 must be > 0"));
}

}  // namespace
}  // namespace aifabric
