// `aifabric collective` on the packet model against the closed forms of
// an uncongested fabric (within 2%), and the sweep's bookkeeping.
#include "run/collective_run.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// `servers` servers of `gpus` GPUs (one 100G NIC each) under one 400 ns
// switch, 500 ns cables, RoCEv2 without congestion control (nothing here
// congests: every NIC sends one flow and receives one); `extra` top-level
// keys after.
Scenario ClosedFormCluster(int servers, int gpus, const std::string& extra = "") {
  std::string text = "name: closed_form\n";
  text += "cluster: {servers: " + std::to_string(servers) + ", gpus_per_server: " + std::to_string(gpus) +
          ", gpu: H100, nic: {rate: 100Gbps}}\n";
  text += "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 64}, link: {latency: 500ns},"
          " switch: {name: test, radix: 128, port_rate: 100Gbps, latency: 400ns, buffer: 64MiB},"
          " mtu: 4096, roce: {cc: none}}\n";
  text += extra;
  Result<Scenario> s = LoadScenarioText(text, "closed_form.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return *s;
}

// One step over the fabric for b payload bytes: NCCL's per-step latency of
// a NET step (Simple: 14 us), then b at the payload rate B, plus the path:
// cable, switch latency, the last packet's store-and-forward at the switch,
// cable: alpha = lambda + 0.5 + 0.4 + 0.334 + 0.5 us. A collective starts
// after Simple's base latency, 8.4 us; a step inside a server (NVLink)
// takes 3.4 us. In a ring every NIC
// sends data and, for the data it receives, one 86-byte ACK per 4096-byte
// packet (ack_interval 1) on the same link, beside 82 bytes of RoCEv2
// overhead per packet: B = 100G x 4096 / (4178 + 86).
constexpr double kLambdaUs = 14;
constexpr double kNvlinkLambdaUs = 3.4;
constexpr double kBaseUs = 8.4;
constexpr double kAlphaUs = kLambdaUs + 0.5 + 0.4 + 4178 * 8 / 100e3 + 0.5;
constexpr double kPayloadBytesPerUs = 100e3 / 8 * 4096 / (4178 + 86);
// A reduction reads two operands and writes one: H100 HBM 3.35 TB/s / 3.
constexpr double kReduceBytesPerUs = 3.35e6 / 3;

// The closed forms move each step's data in one piece: one channel and one
// chunk (NCCL's ring chunks, n x 2 MiB, hold 8 MiB anyway; halving-
// doubling's 512 KiB chunks, or several channels of a hierarchical
// all-reduce, would overlap steps and phases and hide latency).
double RunUs(const Scenario& s, CollectiveOp op, CollectiveAlgorithm algorithm, uint64_t bytes) {
  CollectiveRequest r;
  r.op = op;
  r.algorithm = algorithm;
  r.protocol = CollectiveProtocol::kSimple;
  r.chunk_bytes = bytes;
  r.channels = 1;
  r.sweep.min_bytes = r.sweep.max_bytes = bytes;
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, r);
  EXPECT_TRUE(sweep.ok()) << sweep.error().message;
  return sweep.ok() ? sweep->times.at(0).us_f() : 0;
}

constexpr uint64_t kS = 8 << 20;

TEST(CollectiveRun, RingAllReduceMatchesTheAlphaBetaClosedForm) {
  // 2(n-1) (S/n)/B + 2(n-1) alpha, n = 4 GPUs on 4 servers, plus the n-1
  // reductions of S/n on the reduce-scatter's critical path.
  const int n = 4;
  const double expected = kBaseUs + 2 * (n - 1) * (kS / n / kPayloadBytesPerUs) + 2 * (n - 1) * kAlphaUs +
                          (n - 1) * (kS / n / kReduceBytesPerUs);
  const double got = RunUs(ClosedFormCluster(n, 1), CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, kS);
  std::printf("ring all_reduce n=4, 8 MiB: %.2f us, closed form %.2f us\n", got, expected);
  EXPECT_NEAR(got, expected, 0.02 * expected);
}

TEST(CollectiveRun, RingAllGatherMatchesTheAlphaBetaClosedForm) {
  // (n-1) (S/n)/B + (n-1) alpha.
  const int n = 8;
  const double expected = kBaseUs + (n - 1) * (kS / n / kPayloadBytesPerUs) + (n - 1) * kAlphaUs;
  const double got = RunUs(ClosedFormCluster(n, 1), CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, kS);
  std::printf("ring all_gather n=8, 8 MiB: %.2f us, closed form %.2f us\n", got, expected);
  EXPECT_NEAR(got, expected, 0.02 * expected);
}

