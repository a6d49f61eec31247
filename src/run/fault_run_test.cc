// A link down mid-transfer on a 2-spine leaf-spine, through the whole run
// (scenario, fault plan, model): at flow level the flow finishes at the
// time worked out by hand, at packet level (RDMA, go-back-N) within the
// transport's recovery of it; on InfiniBand the subnet manager's sweep
// reroutes it; a switch down is all its links down. One 400G host under
// each of two leaves, each leaf joined to both spines by a 400G link;
// 500 ns cables; 400 ns switches.
#include <gtest/gtest.h>

#include <string>

#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// 1000 full packets of 4 KiB from h0 to h1 at 0.
std::string Text(const std::string& model, const std::string& kind, const std::string& faults) {
  return "name: fault\nseed: 1\n"
         "cluster: {servers: 2, gpus_per_server: 1, nic: {rate: 400Gbps}}\n"
         "fabric: {kind: " + kind + ", topology: {type: leaf_spine, hosts_per_leaf: 1, spines: 2},"
         " link: {latency: 500ns}, switch: {name: t, radix: 32, port_rate: 400Gbps, latency: 400ns,"
         " buffer: 64MiB}, mtu: 4096}\n"
         "simulation: {model: " + model + "}\n"
         "workload:\n  - flows: [{src: 0, dst: 1, size: 4000KiB}]\n" + faults;
}

