// HpccFct on a hand-built path: host a -- 100G, 1 us -- switch (300 ns) --
// 25G, 500.5 ns -- host b, every figure worked by hand from HPCC's formulas.
#include "report/hpcc_fct.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

struct TwoHosts {
  Topology t;
  NodeId a, b;
  TwoHosts() {
    SwitchSpec spec;
    spec.name = "s";
    spec.latency = Time::FromNs(300);
    const int s = t.AddSwitchSpec(spec);
    a = t.AddHost("a");
    b = t.AddHost("b");
    const NodeId sw = t.AddSwitch("sw", 1, s);
    t.AddLink(a, sw, DataRate::Gbps(100), Time::FromNs(1000));
    t.AddLink(sw, b, DataRate::Gbps(25), Time::FromPs(500'500));
  }
};

TEST(HpccFct, PairFiguresFollowHpccsFormulas) {
  TwoHosts h;
  const HpccPair p = HpccPairOf(h.t, h.a, h.b, 1000, 86);
  EXPECT_EQ(p.hops, 2);
  // Cables 1000 + 500.5 ns and one switch of 300 ns.
  EXPECT_EQ(p.delay, Time::FromPs(1'800'500));
  // floor(1000 * 8 / 100) + floor(1000 * 8 / 25) = 80 + 320.
  EXPECT_EQ(p.tx_delay_ns, 400);
  EXPECT_EQ(p.bottleneck_bps, 25'000'000'000u);
  // The ACK back: 86 B at 25G (27.52 ns) + 500.5 ns, the switch's 300 ns,
  // 86 B at 100G (6.88 ns) + 1000 ns = 1834.9 ns.
  EXPECT_EQ(p.ack_return, Time::FromPs(1'834'900));
  // 2 * floor(1800.5) + 400.
  EXPECT_EQ(HpccBaseRttNs(p), 4000);
  // 2500 bytes in 3 packets of 1000 payload, 48 header bytes each: 2644 B,
  // floor(2644 * 8 / 25) = 846 ns at the 25G bottleneck.
  EXPECT_EQ(HpccStandaloneFctNs(p, 2500, 1000, 48), 4846);
  // Exactly one packet's payload: still one header.
  EXPECT_EQ(HpccStandaloneFctNs(p, 1000, 1000, 48), 4000 + 1048 * 8 / 25);
  // 8 GiB in 8,589,935 packets (the last one 592 bytes): past 2^64 / 8e9 bytes,
  // so the wire time needs more than 64 bits: 9,002,251,472 B x 8 / 25 ns.
  EXPECT_EQ(HpccStandaloneFctNs(p, 8ull << 30, 1000, 48), 4000 + 9'002'251'472ll * 8 / 25);
}

TEST(HpccFct, ManyPairsAtOnceGiveTheSameFigures) {
  TwoHosts h;
  // b -> a by hand: cables 500.5 + 1000 ns and the switch's 300 ns one way;
  // the ACK back at 100G then 25G: 6.88 + 1000 + 300 + 27.52 + 500.5.
  const std::vector<HpccPair> p = HpccPairsOf(h.t, {{h.a, h.b}, {h.b, h.a}, {h.a, h.a}}, 1000, 86);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].delay, Time::FromPs(1'800'500));
  EXPECT_EQ(p[0].tx_delay_ns, 400);
  EXPECT_EQ(p[0].ack_return, Time::FromPs(1'834'900));
  EXPECT_EQ(p[1].delay, Time::FromPs(1'800'500));
  EXPECT_EQ(p[1].tx_delay_ns, 400);
  EXPECT_EQ(p[1].bottleneck_bps, 25'000'000'000u);
  EXPECT_EQ(p[1].ack_return, Time::FromPs(1'834'900));
  EXPECT_EQ(p[2].hops, 0);
}

TEST(HpccFct, UnreachablePairHasNoHops) {
  Topology t;
  const NodeId a = t.AddHost("a"), b = t.AddHost("b");
  EXPECT_EQ(HpccPairOf(t, a, b, 1000, 86).hops, 0);
}

}  // namespace
}  // namespace aifabric