TEST(CollectiveRun, HalvingDoublingMatchesTheAlphaBetaClosedForm) {
  // 2 log2(n) alpha + 2(n-1)/n S/B: halving exchanges S/2, S/4, ... with
  // each partner (reducing what it gets: (n-1)/n S in all), doubling
  // returns them.
  const int n = 8;
  const double expected = kBaseUs + 2 * std::log2(n) * kAlphaUs + 2.0 * (n - 1) / n * kS / kPayloadBytesPerUs +
                          1.0 * (n - 1) / n * kS / kReduceBytesPerUs;
  const double got = RunUs(ClosedFormCluster(n, 1), CollectiveOp::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, kS);
  std::printf("halving-doubling all_reduce n=8, 8 MiB: %.2f us, closed form %.2f us\n", got, expected);
  EXPECT_NEAR(got, expected, 0.02 * expected);
}

TEST(CollectiveRun, HierarchicalAllReduceIsItsThreePhasesInSequence) {
  // 2 servers x 4 GPUs: NVLink ring reduce-scatter of S (L-1 steps of S/L
  // at 370.8 GB/s after lambda + 25 ns), 4 rail-parallel ring all-reduces of
  // S/L across the M = 2 servers over the fabric (2(M-1) steps of S/(LM)),
  // NVLink ring all-gather (L-1 steps of S/L).
  // Reductions: L-1 of S/L in the reduce-scatter, M-1 of S/(LM) across.
  const int L = 4, M = 2;
  const double nvlink_us = (kNvlinkLambdaUs + 0.025) + kS / L / 370.8e3;  // NCCL's H100 NVLink rate
  const double reduce_scatter = (L - 1) * (nvlink_us + kS / L / kReduceBytesPerUs);
  const double inter = 2 * (M - 1) * (kAlphaUs + kS / (L * M) / kPayloadBytesPerUs) +
                       (M - 1) * kS / (L * M) / kReduceBytesPerUs;
  const double all_gather = (L - 1) * nvlink_us;
  const double expected = kBaseUs + reduce_scatter + inter + all_gather;
  const double got = RunUs(ClosedFormCluster(M, L), CollectiveOp::kAllReduce, CollectiveAlgorithm::kHierarchical, kS);
  std::printf("hierarchical all_reduce 2x4, 8 MiB: %.2f us, phases %.2f + %.2f + %.2f us\n", got, reduce_scatter,
              inter, all_gather);
  EXPECT_NEAR(got, expected, 0.02 * expected);
}

// A ring all-reduce of `bytes`, Simple protocol, one size.
CollectiveRequest OneRing(uint64_t bytes) {
  CollectiveRequest r;
  r.algorithm = CollectiveAlgorithm::kRing;
  r.protocol = CollectiveProtocol::kSimple;
  r.sweep.min_bytes = r.sweep.max_bytes = bytes;
  return r;
}

TEST(CollectiveRun, PacketAndFlowLevelsAgreeOnAnUncongestedAllReduce) {
  // A ring all-reduce of 16 MiB over 2 servers x 4 GPUs (one 100G NIC per
  // GPU under one switch): every NIC sends one flow and receives one, so
  // nothing queues; the packet level adds only its ACKs (86 of 4264 bytes
  // per packet, 2%) and per-packet store-and-forward. Within 5%.
  Scenario packet = ClosedFormCluster(2, 4);
  Scenario flow = packet;
  flow.model = ModelKind::kFlow;
  const CollectiveRequest r = OneRing(16 << 20);
  Result<CollectiveSweepResult> p = RunCollectiveSweep(packet, r), f = RunCollectiveSweep(flow, r);
  ASSERT_TRUE(p.ok() && f.ok());
  const double pu = p->times[0].us_f(), fu = f->times[0].us_f();
  std::printf("ring all_reduce 16 MiB, 2 x 4 GPUs: packet %.2f us, flow %.2f us\n", pu, fu);
  EXPECT_NEAR(fu, pu, 0.05 * pu);
}

