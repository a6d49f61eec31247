// Inference serving on the contention-free AlphaBetaNetwork (every
// transfer takes alpha + bytes / B): closed forms for one request's TTFT
// and TPOT (one replica, with pipeline stages, with disaggregation),
// queueing behind a full token budget, load sweeps and determinism.
#include "workload/inference_server.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "workload/alpha_beta_network.h"
#include "workload/test_topology.h"
#include "workload/inference_sweep.h"

namespace aifabric {
namespace {

using testing::AlphaBetaNetwork;

using testing::kAlpha;
using testing::kRate;

// A toy model with round numbers: attention params 2*h*a*d + 2*h*kv*d =
// 4 * 1024^2 = 4,194,304; MLP (2 matrices) 2 * 1024 * 4096 = 8,388,608;
// head_dim 128; KV heads per rank (tp 2) 4. A GPU of 1 PFLOP/s and
// 10 TB/s, both fully achieved.
InferenceSpec ToySpec() {
  InferenceSpec s;
  s.model.name = "toy";
  s.model.layers = 2;
  s.model.hidden = 1024;
  s.model.heads = 8;
  s.model.kv_heads = 8;
  s.model.ffn_hidden = 4096;
  s.model.vocab = 1000;
  s.model.mlp_matrices = 2;
  s.gpu.peak_flops = 1e15;
  s.gpu.hbm_bytes_per_s = 1e13;
  s.gpu.compute_efficiency = 1;
  s.gpu.memory_efficiency = 1;
  s.tp = 2;
  s.pp = 1;
  s.replicas = 1;
  s.protocol = CollectiveProtocol::kSimple;  // 3.4 us per step
  s.max_num_batched_tokens = 4096;
  return s;
}

// Prefill of 1,000 tokens on one rank of tp 2 (compute-bound):
//   attention: (2 * 4,194,304 * 1000 + 4 * 8 * 128 * 500,500) / 2 FLOPs
//              = 5,219,328,000 -> 5.219328 us
//   MLP:       2 * 8,388,608 * 1000 / 2 = 8,388,608,000 -> 8.388608 us
//   LM head:   bytes 1024 * 1000 * 2 / 2 = 1,024,000 -> 0.1024 us (memory)
//   TP all-reduce of 1000 * 1024 * 2 = 2,048,000 B over 2 GPUs, ring, one
//   channel: Simple's base latency 8.4 us, then 2 steps of 3.4 us + alpha +
//   1,024,000 B / B = 86.32 us -> 181.04 us
// Two layers, two all-reduces each:
//   TTFT = 2 * (5.219328 + 8.388608) + 0.1024 + 4 * 181.04 = 751.478272 us.
constexpr Time kPrefill = Time::FromPs(751'478'272);
// One decode step with 1,000 tokens cached (memory-bound):
//   attention bytes: 4,194,304 * 2 / 2 + 1001 * 2 * 4 * 128 * 2 = 6,244,352 -> 624.4352 ns
//   MLP bytes:       8,388,608 * 2 / 2 = 8,388,608 -> 838.8608 ns
//   LM head 102.4 ns; all-reduce of 2,048 B: 8.4 us + 2 * (3.4 us + 1 us +
//   81.92 ns) = 17,363.84 ns
//   TPOT = 2 * (624.4352 + 838.8608) + 102.4 + 4 * 17,363.84 = 72,484.352 ns.
constexpr Time kDecode = Time::FromPs(72'484'352);

struct ServingRun {
  explicit ServingRun(const InferenceSpec& spec, uint64_t seed = 1) : sim(seed) {
    result = RunInference(sim, net, layout, spec);
  }
  Simulator sim;
  AlphaBetaNetwork net{sim, kAlpha, kRate};
  ClusterLayout layout = testing_topology::GpuServers(2, 2);
  Result<InferenceResult> result = Error{"not run"};
};

InferenceSpec OneRequest(uint32_t input, uint32_t output) {
  InferenceSpec s = ToySpec();
  s.trace = {{0, input, output}};
  return s;
}

TEST(InferenceServer, LowLoadTtftIsPrefillComputePlusAllReduces) {
  ServingRun run(OneRequest(1000, 2));
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const InferenceRequestRecord& r = run.result->requests.at(0);
  EXPECT_EQ(r.first_token - r.arrival, kPrefill);
  // One decode iteration after the first token.
  EXPECT_EQ(r.finish - r.first_token, kDecode);
  EXPECT_NEAR(run.result->summary.tpot.p50_ms, kDecode.seconds() * 1e3, 1e-12);
  EXPECT_EQ(run.result->summary.iterations, 2u);
}

TEST(InferenceServer, AStragglerStretchesItsRanksKernels) {
  // GPU 1 (the replica's TP rank 1) at half speed for the whole run: each
  // of its kernels takes twice as long, and each all-reduce waits for it,
  // so TTFT and TPOT grow by one rank's compute (the communication is
  // unchanged):
  //   prefill compute 2 * (5.219328 + 8.388608) + 0.1024 = 27.318272 us,
  //   decode compute  2 * (624.4352 + 838.8608) + 102.4 = 3,028.992 ns.
  InferenceSpec spec = OneRequest(1000, 2);
  spec.slowdowns = ComputeSlowdowns({SlowWindow{.gpu = 1, .at = Time(), .factor = 0.5}});
  ServingRun run(spec);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const InferenceRequestRecord& r = run.result->requests.at(0);
  EXPECT_EQ(r.first_token - r.arrival, kPrefill + Time::FromPs(27'318'272));
  EXPECT_EQ(r.finish - r.first_token, kDecode + Time::FromPs(3'028'992));
}

TEST(InferenceServer, PipelineStagesAddActivationTransfersAndAGather) {
  // pp 2: layer 0 on server 0 (GPUs 0, 1), layer 1 on server 1 (GPUs 2, 3).
  // Between them each rank sends 2,048,000 / 2 B: 1 us + 81.92 us = 82.92 us,
  // then stage 1 all-gathers 2,048,000 B: 8.4 us of base latency and 1 step
  // of 3.4 + 1 + 81.92 = 86.32 us.
  // TTFT = 751.478272 + 82.92 + 8.4 + 86.32 = 929.118272 us.
  InferenceSpec s = OneRequest(1000, 1);
  s.pp = 2;
  ServingRun run(s);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const InferenceRequestRecord& r = run.result->requests.at(0);
  EXPECT_EQ(r.first_token - r.arrival, Time::FromPs(929'118'272));
  EXPECT_EQ(r.finish, r.first_token);
}

TEST(InferenceServer, DisaggregationAddsTheKvTransferToTtft) {
  // Prefill on server 0, decode on server 1. KV cache per rank: 1000 tokens
  // * 2 (K, V) * 2 layers * 4 heads * 128 * 2 B = 4,096,000 B: 1 us +
  // 327.68 us = 328.68 us, both ranks at once.
  // TTFT = 751.478272 + 328.68 = 1,080.158272 us; TPOT as before.
  InferenceSpec s = OneRequest(1000, 2);
  s.disaggregated = true;
  ServingRun run(s);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const InferenceRequestRecord& r = run.result->requests.at(0);
  EXPECT_EQ(r.first_token - r.arrival, Time::FromPs(1'080'158'272));
  EXPECT_EQ(r.finish - r.first_token, kDecode);
  EXPECT_EQ(r.replica, 0);
  EXPECT_EQ(r.decode_replica, 1);
  EXPECT_EQ(run.result->summary.kv_transfers, 1u);
}

TEST(InferenceServer, APromptWaitsWhenTheTokenBudgetIsFull) {
  // Two 1,000-token prompts at t = 0, a budget of 1,000 tokens: the second
  // waits for the first's prefill. TTFT 2 = 2 x 751.478272 us.
  InferenceSpec s = ToySpec();
  s.max_num_batched_tokens = 1000;
  s.trace = {{0, 1000, 1}, {0, 1000, 1}};
  ServingRun run(s);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result->requests[0].first_token, kPrefill);
  EXPECT_EQ(run.result->requests[1].first_token, kPrefill * 2);
  // With room for both they share one iteration, faster than two.
  s.max_num_batched_tokens = 2000;
  ServingRun together(s);
  ASSERT_TRUE(together.result.ok());
  EXPECT_EQ(together.result->requests[0].first_token, together.result->requests[1].first_token);
  EXPECT_LT(together.result->requests[1].first_token, kPrefill * 2);
}

TEST(InferenceServer, ChunkedPrefillSpreadsALongPromptOverIterations) {
  // A 1,000-token prompt with a 500-token budget takes two iterations.
  InferenceSpec s = OneRequest(1000, 1);
  s.max_num_batched_tokens = 500;
  ServingRun refused(s);
  ASSERT_FALSE(refused.result.ok());
  EXPECT_NE(refused.result.error().message.find("max_num_batched_tokens"), std::string::npos);
  s.chunked_prefill = true;
  ServingRun run(s);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result->summary.iterations, 2u);
  EXPECT_GT(run.result->requests[0].first_token, kPrefill);
}

TEST(InferenceServer, LayerBlocksKeepTheTimeOnAContentionFreeNetwork) {
  // Folding both layers into one block: one compute node of twice the
  // time, all-reduces of twice the bytes and twice the protocol's base and
  // step latencies; only the network's alpha is counted once instead of
  // twice per step:
  // 2 all-reduces x 2 steps x 1 us less.
  InferenceSpec s = OneRequest(1000, 1);
  s.layers_per_block = 2;
  ServingRun run(s);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result->requests[0].first_token, kPrefill - kAlpha * 4);
}

TEST(InferenceServer, RoutersSpreadRequests) {
  InferenceSpec s = ToySpec();
  s.replicas = 2;
  s.trace = {{0, 100, 4}, {0, 100, 4}, {0, 100, 4}, {0, 100, 4}};
  ServingRun rr(s);
  ASSERT_TRUE(rr.result.ok());
  std::vector<int32_t> got;
  for (const InferenceRequestRecord& r : rr.result->requests) got.push_back(r.replica);
  EXPECT_EQ(got, (std::vector<int32_t>{0, 1, 0, 1}));
  s.router = InferenceRouter::kLeastLoaded;
  s.trace = {{0, 100, 50}, {0, 100, 1}, {1000, 100, 1}};
  ServingRun ll(s);
  ASSERT_TRUE(ll.result.ok());
  // At 1 ms replica 1's one-token request is done, replica 0's is not.
  EXPECT_EQ(ll.result->requests[2].replica, 1);
}

TEST(InferenceServer, KvCacheCapacityMakesRequestsWait) {
  // HBM for the weights (4 layers' worth is plenty) plus room for 1,500
  // tokens: the second request (1,000 tokens) waits for the first to finish.
  InferenceSpec s = ToySpec();
  s.gpu.memory_utilization = 1;
  const ReplicaPlacement p = PlaceReplica(s.model, 2, 1, 0, 0);
  const double weights = StageWeightBytesPerRank(s.model, 0, 2, 2, true, true);
  s.gpu.hbm_bytes = weights + 1500.0 * static_cast<double>(KvBytesPerTokenPerRank(s.model, 2, 2));
  EXPECT_EQ(ReplicaKvCapacityTokens(s, p), 1500);
  s.trace = {{0, 500, 500}, {0, 500, 500}};
  ServingRun run(s);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_GE(run.result->requests[1].first_token, run.result->requests[0].finish);
}

TEST(InferenceServer, BadSpecsAreRefusedWithTheirField) {
  InferenceSpec s = OneRequest(10, 1);
  s.tp = 3;
  ServingRun a(s);
  ASSERT_FALSE(a.result.ok());
  EXPECT_NE(a.result.error().message.find("inference.tp"), std::string::npos);
  s = OneRequest(10, 1);
  s.replicas = 3;  // 6 GPUs on a 4-GPU cluster
  ServingRun b(s);
  ASSERT_FALSE(b.result.ok());
  EXPECT_NE(b.result.error().message.find("inference.replicas"), std::string::npos);
  s = ToySpec();
  s.num_requests = 2'000'000;
  ServingRun c(s);
  ASSERT_FALSE(c.result.ok());
  EXPECT_NE(c.result.error().message.find("num_requests"), std::string::npos);
  s = ToySpec();
  s.num_requests = 400'000;
  s.output_tokens_min = s.output_tokens_max = 1000;  // 4e8 iterations
  ServingRun d(s);
  ASSERT_FALSE(d.result.ok());
  EXPECT_NE(d.result.error().message.find("iterations"), std::string::npos);
}

InferenceSpec PoissonSpec(double rate) {
  InferenceSpec s = ToySpec();
  s.replicas = 2;
  s.num_requests = 200;
  s.rate_per_s = rate;
  s.input_tokens_min = 200;
  s.input_tokens_max = 1000;
  s.output_tokens_min = 10;
  s.output_tokens_max = 50;
  s.max_num_seqs = 16;
  return s;
}

TEST(InferenceServer, SameSeedSameResult) {
  ServingRun a(PoissonSpec(2000), 7), b(PoissonSpec(2000), 7), c(PoissonSpec(2000), 8);
  ASSERT_TRUE(a.result.ok() && b.result.ok() && c.result.ok());
  ASSERT_EQ(a.result->requests.size(), b.result->requests.size());
  for (size_t i = 0; i < a.result->requests.size(); ++i) {
    EXPECT_EQ(a.result->requests[i].arrival, b.result->requests[i].arrival);
    EXPECT_EQ(a.result->requests[i].first_token, b.result->requests[i].first_token);
    EXPECT_EQ(a.result->requests[i].finish, b.result->requests[i].finish);
  }
  EXPECT_EQ(a.result->summary.ttft.p99_ms, b.result->summary.ttft.p99_ms);
  EXPECT_NE(a.result->requests[5].arrival, c.result->requests[5].arrival);
}

TEST(InferenceServer, QueueingGrowsWithLoadPastSaturation) {
  // Two replicas; one handles a few thousand requests per second of these
  // sizes. Past saturation requests queue and p99 TTFT climbs with load.
  const std::vector<double> rates{500, 2000, 8000, 16000, 32000};
  const Result<std::vector<InferenceLoadPoint>> sweep = SweepInferenceLoad(
      testing_topology::GpuServers(2, 2), PoissonSpec(1), rates, 1,
      [](Simulator& sim) -> std::unique_ptr<NetworkModel> { return std::make_unique<AlphaBetaNetwork>(sim, kAlpha, kRate); });
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  ASSERT_EQ(sweep->size(), rates.size());
  for (size_t i = 1; i < sweep->size(); ++i) {
    EXPECT_GT((*sweep)[i].summary.ttft.p99_ms, (*sweep)[i - 1].summary.ttft.p99_ms) << "rate " << rates[i];
  }
  // At the lowest load TTFT is about one prefill; at the highest, queueing dominates.
  EXPECT_LT(sweep->front().summary.ttft.p50_ms, 5);
  EXPECT_GT(sweep->back().summary.ttft.p99_ms, 10 * sweep->front().summary.ttft.p99_ms);
}

TEST(InferenceIteration, MoeLayersAddDispatchAndCombineAllToAlls) {
  // 2 layers, the second an MoE layer of 8 experts (top 2): per TP rank of
  // 2, a 100-token batch dispatches ceil(100 / 2) * 2 * 1024 * 2 = 204,800 B.
  InferenceModel m = ToySpec().model;
  m.experts = 8;
  m.top_k = 2;
  m.expert_ffn = 512;
  m.dense_layers = 1;
  const ReplicaPlacement p = PlaceReplica(m, 2, 1, 0, 0);
  BatchWork w;
  w.AddPrefill(0, 100, true);
  const JobGraph g = BuildIterationGraph(m, ToySpec().gpu, p, w, {});
  int all_to_alls = 0, all_reduces = 0, gathers = 0;
  for (JobNodeIndex i = 0; i < g.size(); ++i) {
    const JobNode& n = g.node(i);
    if (n.kind != JobNodeKind::kCollective) continue;
    if (n.op == CollectiveOp::kAllToAll) {
      ++all_to_alls;
      EXPECT_EQ(n.bytes, 204'800u);
      EXPECT_EQ(n.dimension, CommDimension::kExpert);
    }
    all_reduces += n.op == CollectiveOp::kAllReduce ? 1 : 0;
    gathers += n.op == CollectiveOp::kAllGather ? 1 : 0;
  }
  EXPECT_EQ(all_to_alls, 2);  // dispatch + combine
  EXPECT_EQ(all_reduces, 3);  // dense layer: 2; MoE layer: after attention
  EXPECT_EQ(gathers, 1);      // after the combine
}

TEST(InferenceServer, MoeModelsServeAcrossServers) {
  // The toy model with an MoE second layer at tp 4 over both servers: the
  // all-to-alls and all-reduces cross the fabric, and decode pays them too.
  InferenceSpec s = OneRequest(100, 3);
  s.model.experts = 8;
  s.model.top_k = 2;
  s.model.expert_ffn = 512;
  s.model.dense_layers = 1;
  s.tp = 4;
  ServingRun moe(s);
  ASSERT_TRUE(moe.result.ok()) << moe.result.error().message;
  EXPECT_EQ(moe.result->summary.iterations, 3u);
  EXPECT_GT(moe.result->requests[0].first_token, Time::Zero());
  EXPECT_GT(moe.net.ids.size(), 0u);
}

TEST(InferenceModel, Llama3_70BSizes) {
  // 70.6 B parameters; KV cache 2 * 80 * 8 * 128 * 2 B = 320 KiB per token.
  const InferenceModel m = Llama3_70B();
  EXPECT_NEAR(m.total_params() / 1e9, 70.55, 0.05);
  EXPECT_EQ(m.kv_bytes_per_token_layer() * 80, 327'680u);
}

}  // namespace
}  // namespace aifabric
