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

// h0 -> sw -> h1 at 100G, 500 ns cables, 400 ns switch latency. From t = 0
// a stuck receiver "pauses" one port (h0's NIC, or the switch's port toward
// h1) on priority 3 every 1 us for 60 us, while h0 sends 1 MiB on
// priority 3. Watchdog detection 10 us, restoration 20 us (0: off).
struct Storm {
  enum Where { kAtHost, kAtSwitch };
  Storm(Where where, PfcWatchdogAction action, Time detection = Time::FromUs(10)) {
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
    config.pfc.watchdog_detection = detection;
    config.pfc.watchdog_restoration = Time::FromUs(20);
    config.pfc.watchdog_action = action;
    routes = RoutingTable::BuildShortestPaths(t);
    net = std::make_unique<PacketNetwork>(sim, t, routes, config);
    stormed = where == kAtHost ? t.node(h0).ports[0] : t.node(sw).ports[1];
    for (int us = 0; us < 60; ++us) {
      sim.Schedule(Time::FromUs(us), &net->port(stormed), EgressPort::PfcFrameTag(3, true));
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
  const PortCounters& at_stormed() const { return net->egress(stormed).counters(); }
  uint64_t sent_by_h0() const { return net->egress(t.node(h0).ports[0]).counters().tx_packets; }

  Topology t;
  NodeId h0 = kNoNode;
  PortId stormed = kNoPort;
  Simulator sim{1};
  RoutingTable routes;
  std::unique_ptr<PacketNetwork> net;
};

TEST(PfcWatchdog, AStormOfPausesIsDetectedAndOverridden) {
  // At h0's NIC: at the first refresh after 10 us (t = 10 us) the watchdog
  // fires, h0 sends for 20 us, then the pauses hold it again; the next
  // storm fires 10 us into that pause (t = 40 us). A 1 MiB flow would need
  // 85 us of line rate; by 60 us it has had two 20-us windows:
  // 40e-6 * 100e9 / 8 / 4178 = 119.7 packets. A host adapter always sends
  // anyway, whatever the switches' action.
  Storm storm(Storm::kAtHost, PfcWatchdogAction::kDrop);
  EXPECT_EQ(storm.at_stormed().pfc_storms, 2u);
  EXPECT_NEAR(static_cast<double>(storm.at_stormed().tx_packets), 120, 2);
  EXPECT_EQ(storm.at_stormed().drop_packets, 0u);
  // With the watchdog off, nothing leaves.
  Storm off(Storm::kAtHost, PfcWatchdogAction::kDrop, Time::Zero());
  EXPECT_EQ(off.at_stormed().tx_packets, 0u);
}

TEST(PfcWatchdog, TheDropActionFlushesAndDropsThePriorityAtASwitch) {
  // At the switch's port toward h1, storms come at 10 us and again 10 us
  // into the pause that follows the restoration (40 us), as at a host. With
  // the drop action the switch flushes what it queued for h1 and drops what
  // arrives while mitigating; it never sends to h1 (h1 pauses it whenever
  // it is not dropping). Every packet h0 sent is dropped, still queued, or
  // not yet at the switch: the frame on h0's transmitter (334 ns) plus
  // 500 ns of cable and 400 ns of switch latency hold at most
  // ceil(1234 / 334) = 4 frames.
  Storm drop(Storm::kAtSwitch, PfcWatchdogAction::kDrop);
  const PortCounters& c = drop.at_stormed();
  EXPECT_EQ(c.pfc_storms, 2u);
  EXPECT_EQ(c.tx_packets, 0u);
  EXPECT_GT(c.drop_packets, 0u);
  const uint64_t accounted = c.drop_packets + drop.net->egress(drop.stormed).queue_bytes(3) / 4178;
  EXPECT_LE(accounted, drop.sent_by_h0());
  EXPECT_GE(accounted + 4, drop.sent_by_h0());
  // With the forward action nothing is dropped and the switch sends for
  // the two 20-us windows: 119.7 packets, as at the host.
  Storm forward(Storm::kAtSwitch, PfcWatchdogAction::kForward);
  EXPECT_EQ(forward.at_stormed().pfc_storms, 2u);
  EXPECT_EQ(forward.at_stormed().drop_packets, 0u);
  EXPECT_NEAR(static_cast<double>(forward.at_stormed().tx_packets), 120, 2);
}

}  // namespace
}  // namespace aifabric