// One ring all-reduce (Simple) of `bytes` on the flow level, as its step
// DAG and as one coflow.
struct StepsAndCoflow {
  double steps_us = 0, coflow_us = 0;
  uint64_t steps_events = 0, coflow_events = 0;
};
StepsAndCoflow RunStepsAndCoflow(const Scenario& cluster, uint64_t bytes) {
  Scenario steps = cluster;
  steps.model = ModelKind::kFlow;
  steps.collectives = Scenario::Collectives::kSteps;
  Scenario coflow = steps;
  coflow.collectives = Scenario::Collectives::kCoflow;
  const CollectiveRequest r = OneRing(bytes);
  Result<CollectiveSweepResult> s = RunCollectiveSweep(steps, r), c = RunCollectiveSweep(coflow, r);
  EXPECT_TRUE(s.ok() && c.ok());
  if (!s.ok() || !c.ok()) return {};
  return {s->times[0].us_f(), c->times[0].us_f(), s->events, c->events};
}

TEST(CollectiveRun, ACoflowAgreesWithItsStepsOnALargeRing) {
  // The flow level, 256 MiB ring all-reduce over 2 servers x 4 GPUs: as
  // one coflow and as its step DAG. Bandwidth-bound, the coflow's drain is
  // the DAG's busiest link's work; within 5% (docs/collectives.md has the
  // sizes where they differ more).
  const StepsAndCoflow r = RunStepsAndCoflow(ClosedFormCluster(2, 4), 256 << 20);
  std::printf("ring all_reduce 256 MiB, 2 x 4 GPUs, flow level: steps %.2f us, coflow %.2f us\n", r.steps_us,
              r.coflow_us);
  EXPECT_NEAR(r.coflow_us, r.steps_us, 0.05 * r.steps_us);
  EXPECT_LT(r.coflow_events, r.steps_events / 100);  // one fluid instead of a transfer per step
}

TEST(CollectiveRun, ARingCoflowOnOneServerAgreesWithItsSteps) {
  // One server of 8 GPUs, a 4 and a 32 MiB ring all-reduce (Simple, 8
  // channels): one chunk a channel (NCCL's ring chunk is 8 x 2 MiB), so each
  // of the 14 steps waits for the one before and shares every NVLink with
  // the other channels' steps. The step DAG takes the 14 step latencies
  // plus the drain, and so does the coflow; it took the longer of the two
  // before (at 32 MiB on an H100 server, 170 us against the DAG's 218).
  for (uint64_t bytes : {4ull << 20, 32ull << 20}) {
    const StepsAndCoflow r = RunStepsAndCoflow(ClosedFormCluster(1, 8), bytes);
    std::printf("ring all_reduce %llu MiB, 1 x 8 GPUs, flow level: steps %.2f us, coflow %.2f us\n",
                static_cast<unsigned long long>(bytes >> 20), r.steps_us, r.coflow_us);
    EXPECT_NEAR(r.coflow_us, r.steps_us, 0.01 * r.steps_us);
  }
}

TEST(CollectiveRun, ACoflowSpreadsAGpusInterServerBytesOverAllItsNics) {
  // The flow level, a 256 MiB tree all-reduce (Simple, 2 channels) as one
  // coflow over 2 servers x 2 GPUs with two 100G NICs per GPU, all 8 NICs
  // under one switch (no ECMP choice to make). Channel c's trees join the
  // servers at GPU c of each (server chains rotated by c), and each of its
  // two trees moves S/4 up and S/4 down between them: every GPU sends
  // S/2 = 128 MiB to the other server. NCCL spreads a GPU's channels over
  // its NICs, so each NIC carries 64 MiB, at the payload rate of 100G with
  // 4 KiB packets and 82 bytes of RoCEv2 overhead (98.04 Gbit/s):
  //   D = 67,108,864 x 8 / (100e9 x 4096 / 4178) = 5,476 us.
  // NVLink is far from the bottleneck (each GPU sends S over it at 370.8
  // GB/s, 724 us), so the coflow's fabric part sets the time: base 8.4 us
  // + (1 + F) x D + the fill's longest step (a 14 us network step), where
  // F is the chain's transmission beyond the connection's own step: the
  // chain (tree 0 of channel 0) crosses the deeper server's two NVLink
  // edges (S = 256 MiB merged each) and the two edges between servers
  // (128 MiB each) with a 512 KiB chunk each, K = 2 x 0.5/256 + 2 x
  // 0.5/128 = 3/256, less the largest single step, 1/256: F = 1/128. That
  // is 5,541.4 us; on one NIC per GPU (as before the spread) D doubles.
  std::string text = "name: two_nics\n";
  text += "cluster: {servers: 2, gpus_per_server: 2, gpu: H100, nic: {rate: 100Gbps, per_gpu: 2}}\n";
  text += "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 64}, link: {latency: 500ns},"
          " switch: {name: test, radix: 128, port_rate: 100Gbps, latency: 400ns, buffer: 64MiB},"
          " mtu: 4096, roce: {cc: none}}\n";
  Result<Scenario> loaded = LoadScenarioText(text, "two_nics.yaml", ".", {});
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  Scenario coflow = *loaded;
  coflow.model = ModelKind::kFlow;
  coflow.collectives = Scenario::Collectives::kCoflow;
  CollectiveRequest r;
  r.algorithm = CollectiveAlgorithm::kTree;
  r.protocol = CollectiveProtocol::kSimple;
  r.channels = 2;
  r.sweep.min_bytes = r.sweep.max_bytes = 256 << 20;
  Result<CollectiveSweepResult> c = RunCollectiveSweep(coflow, r);
  ASSERT_TRUE(c.ok()) << c.error().message;
  const double drain_us = 67108864.0 * 8 / (100e3 * 4096 / 4178);
  const double cu = c->times[0].us_f();
  std::printf("tree all_reduce 256 MiB, 2 x 2 GPUs, two NICs each, coflow: %.2f us (D = %.2f us)\n", cu, drain_us);
  const double expected_us = 8.4 + (1 + 1.0 / 128) * drain_us + 14;
  EXPECT_NEAR(cu, expected_us, 0.001 * expected_us);
}

