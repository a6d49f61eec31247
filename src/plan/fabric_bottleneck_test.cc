#include "plan/fabric_bottleneck.h"

#include <gtest/gtest.h>

#include <map>

namespace aifabric {
namespace {

// A fabric model that only answers what each port sent.
class CountedNetwork final : public FabricNetwork {
 public:
  std::map<PortId, uint64_t> tx_bytes;
  ModelKind kind() const override { return ModelKind::kFlow; }
  Time IdealFct(const TransferRequest&) const override { return Time(); }
  PortCounters LinkCounters(PortId port) const override {
    PortCounters c;
    auto it = tx_bytes.find(port);
    if (it != tx_bytes.end()) c.tx_bytes = it->second;
    return c;
  }
  NetworkTotals RunTotals() const override { return {}; }
  size_t TransfersCompleted() const override { return 0; }
  void Observe(FabricObservation&) const override {}
  void StartTransfer(const TransferRequest&) override {}
  void SetObserver(TransferObserver*) override {}
};

// Two hosts under leaf0 and leaf1, both leaves up to spine0, 100G links.
// Over 1 ms a 100G link carries 12.5 MB; by hand: h0 -> leaf0 sent 2.5 MB
// (20% busy), leaf0 -> spine0 10 MB (80%), spine0 -> leaf1 5 MB (40%).
TEST(FabricBottleneck, TheBusiestLinkAndEachTiersLoad) {
  Topology t;
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  const NodeId h0 = t.AddHost("h0"), h1 = t.AddHost("h1");
  const NodeId leaf0 = t.AddSwitch("leaf0", 1, spec), leaf1 = t.AddSwitch("leaf1", 1, spec);
  const NodeId spine0 = t.AddSwitch("spine0", 2, spec);
  const DataRate rate = DataRate::Gbps(100);
  t.AddLink(h0, leaf0, rate, Time::FromNs(100));
  t.AddLink(h1, leaf1, rate, Time::FromNs(100));
  t.AddLink(leaf0, spine0, rate, Time::FromNs(100));
  t.AddLink(leaf1, spine0, rate, Time::FromNs(100));
  CountedNetwork net;
  auto port = [&](NodeId from, NodeId to) {
    for (const Port& p : t.ports()) {
      if (p.node == from && p.peer == to) return p.id;
    }
    return kNoPort;
  };
  net.tx_bytes[port(h0, leaf0)] = 2'500'000;
  net.tx_bytes[port(leaf0, spine0)] = 10'000'000;
  net.tx_bytes[port(spine0, leaf1)] = 5'000'000;
  const FabricBottleneck b = FindFabricBottleneck(t, net, Time::FromNs(1'000'000));
  EXPECT_EQ(b.link, "leaf0 -> spine0");
  EXPECT_EQ(b.tier, "leaf-spine");
  EXPECT_DOUBLE_EQ(b.busy, 0.8);
  ASSERT_EQ(b.tiers.size(), 2u);
  EXPECT_EQ(b.tiers[0].tier, "host-leaf");
  EXPECT_EQ(b.tiers[0].links, 4);  // both directions of both host links
  EXPECT_DOUBLE_EQ(b.tiers[0].mean_busy, 0.2 / 4);
  EXPECT_DOUBLE_EQ(b.tiers[0].max_busy, 0.2);
  EXPECT_EQ(b.tiers[1].tier, "leaf-spine");
  EXPECT_DOUBLE_EQ(b.tiers[1].mean_busy, (0.8 + 0.4) / 4);
  EXPECT_EQ(BottleneckWords(b), "leaf-spine (leaf0 -> spine0, 80% busy over the step)");
}

TEST(FabricBottleneck, AnIdleFabricHasNone) {
  Topology t;
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  t.AddLink(t.AddHost("h0"), t.AddSwitch("leaf0", 1, spec), DataRate::Gbps(100), Time::FromNs(100));
  CountedNetwork net;
  const FabricBottleneck b = FindFabricBottleneck(t, net, Time::FromNs(1000));
  EXPECT_EQ(b.link, "");
  EXPECT_EQ(BottleneckWords(b), "no fabric link carried traffic");
}

}  // namespace
}  // namespace aifabric
