// The PFC watchdog: a priority paused without a break for the detection
// time is a storm; the port then ignores pauses for the restoration time,
// and a switch port with the drop action drops that priority's packets.
#include <gtest/gtest.h>

#include <memory>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

TEST(PfcWatchdog, AStormOfPausesIsDetectedAndOverridden) {
  // h0 -> sw -> h1 at 100G. From t = 0 the switch side "pauses" h0's port
  // on priority 3 every 1 us (refreshes, as a stuck receiver would). With
  // detection 10 us and restoration 20 us: at the first refresh after
  // 10 us (t = 10 us) the watchdog fires, h0 sends for 20 us, then the
  // pauses hold it again; the next storm fires 10 us into that pause
  // (t = 40 us). A 1 MiB flow would need 85 us of line rate; by 60 us it
  // has had two 20-us windows: 2 x 20 us x 100G = 500 KB, about 120 packets.
  Topology t;
  const NodeId h0 = t.AddHost("h0"), h1 = t.AddHost("h1");
  SwitchSpec spec;
  spec.radix = 4;
  spec.port_rate = DataRate::Gbps(100);
  spec.latency = Time::FromNs(400);
  spec.buffer_bytes = 16 << 20;
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
  t.AddLink(h0, sw, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(sw, h1, DataRate::Gbps(100), Time::FromNs(500));
  PacketConfig config;
  config.pfc.enabled = true;
  config.pfc.watchdog_detection = Time::FromUs(10);
  config.pfc.watchdog_restoration = Time::FromUs(20);
  Simulator sim(1);
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  PacketNetwork net(sim, t, routes, config);
  const PortId nic = t.node(h0).ports[0];
  for (int us = 0; us < 60; ++us) {
    sim.Schedule(Time::FromUs(us), &net.port(nic), EgressPort::PfcFrameTag(3, true));
  }
  TransferRequest r;
  r.id = 0;
  r.src = h0;
  r.dst = h1;
  r.bytes = 1 << 20;
  r.priority = 3;
  sim.ScheduleCallback(Time::FromNs(500), [&] { net.StartTransfer(r); });
  sim.Run(Time::FromUs(60));
  const PortCounters& c = net.egress(nic).counters();
  EXPECT_EQ(c.pfc_storms, 2u);
  // 40 us of overridden time at 100G: 40e-6 * 100e9 / 8 / 4178 = 119.7.
  EXPECT_NEAR(static_cast<double>(c.tx_packets), 120, 2);
  // With the watchdog off, nothing leaves.
  PacketConfig off = config;
  off.pfc.watchdog_detection = Time::Zero();
  Simulator sim2(1);
  PacketNetwork net2(sim2, t, routes, off);
  for (int us = 0; us < 60; ++us) {
    sim2.Schedule(Time::FromUs(us), &net2.port(nic), EgressPort::PfcFrameTag(3, true));
  }
  sim2.ScheduleCallback(Time::FromNs(500), [&] { net2.StartTransfer(r); });
  sim2.Run(Time::FromUs(60));
  EXPECT_EQ(net2.egress(nic).counters().tx_packets, 0u);
}

struct StormAtSwitch {
  // h0 -> sw -> h1 at 100G; from t = 0, h1 "pauses" the switch's port
  // toward it on priority 3 every 1 us for 60 us (a stuck receiver), while
  // h0 sends 1 MiB on priority 3. Detection 10 us, restoration 20 us.
  explicit StormAtSwitch(PfcWatchdogAction action) {
    h0 = t.AddHost("h0");
    const NodeId h1 = t.AddHost("h1");
    SwitchSpec spec;
    spec.radix = 4;
    spec.port_rate = DataRate::Gbps(100);
    spec.latency = Time::FromNs(400);
    spec.buffer_bytes = 16 << 20;
    const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
    t.AddLink(h0, sw, DataRate::Gbps(100), Time::FromNs(500));
    t.AddLink(sw, h1, DataRate::Gbps(100), Time::FromNs(500));
    PacketConfig config;
    config.pfc.enabled = true;
    config.pfc.watchdog_detection = Time::FromUs(10);
    config.pfc.watchdog_restoration = Time::FromUs(20);
    config.pfc.watchdog_action = action;
    routes = RoutingTable::BuildShortestPaths(t);
    net = std::make_unique<PacketNetwork>(sim, t, routes, config);
    to_h1 = t.node(sw).ports[1];
    for (int us = 0; us < 60; ++us) {
      sim.Schedule(Time::FromUs(us), &net->port(to_h1), EgressPort::PfcFrameTag(3, true));
    }
    TransferRequest r;
    r.id = 0;
    r.src = h0;
    r.dst = h1;
    r.bytes = 1 << 20;
    r.priority = 3;
    sim.ScheduleCallback(Time::FromNs(500), [this, r] { net->StartTransfer(r); });
    sim.Run(Time::FromUs(60));
  }
  const PortCounters& at_switch() const { return net->egress(to_h1).counters(); }
  uint64_t sent_by_h0() const { return net->egress(t.node(h0).ports[0]).counters().tx_packets; }
  Topology t;
  NodeId h0 = kNoNode;
  PortId to_h1 = kNoPort;
  Simulator sim{1};
  RoutingTable routes;
  std::unique_ptr<PacketNetwork> net;
};

TEST(PfcWatchdog, TheDropActionFlushesAndDropsThePriorityAtASwitch) {
  // Storms at 10 us and again 10 us into the pause that follows the
  // restoration (40 us), as at a host. With the drop action the switch
  // flushes what it queued for h1 and drops what arrives while mitigating;
  // it never sends to h1 (h1 pauses it whenever it is not dropping). Every
  // packet h0 sent is dropped, still queued, or not yet at the switch: the
  // frame on h0's transmitter (334 ns) plus 500 ns of cable and 400 ns of
  // switch latency hold at most ceil(1234 / 334) = 4 frames.
  StormAtSwitch drop(PfcWatchdogAction::kDrop);
  const PortCounters& c = drop.at_switch();
  EXPECT_EQ(c.pfc_storms, 2u);
  EXPECT_EQ(c.tx_packets, 0u);
  EXPECT_GT(c.drop_packets, 0u);
  const uint64_t accounted = c.drop_packets + drop.net->egress(drop.to_h1).queue_bytes(3) / 4178;
  EXPECT_LE(accounted, drop.sent_by_h0());
  EXPECT_GE(accounted + 4, drop.sent_by_h0());
  // With the forward action nothing is dropped and the switch sends for
  // the two 20-us windows: 40e-6 * 100e9 / 8 / 4178 = 119.7 packets.
  StormAtSwitch forward(PfcWatchdogAction::kForward);
  EXPECT_EQ(forward.at_switch().pfc_storms, 2u);
  EXPECT_EQ(forward.at_switch().drop_packets, 0u);
  EXPECT_NEAR(static_cast<double>(forward.at_switch().tx_packets), 120, 2);
}

}  // namespace
}  // namespace aifabric
