// The gray_link rule on hand-made observations: a link's FCS errors name
// it (the lossier direction), rank it above the congestion it shares the
// run with, and nothing without them.
#include <gtest/gtest.h>

#include "diagnosis/diagnosis.h"
#include "fabric/fabric_test_util.h"

namespace aifabric {
namespace {

FabricObservation Observed(const Topology& t) {
  FabricObservation o;
  o.active_time = Time::FromMs(1);
  for (const Port& p : t.ports()) {
    PortObservation port;
    port.port = p.id;
    o.ports.push_back(port);
  }
  // One transfer h0 -> h1 that resent 8 KiB.
  TransferObservation x{1, 0, 1, 1 << 20, Time::Zero(), Time::FromMs(1), Time::FromUs(100), {0, 3}, "job"};
  x.resent_bytes = 8192;
  o.transfers.push_back(x);
  return o;
}

TEST(GrayLinkRule, FcsErrorsNameTheLossierDirectionWithItsLossRate) {
  const Topology t = fabric_testing::TwoHostsOnASwitch();
  FabricObservation o = Observed(t);
  // sw -> h1 sent 10000 packets and lost 100 (1%); h1 -> sw (its ACKs)
  // 2000 and lost 10 (0.5%). A congested port elsewhere drops 50.
  o.ports[3].tx_packets = 10000;
  o.ports[3].fcs_error_packets = 100;
  o.ports[3].drop_packets = 100;
  o.ports[2].tx_packets = 2000;
  o.ports[2].fcs_error_packets = 10;
  o.ports[2].drop_packets = 10;
  o.ports[0].drop_packets = 50;
  const std::vector<Finding> f = Diagnose(t, o);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, "gray_link");
  EXPECT_EQ(t.node(f[0].node).name, "sw");
  EXPECT_EQ(t.node(f[0].port_peer).name, "h1");
  // loss 1% = gray_link_full_loss: severity 0.5 + 0.5 x 1.
  EXPECT_DOUBLE_EQ(f[0].severity, 1.0);
  EXPECT_EQ(f[0].evidence["found_by"], "fcs_errors");
  EXPECT_EQ(f[0].evidence["loss_rate"].get<double>(), 0.01);
  EXPECT_EQ(f[0].evidence["reverse_fcs_error_packets"].get<uint64_t>(), 10u);
  EXPECT_EQ(f[0].evidence["reverse_loss_rate"].get<double>(), 0.005);
  EXPECT_EQ(f[0].evidence["bytes_resent"].get<uint64_t>(), 8192u);
  EXPECT_EQ(f[0].evidence["fcs_error_packets"].get<uint64_t>(), 100u);
  // The congestion drops stay a symptom of their own port: 0.5 x 1/1 of
  // the transfers cross it.
  EXPECT_EQ(f[1].kind, "drops");
  EXPECT_EQ(f[1].port, 0);
  EXPECT_DOUBLE_EQ(f[1].severity, 0.5);
}

TEST(GrayLinkRule, ALowerLossRateScalesTheSeverity) {
  const Topology t = fabric_testing::TwoHostsOnASwitch();
  FabricObservation o = Observed(t);
  // 0.1% loss: 0.5 + 0.5 x 0.1 = 0.55.
  o.ports[1].tx_packets = 10000;
  o.ports[1].fcs_error_packets = 10;
  const std::vector<Finding> f = Diagnose(t, o);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "gray_link");
  EXPECT_EQ(f[0].port, 1);
  EXPECT_DOUBLE_EQ(f[0].severity, 0.55);
}

TEST(GrayLinkRule, CongestionDropsAloneAreNoGrayLink) {
  const Topology t = fabric_testing::TwoHostsOnASwitch();
  FabricObservation o = Observed(t);
  o.ports[3].tx_packets = 10000;
  o.ports[3].drop_packets = 100;
  for (const Finding& f : Diagnose(t, o)) EXPECT_NE(f.kind, "gray_link");
}

}  // namespace
}  // namespace aifabric
