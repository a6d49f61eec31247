// FluidNetwork against closed forms: transfers sharing a resource finish
// when the fluid arithmetic says, a latency is added once, and bytes are
// conserved per resource.
#include "flow/fluid_network.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

namespace aifabric {
namespace {

struct FluidRun {
  Simulator sim{1};
  std::map<uint64_t, Time> done;
  FluidNetwork net{sim, [this](uint64_t id, Time at) { done[id] = at; }};
};

TEST(FluidNetwork, TwoTransfersOnOneLinkFinishAsTheFluidArithmeticSays) {
  // 100G shared by 1 MB and 2 MB from t = 0: both run at 50G until the
  // first is done at 2 x 8e6 / 100e9 = 160 us; the second has 1 MB left at
  // 100G: 80 us more, 240 us. Each then adds its 1 us latency.
  FluidRun run;
  const int link = run.net.AddResource(DataRate::Gbps(100));
  const std::vector<int> path{link};
  run.net.Start(1, 1'000'000, path, Time::FromUs(1));
  run.net.Start(2, 2'000'000, path, Time::FromUs(1));
  EXPECT_DOUBLE_EQ(run.net.rate_bps(1), 50e9);
  run.sim.Run();
  EXPECT_EQ(run.done.at(1), Time::FromUs(161));
  EXPECT_EQ(run.done.at(2), Time::FromUs(241));
  EXPECT_NEAR(run.net.bytes_carried(link), 3e6, 1e-3);
}

TEST(FluidNetwork, ALateArrivalTakesItsShareFromThen) {
  // 8 Mb at 1 Gb/s alone from t = 0; a second 2 Mb transfer joins at 2 ms:
  // then each gets 0.5 Gb/s. The first has 6 Mb left, the second finishes
  // its 2 Mb at 2 + 4 = 6 ms, when the first has 4 Mb left, done at 10 ms.
  FluidRun run;
  const int link = run.net.AddResource(DataRate::Gbps(1));
  run.net.Start(1, 1'000'000, std::vector<int>{link}, Time::Zero());
  run.sim.ScheduleCallback(Time::FromMs(2), [&] { run.net.Start(2, 250'000, std::vector<int>{link}, Time::Zero()); });
  // At 4 ms the first has sent 2 ms x 1 Gb/s + 2 ms x 0.5 Gb/s = 3 Mb and
  // has 5 Mb (625,000 B) left; the second has sent 1 Mb, 125,000 B left.
  double first_left = -1, second_left = -1;
  run.sim.ScheduleCallback(Time::FromMs(4), [&] {
    first_left = run.net.remaining_bytes(1);
    second_left = run.net.remaining_bytes(2);
  });
  run.sim.Run();
  EXPECT_EQ(run.done.at(2), Time::FromMs(6));
  EXPECT_EQ(run.done.at(1), Time::FromMs(10));
  EXPECT_NEAR(first_left, 625'000, 1e-6);
  EXPECT_NEAR(second_left, 125'000, 1e-6);
  EXPECT_EQ(run.net.remaining_bytes(1), 0);  // done: no longer active
}

TEST(FluidNetwork, ATransferRunsAtItsTightestResource) {
  // GPU tx port 450 GB/s, GPU rx port 450 GB/s, a PCIe-like 64 GB/s hop:
  // 64 MB take 64e6 / 64e9 = 1 ms.
  FluidRun run;
  const int tx = run.net.AddResource(DataRate::Gbps(3600)), rx = run.net.AddResource(DataRate::Gbps(3600));
  const int pcie = run.net.AddResource(DataRate::Gbps(512));
  run.net.Start(7, 64'000'000, std::vector<int>{tx, pcie, rx}, Time::Zero());
  run.sim.Run();
  EXPECT_EQ(run.done.at(7), Time::FromMs(1));
  EXPECT_EQ(run.net.active(), 0u);
}

TEST(FluidNetwork, StartsAtOneInstantCostOneSolve) {
  // 100 transfers of 1,000 B on one 1 Gb/s link, all started at t = 0:
  // one solve for the starts, one for their common finish at 100 * 8,000
  // bits / 1e9 = 800 us.
  FluidRun run;
  const int link = run.net.AddResource(DataRate::Gbps(1));
  for (uint64_t i = 0; i < 100; ++i) run.net.Start(i, 1'000, std::vector<int>{link}, Time::Zero());
  run.sim.Run();
  EXPECT_EQ(run.net.solves(), 2u);
  ASSERT_EQ(run.done.size(), 100u);
  for (const auto& [id, at] : run.done) EXPECT_EQ(at, Time::FromUs(800)) << id;
}

TEST(FluidNetwork, ACoflowDrainsItsReferenceBytesAtItsSharedRate) {
  // A ring of three edges over links a, b, c (100G each) moving 3 MB per
  // edge, as one coflow with the reference edge's 3 MB and coefficient 1 on
  // each link; a plain 1 MB transfer shares link a. Both get 50G until the
  // plain one drains at 160 us (the coflow has moved 1 MB); the coflow's
  // last 2 MB then take 160 us at 100G: 320 us, plus its 5 us latency. Link
  // a carries 3 + 1 MB, link b 3 MB. A second coflow of 1 KB whose chain
  // lasts 50 us (not_before) ends then plus its 2 us, though its bytes
  // drained long before.
  FluidRun run;
  const int a = run.net.AddResource(DataRate::Gbps(100));
  const int b = run.net.AddResource(DataRate::Gbps(100));
  const int c = run.net.AddResource(DataRate::Gbps(100));
  CoflowTiming plain;
  plain.latency = Time::FromUs(5);
  run.net.StartCoflow(1, 3'000'000, std::vector<int>{a, b, c}, std::vector<double>{1, 1, 1}, plain);
  run.net.Start(2, 1'000'000, std::vector<int>{a}, Time::Zero());
  const int d = run.net.AddResource(DataRate::Gbps(100));
  CoflowTiming chained;
  chained.chain = Time::FromUs(50);
  chained.latency = Time::FromUs(2);
  run.net.StartCoflow(3, 1'000, std::vector<int>{d}, std::vector<double>{1}, chained);
  // One of 100 KB (D = 8 us at 100G): with a chain of 10 us and a pipeline
  // depth of 5, max(10 + 5 x 8, 8) + 1 = 51 us; with a fill of 3 us and a
  // fill depth of 10 instead, max(10 + 5 x 8, 11 x 8 + 3) + 1 = 92 us.
  const int e = run.net.AddResource(DataRate::Gbps(100)), f = run.net.AddResource(DataRate::Gbps(100));
  CoflowTiming deep;
  deep.chain = Time::FromUs(10);
  deep.depth = 5;
  deep.latency = Time::FromUs(1);
  run.net.StartCoflow(4, 100'000, std::vector<int>{e}, std::vector<double>{1}, deep);
  deep.fill = Time::FromUs(3);
  deep.fill_depth = 10;
  run.net.StartCoflow(5, 100'000, std::vector<int>{f}, std::vector<double>{1}, deep);
  run.sim.Run();
  EXPECT_EQ(run.done.at(3), Time::FromUs(52));
  EXPECT_EQ(run.done.at(4), Time::FromUs(51));
  EXPECT_EQ(run.done.at(5), Time::FromUs(92));
  EXPECT_EQ(run.done.at(2), Time::FromUs(160));
  EXPECT_EQ(run.done.at(1), Time::FromUs(325));
  EXPECT_NEAR(run.net.bytes_carried(a), 4e6, 1e-3);
  EXPECT_NEAR(run.net.bytes_carried(b), 3e6, 1e-3);
}

TEST(FluidNetwork, AnEmptyTransferTakesOnlyItsLatency) {
  FluidRun run;
  const int link = run.net.AddResource(DataRate::Gbps(1));
  run.net.Start(3, 0, std::vector<int>{link}, Time::FromNs(25));
  run.sim.Run();
  EXPECT_EQ(run.done.at(3), Time::FromNs(25));
}

}  // namespace
}  // namespace aifabric
