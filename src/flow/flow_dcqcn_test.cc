// Specs of DCQCN at flow level (flow_dcqcn.h), each against a figure
// worked out by hand from DCQCN's rules (Zhu et al., SIGCOMM 2015;
// fabric/dcqcn_reaction_point.h) and the fluid's conservation. The fabric:
// hosts h0..hN on one switch by 100G links, 500 ns cables, 400 ns switch;
// host i's link gives ports 2i (up) and 2i + 1 (down), so h0's receiving
// port is 1. At the default RoCEv2 framing a 100G link carries
// C = 100e9 x 4096 / 4178 payload bit/s.
#include "flow/flow_dcqcn.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/flow_network.h"
#include "flow/flow_test_util.h"

namespace aifabric {
namespace {

constexpr double kLine = 100e9;
constexpr double kPayload = kLine * 4096.0 / 4178.0;
constexpr PortId kToH0 = 1;

// One switch, `hosts` hosts on 100G links of 500 ns.
Topology HalfMicroStar(int hosts) {
  Topology t;
  for (int h = 0; h < hosts; ++h) {
    std::string name = "h";
    name += std::to_string(h);
    t.AddHost(name);
  }
  const int spec = t.AddSwitchSpec(flow_testing::TestSwitch());
  const NodeId sw = t.AddSwitch("sw", 1, spec);
  for (int h = 0; h < hosts; ++h) t.AddLink(h, sw, DataRate::Gbps(100), Time::FromNs(500));
  return t;
}

// DCQCN on, ECN marking every packet of a queue above 2 bytes (kmin 1,
// kmax 2): a queue pair in a standing queue hears a CNP every cnp_interval.
FlowConfig MarkEverything() {
  FlowConfig c;
  c.dcqcn = true;
  c.ecn.enabled = true;
  c.ecn.kmin_bytes = 1;
  c.ecn.kmax_bytes = 2;
  return c;
}

struct DcqcnHarness {
  DcqcnHarness(const Topology& t, const FlowConfig& config)
      : sim(1), routes(RoutingTable::BuildShortestPaths(t)), net(sim, t, routes, config) {
    net.SetObserver(&finishes);
  }
  void Start(FlowId id, NodeId src, NodeId dst, uint64_t bytes) {
    net.StartTransfer(flow_testing::Request(id, src, dst, bytes));
  }
  Simulator sim;
  RoutingTable routes;
  FlowNetwork net;
  flow_testing::Finishes finishes;
};

TEST(FlowDcqcn, AFlowThroughUncongestedPortsIsNeverCutAndItsFctIsUnchanged) {
  // h1 -> h0 alone, and h2 -> h3 beside it: every port carries one flow at
  // its line rate, so no queue ever forms, nothing ticks and the FCTs are
  // those without DCQCN to the picosecond.
  const Topology t = HalfMicroStar(4);
  DcqcnHarness with(t, MarkEverything()), without(t, FlowConfig{});
  for (DcqcnHarness* h : {&with, &without}) {
    h->Start(1, 1, 0, 4 << 20);
    h->Start(2, 2, 3, 1 << 20);
  }
  EXPECT_DOUBLE_EQ(with.net.rate_bps(0), kPayload);
  with.sim.Run();
  without.sim.Run();
  EXPECT_EQ(with.finishes.at.at(1), without.finishes.at.at(1));
  EXPECT_EQ(with.finishes.at.at(2), without.finishes.at.at(2));
  EXPECT_EQ(with.net.dcqcn()->ticks(), 0u);
  EXPECT_EQ(with.net.dcqcn()->cnps(), 0u);
  EXPECT_EQ(with.net.dcqcn()->reaction_point(0), nullptr);  // never left line rate
}

TEST(FlowDcqcn, QueuePairsHeldBackByTheirOwnNicBuildNoQueueAtTheSwitch) {
  // Two transfers h1 -> h0: h1's link is full and so is the switch's port
  // to h0, but each sends only the half its NIC gives it, so the switch's
  // port gets what it carries: no queue, no mark, the FCTs of no DCQCN.
  const Topology t = HalfMicroStar(3);
  DcqcnHarness with(t, MarkEverything()), without(t, FlowConfig{});
  for (DcqcnHarness* h : {&with, &without}) {
    h->Start(1, 1, 0, 4 << 20);
    h->Start(2, 1, 0, 2 << 20);
  }
  with.sim.Run();
  without.sim.Run();
  EXPECT_EQ(with.finishes.at.at(1), without.finishes.at.at(1));
  EXPECT_EQ(with.finishes.at.at(2), without.finishes.at.at(2));
  EXPECT_EQ(with.net.dcqcn()->cnps(), 0u);
}

TEST(FlowDcqcn, AQueueAboveKmaxCutsOncePerCnpIntervalByTheRules) {
  // Eight senders into h0: a queue from the first step, every packet marked,
  // so each receiver sends a CNP every cnp_interval (50 us) and each cut
  // is R_C <- R_C (1 - alpha/2), alpha <- (1 - g) alpha + g. The alpha
  // timer (K = 12 us here) decays alpha by (1 - g) at each expiry with no
  // CNP since the last: 4 expiries (12..48 us) before the second cut, then
  // 3 (72, 84, 96 after the first) before each later one (the one at
  // 60, 110, ... follows a CNP). Increases are pushed past the run
  // (T = 1 ms), and B is never reached (B = 1 GB).
  const Topology t = HalfMicroStar(9);
  FlowConfig config = MarkEverything();
  config.dcqcn_config.alpha_period = Time::FromUs(12);
  config.dcqcn_config.increase_period = Time::FromMs(1);
  config.dcqcn_config.increase_bytes = 1'000'000'000;
  DcqcnHarness h(t, config);
  for (int s = 1; s <= 8; ++s) h.Start(s, s, 0, 64 << 20);
  const double g = config.dcqcn_config.g;
  double rate = kLine, alpha = 1;
  std::vector<double> expected_rate, expected_alpha;
  for (int cut = 1; cut <= 4; ++cut) {
    if (cut == 2) alpha *= std::pow(1 - g, 4);
    if (cut > 2) alpha *= std::pow(1 - g, 3);
    rate *= 1 - alpha / 2;
    alpha = (1 - g) * alpha + g;
    expected_rate.push_back(rate);
    expected_alpha.push_back(alpha);
  }
  // Sample every microsecond: the cuts come at most once per 50 us, each
  // to the next figure (8 senders at L/2, L/4, L/8 still fill h0's port,
  // so the queue stands through the fourth).
  int cuts = 0;
  Time last_cut;
  for (int us = 1; us <= 170; ++us) {
    h.sim.Run(Time::FromUs(us));
    const DcqcnReactionPoint* rp = h.net.dcqcn()->reaction_point(0);
    const double before = cuts == 0 ? kLine : expected_rate[static_cast<size_t>(cuts - 1)];
    if (rp == nullptr || rp->current_bps() == before) continue;
    ASSERT_LT(cuts, 4) << "a fifth cut at " << us << " us";
    EXPECT_NEAR(rp->current_bps(), expected_rate[static_cast<size_t>(cuts)], 1e-3) << "cut " << cuts + 1;
    EXPECT_NEAR(rp->alpha(), expected_alpha[static_cast<size_t>(cuts)], 1e-12) << "cut " << cuts + 1;
    if (cuts > 0) {
      EXPECT_GE(Time::FromUs(us) - last_cut, Time::FromUs(50));
    }
    last_cut = Time::FromUs(us);
    ++cuts;
  }
  EXPECT_EQ(cuts, 4);
  // Every sender alike (deterministic marks): the same cuts.
  for (uint32_t qp = 1; qp < 8; ++qp) {
    EXPECT_EQ(h.net.dcqcn()->reaction_point(qp)->current_bps(), h.net.dcqcn()->reaction_point(0)->current_bps());
  }
}

TEST(FlowDcqcn, AfterTheQueueClearsFastRecoveryHalvesTheGapToTheTargetEveryT) {
  // Two senders into h0: at L each a queue builds; the first cut (alpha 1)
  // takes each to L/2 (together exactly C: the queue stands), the second,
  // a CNP interval later, to L/4 with R_T = L/2, and the queue drains.
  // Then with no more marks the increase timer (T = 55 us after the cut)
  // steps R_C <- (R_T + R_C) / 2 five times (fast recovery, F = 5):
  // L/2 - L/4 / 2^j, j = 1..5, 55 us apart; the sixth is additive (R_T +=
  // L/20). B is not reached (at most L/2 x 330 us = 2 MB < 10 MB).
  const Topology t = HalfMicroStar(3);
  DcqcnHarness h(t, MarkEverything());
  h.Start(1, 1, 0, 64 << 20);
  h.Start(2, 2, 0, 64 << 20);
  std::vector<double> steps;
  std::vector<int> at_us;
  double last = kLine;
  for (int us = 1; us <= 400 && steps.size() < 8; ++us) {
    h.sim.Run(Time::FromUs(us));
    const DcqcnReactionPoint* rp = h.net.dcqcn()->reaction_point(0);
    if (rp == nullptr || rp->current_bps() == last) continue;
    last = rp->current_bps();
    steps.push_back(last);
    at_us.push_back(us);
  }
  ASSERT_GE(steps.size(), 8u);
  EXPECT_NEAR(steps[0], kLine / 2, 1e-3);
  EXPECT_NEAR(steps[1], kLine / 4, 1e-3);
  for (int j = 1; j <= 5; ++j) {
    EXPECT_NEAR(steps[static_cast<size_t>(1 + j)], kLine / 2 - kLine / 4 / std::pow(2, j), 1e-3) << "step " << j;
    EXPECT_NEAR(at_us[static_cast<size_t>(1 + j)] - at_us[static_cast<size_t>(j)], 55, 1) << "step " << j;
  }
  // Additive increase: R_T = L/2 + L/20, R_C = (R_T + R_C) / 2.
  const double rc5 = kLine / 2 - kLine / 4 / 32;
  EXPECT_NEAR(steps[7], (kLine / 2 + kLine / 20 + rc5) / 2, 1e-3);
  EXPECT_EQ(h.net.dcqcn()->cuts(), 4u);  // two each, none since
}

TEST(FlowDcqcn, PortsConserveBytesAndTheQueueDrainsAtCapacity) {
  // Eight senders into h0 under the default DCQCN and ECN thresholds (at
  // 100G: kmin 200 KB, kmax 800 KB). At every moment each queue pair has
  // sent what h0's port delivered of it plus its backlog, h0's queue is the
  // sum of the backlogs, and while a queue stands the port delivers at C.
  const Topology t = HalfMicroStar(9);
  FlowConfig config;
  config.dcqcn = true;
  config.ecn.enabled = true;
  DcqcnHarness h(t, config);
  constexpr uint64_t kBytes = 4 << 20;
  for (int s = 1; s <= 8; ++s) h.Start(s, s, 0, kBytes);
  bool saw_queue = false;
  int full_intervals = 0;
  double last_carried = 0, last_queue = 0;
  for (int us = 5; us <= 4000; us += 5) {
    h.sim.Run(Time::FromUs(us));
    const FlowDcqcn& d = *h.net.dcqcn();
    const double queue = d.queue_bytes(kToH0, 3);
    double sent = 0, backlog = 0;
    for (uint32_t qp = 0; qp < 8; ++qp) {
      sent += h.net.flows()[qp].done() ? kBytes : d.sent_bytes(qp);
      backlog += h.net.flows()[qp].done() ? 0 : d.backlog_bytes(qp);
    }
    if (h.finishes.at.size() == 8) break;
    EXPECT_NEAR(queue, backlog, 1e-6 * kBytes) << us << " us";
    EXPECT_NEAR(h.net.bytes_carried(kToH0) + backlog, sent, 1e-6 * kBytes) << us << " us";
    const double carried = h.net.bytes_carried(kToH0);
    if (queue > 0 && last_queue > 0) {  // 5 us at C
      EXPECT_NEAR(carried - last_carried, kPayload / 8 * 5e-6, 1e-6 * kBytes) << us << " us";
      ++full_intervals;
    }
    saw_queue |= queue > 0;
    last_carried = carried;
    last_queue = queue;
  }
  EXPECT_TRUE(saw_queue);
  EXPECT_GT(full_intervals, 10);
  EXPECT_EQ(h.finishes.at.size(), 8u);
  h.sim.Run();
  EXPECT_NEAR(h.net.bytes_carried(kToH0), 8.0 * kBytes, 1);
  EXPECT_GT(h.net.dcqcn()->cuts(), 0u);
}

TEST(FlowDcqcn, TheControlStepIsNumericalHalvingItMovesTheIncastByUnderOnePercent) {
  // The step only discretizes the queues and marks (the reaction point's
  // events keep their times): 1 us, 0.5 us and 0.25 us give the same
  // incast within 1%.
  const Topology t = HalfMicroStar(9);
  std::vector<double> last_us;
  for (int64_t step_ns : {1000, 500, 250}) {
    FlowConfig config;
    config.dcqcn = true;
    config.ecn.enabled = true;
    config.dcqcn_step = Time::FromNs(step_ns);
    DcqcnHarness h(t, config);
    for (int s = 1; s <= 8; ++s) h.Start(s, s, 0, 4 << 20);
    h.sim.Run();
    Time last;
    for (const auto& [id, at] : h.finishes.at) last = Max(last, at);
    last_us.push_back(last.us_f());
  }
  std::printf("8-to-1 incast at 100G, last FCT by step 1 / 0.5 / 0.25 us: %.2f / %.2f / %.2f us\n", last_us[0],
              last_us[1], last_us[2]);
  EXPECT_NEAR(last_us[0], last_us[2], 0.01 * last_us[2]);
  EXPECT_NEAR(last_us[1], last_us[2], 0.01 * last_us[2]);
}

TEST(FlowDcqcn, SameScenarioSameFinishes) {
  const Topology t = HalfMicroStar(9);
  FlowConfig config;
  config.dcqcn = true;
  config.ecn.enabled = true;
  std::vector<Time> a, b;
  for (std::vector<Time>* out : {&a, &b}) {
    DcqcnHarness h(t, config);
    for (int s = 1; s <= 8; ++s) h.Start(s, s, 0, (1 + s) << 20);
    h.sim.Run();
    for (const auto& [id, at] : h.finishes.at) out->push_back(at);
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(a.size(), 8u);
}

}  // namespace
}  // namespace aifabric
