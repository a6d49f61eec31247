// InfiniBand congestion control (IBA Annex A10): the source's CCTI and
// table, the switches' FECN marking (root ports only, Marking_Rate,
// Packet_Size, Threshold), and what it buys: a victim of congestion
// spreading runs near its own line rate.
#include <gtest/gtest.h>

#include <cstdio>

#include "transport/ib_cc.h"
#include "transport/transport_test_fabric.h"

namespace aifabric {
namespace {

using transport_testing::Harness;
using transport_testing::Name;

constexpr uint32_t kFrameBytes = 4096 + kIbWireOverheadBytes;  // 4122 B

TEST(IbCongestionControl, EachBecnRaisesTheIndexAndTheTableSetsTheGap) {
  Simulator sim(1);
  IbCcConfig config;  // CCTI_Increase 1, limit 127, timer 20 x 1.024 us
  IbCongestionControl cc(sim, DataRate::Gbps(400), kFrameBytes, config);
  // One frame at 400G: 4122 x 8 / 400 ns = 82.44 ns.
  const Time t = DataRate::Gbps(400).TransmitTime(kFrameBytes);
  EXPECT_EQ(cc.ccti(), 0);
  EXPECT_EQ(cc.rate().bps(), 400'000'000'000u);
  cc.OnCnp();
  cc.OnCnp();
  // Default table: entry i delays i/2 frames, so CCTI 2 leaves one frame
  // time between frames: half the line rate.
  EXPECT_EQ(cc.ccti(), 2);
  EXPECT_EQ(cc.inter_packet_delay(), t);
  EXPECT_NEAR(static_cast<double>(cc.rate().bps()), 200e9, 1e3);
  // CCTI 30: a gap of 15 frames, 1/16 of the line.
  for (int i = 0; i < 28; ++i) cc.OnCnp();
  EXPECT_EQ(cc.ccti(), 30);
  EXPECT_NEAR(static_cast<double>(cc.rate().bps()), 400e9 / 16, 1e3);
  // Never past CCTI_Limit.
  for (int i = 0; i < 200; ++i) cc.OnCnp();
  EXPECT_EQ(cc.ccti(), 127);
}

TEST(IbCongestionControl, TheTimerLowersTheIndexOnePerPeriodDownToTheMinimum) {
  Simulator sim(1);
  IbCcConfig config;
  config.ccti_increase = 4;
  config.ccti_min = 1;
  config.ccti_timer = 10;  // 10.24 us
  IbCongestionControl cc(sim, DataRate::Gbps(100), kFrameBytes, config);
  EXPECT_EQ(cc.ccti(), 1);  // starts at CCTI_Min
  cc.OnCnp();               // 1 + 4 = 5, and the timer starts
  EXPECT_EQ(cc.ccti(), 5);
  // Expiries at 10.24, 20.48, 30.72 us: three decrements by 31 us.
  sim.Run(Time::FromNs(31'000));
  EXPECT_EQ(cc.ccti(), 2);
  // Then one more at 40.96 us reaches the minimum, and the timer stops.
  sim.Run();
  EXPECT_EQ(cc.ccti(), 1);
  EXPECT_EQ(sim.Now(), Time::FromNs(40'960));
}

TEST(IbCongestionControl, AConfiguredTableIsUsedAsGiven) {
  Simulator sim(1);
  IbCcConfig config;
  config.cct = {Time::Zero(), Time::FromNs(100), Time::FromNs(300)};
  config.ccti_limit = 2;
  IbCongestionControl cc(sim, DataRate::Gbps(100), 1250, config);  // 1250 B = 100 ns at 100G
  cc.OnCnp();
  EXPECT_NEAR(static_cast<double>(cc.rate().bps()), 100e9 * 100 / 200, 1e3);
  cc.OnCnp();
  cc.OnCnp();  // capped at entry 2
  EXPECT_EQ(cc.ccti(), 2);
  EXPECT_NEAR(static_cast<double>(cc.rate().bps()), 100e9 * 100 / 400, 1e3);
}

PacketConfig Ib(bool cc) {
  PacketConfig c;
  c.kind = FabricKind::kIb;
  c.wire_overhead_bytes = kIbWireOverheadBytes;
  c.ib.congestion_control.enabled = cc;
  return c;
}

TransportConfig IbRc(bool cc) {
  TransportConfig t;
  t.fabric = FabricKind::kIb;
  t.cc = cc ? CongestionControl::kIb : CongestionControl::kNone;
  return t;
}

// Congestion spreading under credits: three 100G senders incast into h4
// behind switch s2 while a victim on the same first switch s1 sends to h5,
// an idle port of s2. s1 -> s2 is 400G, so the victim's path has room; but
// s2's input buffer for the VL fills with incast packets, s1 runs out of
// credits toward s2, and the victim's packets wait behind the incast's.
struct IbSpreading {
  explicit IbSpreading(const PacketConfig& packet, const TransportConfig& transport) {
    for (int i = 0; i < 6; ++i) topology.AddHost(Name("h", i));
    const int spec = topology.AddSwitchSpec(transport_testing::Switch(2'000'000));
    const NodeId s1 = topology.AddSwitch("s1", 1, spec), s2 = topology.AddSwitch("s2", 1, spec);
    for (int i = 0; i < 4; ++i) topology.AddLink(i, s1, DataRate::Gbps(100), Time::FromNs(500));
    core = 2 * topology.AddLink(s1, s2, DataRate::Gbps(400), Time::FromNs(500));
    for (int i = 4; i < 6; ++i) root = 2 * topology.AddLink(s2, i, DataRate::Gbps(100), Time::FromNs(500));
    root -= 2;  // s2 -> h4
    run = std::make_unique<Harness>(topology, packet, transport);
    for (int i = 0; i < 3; ++i) run->Start(i, i, 4, 8 << 20);  // incast into h4
    run->StartAt(Time::FromUs(200), 3, 3, 5, 2 << 20);         // victim h3 -> h5
    run->sim.Run();
  }
  uint64_t marks(PortId port) const { return run->net.egress(port).counters().ecn_marks; }
  uint64_t becns() const {
    uint64_t n = 0;
    for (const FlowState& f : run->net.flows()) n += f.transport.cnps;
    return n;
  }
  Topology topology;
  PortId core = kNoPort;  // s1 -> s2
  PortId root = kNoPort;  // s2 -> h4, the incast's bottleneck
  std::unique_ptr<Harness> run;
};

TEST(IbCongestionControl, CreditsSpreadCongestionToAVictimAndCongestionControlContainsIt) {
  // Alone, the victim's 2 MiB take 512 frames x 4122 B at 100G = 168.9 us.
  IbSpreading credits_only(Ib(false), IbRc(false));
  IbSpreading with_cc(Ib(true), IbRc(true));
  const double alone_us = 512 * 4122 * 8 / 100e3;
  const double victim_credits = credits_only.run->Fct(3).us_f();
  const double victim_cc = with_cc.run->Fct(3).us_f();
  std::printf("IB victim FCT %.1f us with credits alone, %.1f us with IB CC (alone %.1f us); "
              "FECN marks: %llu at the root port, %llu at the victim port\n",
              victim_credits, victim_cc, alone_us, static_cast<unsigned long long>(with_cc.marks(with_cc.root)),
              static_cast<unsigned long long>(with_cc.marks(with_cc.core)));
  EXPECT_GT(victim_credits, 2 * alone_us);
  EXPECT_LT(victim_cc, 1.3 * alone_us);
  // The incast itself keeps its bottleneck busy: 3 x 8 MiB in 4122-byte
  // frames take 3 x 2048 x 4122 x 8 / 100G = 2026 us at line rate; with
  // congestion control the receiver still runs at >= 90% of that.
  Time incast_end;
  for (FlowId id = 0; id < 3; ++id) incast_end = Max(incast_end, with_cc.run->finishes.at.at(id));
  const double line_us = 3 * 2048 * 4122 * 8 / 100e3;
  std::printf("IB CC incast: last byte at %.1f us (line rate %.1f us)\n", incast_end.us_f(), line_us);
  EXPECT_LT(incast_end.us_f(), line_us / 0.9);
  // Only the root of congestion marks: s1 -> s2 is slow only for want of
  // credits.
  EXPECT_GT(with_cc.marks(with_cc.root), 0u);
  EXPECT_EQ(with_cc.marks(with_cc.core), 0u);
  // Every FECN is answered by exactly one BECN (nothing is lost).
  EXPECT_EQ(with_cc.becns(), with_cc.run->Sum(&PortCounters::ecn_marks));
  EXPECT_EQ(with_cc.run->Sum(&PortCounters::drop_packets), 0u);
  // Without congestion control nothing is marked.
  EXPECT_EQ(credits_only.run->Sum(&PortCounters::ecn_marks), 0u);
}

TEST(IbCongestionControl, VictimMarkingMarksCreditStarvedPortsToo) {
  PacketConfig packet = Ib(true);
  packet.ib.congestion_control.mark_victims = true;
  IbSpreading run(packet, IbRc(true));
  EXPECT_GT(run.marks(run.core), 0u);
}

TEST(IbCongestionControl, ThresholdZeroAndSmallPacketsAreNeverMarked) {
  PacketConfig off = Ib(true);
  off.ib.congestion_control.threshold = 0;
  IbSpreading threshold_zero(off, IbRc(true));
  EXPECT_EQ(threshold_zero.run->Sum(&PortCounters::ecn_marks), 0u);
  // 256-byte MTU: 282-byte frames, under Packet_Size (512 B).
  PacketConfig small = Ib(true);
  small.mtu_bytes = 256;
  IbSpreading small_frames(small, IbRc(true));
  EXPECT_EQ(small_frames.run->Sum(&PortCounters::ecn_marks), 0u);
}

}  // namespace
}  // namespace aifabric
