#include "flow/flow_counter_reader.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "flow/flow_test_util.h"
#include "telemetry/time_series_store.h"

namespace aifabric {
namespace {

using flow_testing::TestSwitch;

// h0 -100G- leaf0 -400G- spine -400G- leaf1 -100G- h1. One 409,600-byte
// transfer (100 full packets) from h0: the fluid runs at the 100G payload
// rate 100e9 x 4096/4178, so on the wire every port of its path carries
// 100 Gbit/s = 12.5 bytes/ns while it drains: 12,500 bytes per µs, and
// 100 x 4178 = 417,800 wire bytes in all (its drain: 33.424 µs).
TEST(FlowCounterReader, WireBytesGrowAtLineRateAndSumToTheFrames) {
  const Topology t = fabric_testing::FourHopPath(TestSwitch());
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  Simulator sim(1);
  FlowNetwork net(sim, t, routes, FlowConfig{});
  FlowCounterReader reader(net, t);  // FlowConfig{}: MTU 4096, 82 bytes of overhead
  ASSERT_EQ(reader.keys().size(), t.ports().size());
  TransferRequest r;
  r.id = 1;
  r.src = 0;
  r.dst = 1;
  r.bytes = 409'600;
  net.StartTransfer(r);
  std::vector<double> at10(t.ports().size()), at_end(t.ports().size());
  sim.ScheduleCallback(Time::FromUs(10), [&] { reader.Read(sim.Now(), at10); });
  sim.Run();
  reader.Read(sim.Now(), at_end);
  const std::vector<PortId> path(net.path(0).begin(), net.path(0).end());
  ASSERT_EQ(path.size(), 4u);
  double total_end = 0;
  for (PortId p : path) {
    EXPECT_NEAR(at10[static_cast<size_t>(p)], 125'000.0, 1e-6) << p;
    EXPECT_NEAR(at_end[static_cast<size_t>(p)], 417'800.0, 1e-6) << p;
    total_end += at_end[static_cast<size_t>(p)];
  }
  double all = 0;
  for (double v : at_end) all += v;
  EXPECT_NEAR(all, total_end, 1e-6);  // no other port carried a byte
}

}  // namespace
}  // namespace aifabric
