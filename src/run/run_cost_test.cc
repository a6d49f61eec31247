// The cost estimate against a hand count and against the engine: one
// 1 MiB flow from h0 to h1 under one leaf at MTU 4096 (the scenario
// defaults otherwise: RoCEv2 RC with an ACK per packet, PFC, DCQCN), and
// the absurd flow of 2^63 bytes refused with its figures.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "run/run_cost.h"
#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

std::string OneFlow(const std::string& size, const std::string& model = "packet") {
  return "name: one\nseed: 1\n"
         "cluster: {servers: 2, gpus_per_server: 1, nic: {rate: 400Gbps}}\n"
         "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 2}, link: {latency: 500ns},"
         " switch: {name: t, radix: 32, port_rate: 400Gbps, latency: 400ns, buffer: 64MiB}, mtu: 4096}\n"
         "simulation: {model: " + model + "}\n"
         "workload:\n  - flows: [{src: 0, dst: 1, size: " + size + "}]\n";
}

Scenario Load(const std::string& text) {
  Result<Scenario> s = LoadScenarioText(text, "one.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

uint64_t EngineEvents(const Scenario& scenario) {
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(scenario);
  EXPECT_TRUE(run.ok()) << run.error().message;
  if (!run.ok()) return 0;
  (*run)->Execute();
  EXPECT_EQ((*run)->completed(), 1u);
  return (*run)->sim().events_processed();
}

TEST(RunCost, OneMebibyteFlowUnderOneLeafByHandAndAgainstTheEngine) {
  // 1 MiB / 4096 B = 256 packets, each over h0-leaf0 and leaf0-h1 (the
  // leaf's spines join no two hosts, so no path climbs to them): 512
  // packet-links x kPacketEventsPerPacketLink (3) = 1,536 events. The
  // engine counts 1,510 (2.95 per packet-link: the constant's source).
  const Scenario s = Load(OneFlow("1MiB"));
  Result<RunCost> cost = EstimateRunCost(s);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_DOUBLE_EQ(cost->events, 256 * 2 * kPacketEventsPerPacketLink);
  EXPECT_EQ(cost->field, "workload.0");
  EXPECT_EQ(cost->what, "one flow of 1048576 bytes");
  const uint64_t engine = EngineEvents(s);
  std::printf("1 MiB h0-leaf-h1: estimated %.0f events, the engine %llu (%.2f per packet-link)\n", cost->events,
              static_cast<unsigned long long>(engine), static_cast<double>(engine) / 512);
  // Within 25% (the transport's timers and the telemetry's samples vary
  // with the run's length, the packets do not).
  EXPECT_NEAR(cost->events, static_cast<double>(engine), 0.25 * static_cast<double>(engine));
}

TEST(RunCost, AFlowLevelRunCostsItsFlowsStartsAndEnds) {
  const Scenario s = Load(OneFlow("1MiB", "flow"));
  Result<RunCost> cost = EstimateRunCost(s);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_DOUBLE_EQ(cost->events, kFlowEventsPerFlow);
  const uint64_t engine = EngineEvents(s);
  std::printf("1 MiB at flow level: estimated %.0f events, the engine %llu\n", cost->events,
              static_cast<unsigned long long>(engine));
  EXPECT_LE(static_cast<double>(engine), 4 * cost->events);
}

TEST(RunCost, AFlowOf2To63BytesIsRefusedWithItsEstimate) {
  // 2^63 bytes: 2^63 / 4096 = 2^51 packets x 2 links x 3 events =
  // 1.35e16 events, counted in double so that nothing wraps.
  const Scenario s = Load(OneFlow("9223372036854775808"));
  Result<RunCost> cost = EstimateRunCost(s);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_DOUBLE_EQ(cost->events, 2 * kPacketEventsPerPacketLink * 2251799813685248.0);
  const Status refused = CheckRunCost(*cost, CostBounds{});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "workload.0: estimated 1.4e+16 events at packet level (one flow of 9223372036854775808 bytes), over "
            "--max-events 2e+10; raise --max-events to run it");
  const Status server = CheckRunCost(*cost, CostBounds{2'000'000'000, 0, true}, BoundsOwner::kServer);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.error().message,
            "workload.0: estimated 1.4e+16 events in one simulation at packet level (one flow of "
            "9223372036854775808 bytes), over the server's --max-events 2e+09");
  // No bound: it passes.
  EXPECT_TRUE(CheckRunCost(*cost, CostBounds{0, 0}).ok());
}

TEST(RunCost, AFabricTooLargeToHoldIsRefusedWithoutBuildingIt) {
  // 2^30 hosts x at least 3 KiB each = 3 TiB, over 16 GiB: the topology is
  // never built (it could not be).
  Scenario s = Load(OneFlow("1MiB"));
  s.topology.servers = 1 << 30;
  Result<RunCost> cost = EstimateRunCost(s);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_EQ(cost->field, "cluster");
  const Status refused = CheckRunCost(*cost, CostBounds{});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("over --max-memory 16 GiB; raise --max-memory to run it"),
            std::string::npos)
      << refused.error().message;
}

TEST(RunCost, ARingAllReduceAgainstTheEngine) {
  // The built-in 2 x 8 H100 cluster, one 32 MiB ring all-reduce (Simple):
  // 2 S x 15/16 x 2 servers = 125,829,120 B on the fabric, 30,720 packets
  // over the 2 links of their rail (PXN) x 3 = 184,320 events; the DAG's
  // 2 x 15 steps x 16 ranks x 8 channels x 1 chunk (NCCL's ring chunk is
  // 32 MiB here) = 3,840 transfers x 4 = 15,360; its one node, 4:
  // 199,684 by hand.
  Result<Scenario> s = LoadScenarioText(DefaultCollectiveScenarioText(), "default", ".", {});
  ASSERT_TRUE(s.ok()) << s.error().message;
  CollectiveRequest request;
  request.algorithm = CollectiveAlgorithm::kRing;
  request.protocol = CollectiveProtocol::kSimple;
  Result<RunCost> cost = EstimateCollectiveCost(*s, request);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_DOUBLE_EQ(cost->events, 199'684);
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(*s, request);
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  std::printf("32 MiB ring all-reduce: estimated %.0f events, the engine %llu\n", cost->events,
              static_cast<unsigned long long>(sweep->events));
  // The engine's 219,858: within 1.5x either way.
  EXPECT_LT(cost->events, 1.5 * static_cast<double>(sweep->events));
  EXPECT_GT(cost->events, static_cast<double>(sweep->events) / 1.5);
}

TEST(RunCost, ACollectiveItemCostsItsRunsAndItsChoice) {
  // The same 32 MiB ring all-reduce as a workload item of the built-in
  // cluster: a shared run of one tenant is two simulations of it (the
  // shared one and the tenant alone), each the 199,684 events worked out
  // above. With algo and proto auto, the sweep that chooses them runs
  // first: its own estimate on top.
  const std::string fabric = DefaultCollectiveScenarioText();
  Result<Scenario> fixed = LoadScenarioText(
      fabric + "workload:\n  - collective: {op: all_reduce, size: 32MiB, algo: ring, proto: simple}\n", "one.yaml",
      ".", {});
  ASSERT_TRUE(fixed.ok()) << fixed.error().message;
  Result<RunCost> cost = EstimateRunCost(*fixed);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  EXPECT_DOUBLE_EQ(cost->events, 2 * 199'684.0);
  Result<Scenario> chosen =
      LoadScenarioText(fabric + "workload:\n  - collective: {op: all_reduce, size: 32MiB}\n", "one.yaml", ".", {});
  ASSERT_TRUE(chosen.ok()) << chosen.error().message;
  CollectiveRequest request;
  request.sizes = {32 << 20};
  Result<RunCost> sweep = EstimateCollectiveCost(*chosen, request);
  Result<RunCost> with_choice = EstimateRunCost(*chosen);
  ASSERT_TRUE(sweep.ok() && with_choice.ok());
  EXPECT_DOUBLE_EQ(with_choice->events, 2 * 199'684.0 + sweep->events);
}

TEST(RunCost, FiguresReadAsWritten) {
  EXPECT_EQ(FormatEstimate(2048), "2048");
  EXPECT_EQ(FormatEstimate(2e10), "2e+10");
  EXPECT_EQ(FormatMemory(16.0 * (1ull << 30)), "16 GiB");
  EXPECT_EQ(FormatMemory(1.5 * (1 << 20)), "1.5 MiB");
}

}  // namespace
}  // namespace aifabric