std::unique_ptr<ScenarioRun> RunScenario(const std::string& text) {
  Result<Scenario> s = LoadScenarioText(text, "fault.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  if (!s.ok()) return nullptr;
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(*s);
  EXPECT_TRUE(run.ok()) << run.error().message;
  if (!run.ok()) return nullptr;
  (*run)->Execute();
  return std::move(*run);
}

// The spine the flow takes without faults (its ECMP hash, or the SM's table).
std::string SpineOf(const std::string& model, const std::string& kind) {
  std::unique_ptr<ScenarioRun> run = RunScenario(Text(model, kind, ""));
  FabricObservation o;
  run->network().Observe(o);
  const Topology& t = run->topology();
  return t.node(t.port(o.transfers.at(0).path.at(1)).peer).name;
}

std::string LinkDown(const std::string& spine, const std::string& more) {
  return "faults:\n  - {kind: link_down, link: [leaf0, " + spine + "], at: 5us" + more + "}\n";
}

TEST(FaultRun, ALinkDownMidTransferFinishesWhenWorkedOutByHand) {
  // Flow level (flow/flow_faults_test.cc has the working): 83.56 us of
  // data at c = 400G x 4096/4178, stalled from 5 us until routing hears at
  // 15 us, 583.56 ns of it sent again (what the dead link's wire held), and
  // the path's 3,450.68 ns: 97,594,240 ps.
  const std::string spine = SpineOf("flow", "roce");
  std::unique_ptr<ScenarioRun> flow = RunScenario(Text("flow", "roce", LinkDown(spine, ", detection: 10us")));
  const int64_t by_hand = 97'594'240;
  EXPECT_EQ(flow->finish(0).ps(), by_hand);

  // Packet level, RDMA go-back-N: packets reach the spine ~2 tau + 1.8 us
  // after their first bit leaves h0 (tau = 83.56 ns a packet), so the last
  // to survive left h0 ~1.97 us before the failure: that much more data
  // than the fluid's 583.56 ns is lost. At 15 us the flow moves; its first
  // packet on the new path reaches h1 one path latency plus a packet later
  // (3.53 us) and h1's NAK returns as late again, so the sender goes back
  // at ~22 us, where the fluid resumed at 15 us. So the packet level ends
  // later than the fluid by at most that round trip, 2 x 3.53 us, plus the
  // extra data, 1.97 us - 0.58 us, plus a packet either way: within
  // [by_hand, by_hand + 8.6 us].
  const std::string packet_spine = SpineOf("packet", "roce");
  std::unique_ptr<ScenarioRun> packet = RunScenario(Text("packet", "roce", LinkDown(packet_spine, ", detection: 10us")));
  const int64_t tau = 83'560, path = 3'450'680;
  const int64_t bound = 2 * (path + tau) + (1'800'000 + 2 * tau - 583'560) + 2 * tau;
  EXPECT_GE(packet->finish(0).ps(), by_hand);
  EXPECT_LE(packet->finish(0).ps(), by_hand + bound) << bound;
  const FaultOutcome out = packet->network().FaultOutcomes().at(0);
  EXPECT_EQ(out.rerouted, Time::FromUs(15));
  EXPECT_GT(out.packets_lost.value_or(0), 0u);
  EXPECT_GT(out.bytes_resent, 0u);
}

TEST(FaultRun, ASwitchDownMidTransferFinishesWhenWorkedOutByHand) {
  // The flow's spine fails at 5 us (all four of its links), routing hears
  // at 15 us. As for one link down, but the flow crossed two of the
  // switch's links, leaf0 -> spine and spine -> leaf1, and each dying port
  // held 583.56 ns of it (cable + frame at c), all sent again:
  //   FCT = 83.56 us + 10 us + 2 x 583.56 ns + 3,450.68 ns = 98,177,800 ps.
  // Packet level: as for the link (below), but what is lost reaches one hop
  // further, past the spine into leaf1 (a 500 ns cable, a 400 ns switch
  // and a frame more in flight: ~2.7 us + 3 tau before the failure), of
  // which the fluid already sends 2 x 583.56 ns again; the round trip of
  // the NAK and a packet either way as for the link.
  const std::string fault = "faults:\n  - {kind: switch_down, node: ";
  const std::string spine = SpineOf("flow", "roce");
  std::unique_ptr<ScenarioRun> flow =
      RunScenario(Text("flow", "roce", fault + spine + ", at: 5us, detection: 10us}\n"));
  ASSERT_NE(flow, nullptr);
  EXPECT_EQ(flow->finish(0).ps(), 98'177'800);
  const FaultOutcome out = flow->network().FaultOutcomes().at(0);
  EXPECT_EQ(out.detected, Time::FromUs(15));
  EXPECT_EQ(out.rerouted, Time::FromUs(15));
  EXPECT_EQ(out.flows_rerouted, 1u);
  EXPECT_EQ(out.bytes_resent, 57'211u);  // 2 x 29,178 x 4096 / 4178 = 57,210.6 B

  const std::string packet_spine = SpineOf("packet", "roce");
  std::unique_ptr<ScenarioRun> packet =
      RunScenario(Text("packet", "roce", fault + packet_spine + ", at: 5us, detection: 10us}\n"));
  ASSERT_NE(packet, nullptr);
  const int64_t tau = 83'560, path = 3'450'680;
  const int64_t bound = 2 * (path + tau) + (2'700'000 + 3 * tau - 2 * 583'560) + 2 * tau;
  EXPECT_GE(packet->finish(0).ps(), 98'177'800);
  EXPECT_LE(packet->finish(0).ps(), 98'177'800 + bound) << bound;
  const FaultOutcome pout = packet->network().FaultOutcomes().at(0);
  EXPECT_EQ(pout.rerouted, Time::FromUs(15));
  EXPECT_GT(pout.packets_lost.value_or(0), 0u);
}

TEST(FaultRun, InfiniBandReroutesAtTheSubnetManagersSweep) {
  // InfiniBand framing: 26 B a packet, so c = 400G x 4096/4122, 1000
  // packets drain in 82.44 us, a frame is 82.44 ns, the path 2,000 + 1,200
  // + 3 x 82.44 = 3,447.32 ns, a dying link's wire 500 + 82.44 ns. With a
  // 20 us sweep interval the first sweep after the 5 us failure is at 20
  // us: min-hop over the links still up sends the flow by the other spine.
  //   FCT = 82.44 + 15 + 0.58244 + 3.44732 us = 101,469,760 ps.
  // Until that sweep the flow is stuck: no detection delay of its own.
  // At packet level the packets sent into the dead link until the sweep
  // are lost, and the transport recovers within the bound of the RoCEv2
  // case, with InfiniBand's frame (82.44 ns) and path (3,447.32 ns).
  const int64_t by_hand = 101'469'760;
  const int64_t tau = 82'440, path = 3'447'320;
  const int64_t bound = 2 * (path + tau) + (1'800'000 + 2 * tau - 582'440) + 2 * tau;
  for (const std::string model : {"flow", "packet"}) {
    std::string text = Text(model, "ib", LinkDown(SpineOf(model, "ib"), ""));
    text.replace(text.find("mtu: 4096}"), 10, "mtu: 4096, ib: {sm_sweep_interval: 20us}}");
    std::unique_ptr<ScenarioRun> run = RunScenario(text);
    if (model == "flow") {
      EXPECT_EQ(run->finish(0).ps(), by_hand);
    } else {
      EXPECT_GE(run->finish(0).ps(), by_hand);
      EXPECT_LE(run->finish(0).ps(), by_hand + bound) << bound;
    }
    const FaultOutcome out = run->network().FaultOutcomes().at(0);
    EXPECT_EQ(out.detected, Time::FromUs(20)) << model;
    EXPECT_EQ(out.rerouted, Time::FromUs(20)) << model;
    EXPECT_EQ(out.flows_rerouted, 1u) << model;
  }
}

// Two planes (`planes: 2`): each 400G NIC has a 200G HCA port into each
// plane, each plane its own subnet with its own subnet manager. The flow
// hashes onto one plane; that plane's leaf-spine link dies at 5 us and its
// SM's sweep at 20 us routes it by the plane's other spine. The flow keeps
// its HCA port (its plane still reaches h1) and never leaves the plane.
// At flow level the fault costs exactly the stall and the dying wire's
// payload sent again, on an otherwise equal path (the same hops and
// rates): (20 - 5) us + (500 ns cable + one 4,122 B frame at 400G, 82.44
// ns) = 15,582,440 ps over the run without it.
TEST(FaultRun, InfiniBandPlanesRerouteInsideTheirPlane) {
  for (const std::string model : {"flow", "packet"}) {
    auto text = [&](const std::string& faults) {
      std::string t = Text(model, "ib", faults);
      t.replace(t.find("spines: 2}"), 10, "spines: 2, planes: 2}");
      t.replace(t.find("mtu: 4096}"), 10, "mtu: 4096, ib: {sm_sweep_interval: 20us}}");
      return t;
    };
    std::unique_ptr<ScenarioRun> base = RunScenario(text(""));
    ASSERT_NE(base, nullptr);
    const Topology& t = base->topology();
    FabricObservation before;
    base->network().Observe(before);
    const std::vector<PortId> path = before.transfers.at(0).path;
    ASSERT_EQ(path.size(), 4u);
    const std::string leaf = t.node(t.port(path[0]).peer).name;
    const std::string spine = t.node(t.port(path[1]).peer).name;
    std::unique_ptr<ScenarioRun> run =
        RunScenario(text("faults:\n  - {kind: link_down, link: [" + leaf + ", " + spine + "], at: 5us}\n"));
    ASSERT_NE(run, nullptr);
    const FaultOutcome out = run->network().FaultOutcomes().at(0);
    EXPECT_EQ(out.detected, Time::FromUs(20)) << model;
    EXPECT_EQ(out.rerouted, Time::FromUs(20)) << model;
    EXPECT_EQ(out.flows_rerouted, 1u) << model;
    FabricObservation after;
    run->network().Observe(after);
    const std::vector<PortId> moved = after.transfers.at(0).path;
    ASSERT_EQ(moved.size(), 4u);
    EXPECT_EQ(moved[0], path[0]) << model;  // the same HCA port, so the same plane
    EXPECT_EQ(moved[3], path[3]) << model;  // into h1 by its port of that plane
    EXPECT_NE(t.node(t.port(moved[1]).peer).name, spine) << model;
    if (model == "flow") {
      EXPECT_EQ(run->finish(0).ps() - base->finish(0).ps(), 15'582'440);
    } else {
      EXPECT_GT(run->finish(0).ps() - base->finish(0).ps(), 15'582'440);
    }
  }
}

}  // namespace
}  // namespace aifabric