TEST(CollectiveRun, TheSweepReportsEverySizeAndBadRequestsNameTheFlag) {
  const Scenario s = ClosedFormCluster(2, 2);
  CollectiveRequest r;
  r.sweep.min_bytes = 1024;
  r.sweep.max_bytes = 16384;
  r.sweep.step_factor = 4;
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, r);
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  EXPECT_EQ(sweep->requested_bytes, (std::vector<uint64_t>{1024, 4096, 16384}));
  EXPECT_EQ(sweep->ranks, 4);
  EXPECT_EQ(sweep->ranks_per_server, 2);
  // Bigger messages take longer.
  EXPECT_LT(sweep->times[0], sweep->times[2]);
  r.gpus = 3;
  Result<CollectiveSweepResult> bad = RunCollectiveSweep(s, r);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("--gpus"), std::string::npos);
  r.gpus = 9;
  EXPECT_FALSE(RunCollectiveSweep(s, r).ok());
}

TEST(CollectiveRun, EachSizeReportsTheFaultsItsSimulationSaw) {
  // A ring all-reduce of 1 MiB over 2 servers sends 2 (n-1)/n S = 1 MiB
  // from h0 in 256 packets of 4 KiB, over a link losing 5% of them: the
  // count of losses is binomial(>= 256, 0.05), mean >= 12.8, so none at
  // all has probability below e^-12. Each size is its own simulation and
  // reports its own losses, and bytes were resent.
  const Scenario s = ClosedFormCluster(2, 1, "faults: [{kind: gray_link, link: [h0, leaf0], at: 0, corruption_rate: 0.05}]\n");
  CollectiveRequest r;
  r.sizes = {1 << 20, 1 << 20};
  r.algorithm = CollectiveAlgorithm::kRing;
  r.protocol = CollectiveProtocol::kSimple;
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, r);
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  ASSERT_EQ(sweep->faults.size(), 2u);
  for (const std::vector<FaultOutcome>& row : sweep->faults) {
    ASSERT_EQ(row.size(), 1u);
    EXPECT_EQ(row[0].kind, FaultKind::kGrayLink);
    EXPECT_GT(row[0].packets_lost, 0u);
    EXPECT_GT(row[0].bytes_resent, 0u);
  }
  // The same seed, the same losses: a size's simulation starts afresh.
  EXPECT_EQ(sweep->faults[0][0].packets_lost, sweep->faults[1][0].packets_lost);
  Result<CollectiveSweepResult> clean = RunCollectiveSweep(ClosedFormCluster(2, 1), r);
  ASSERT_TRUE(clean.ok());
  EXPECT_TRUE(clean->faults[0].empty());
  EXPECT_GT(sweep->times[0], clean->times[0]);
}

TEST(CollectiveRun, TheSameRequestGivesTheSameTimes) {
  const Scenario s = ClosedFormCluster(2, 4);
  CollectiveRequest r;
  r.sweep.min_bytes = r.sweep.max_bytes = 1 << 20;
  Result<CollectiveSweepResult> a = RunCollectiveSweep(s, r), b = RunCollectiveSweep(s, r);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->times, b->times);
  EXPECT_EQ(a->events, b->events);
}

}  // namespace
}  // namespace aifabric
