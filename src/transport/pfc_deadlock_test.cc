// A PFC deadlock: four switches in a ring, routes all clockwise, so every
// ring link's buffer waits on the next one's — the cyclic buffer dependency
// that real fabrics avoid with up/down routing.
#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"
#include "transport/rc_transport.h"

namespace aifabric {
namespace {

struct Ring {
  Ring() {
    for (int i = 0; i < 4; ++i) topology.AddHost(std::string("h").append(std::to_string(i)));
    SwitchSpec spec;
    spec.radix = 8;
    spec.port_rate = DataRate::Gbps(100);
    spec.latency = Time::FromNs(400);
    spec.buffer_bytes = 1'000'000;
    const int s = topology.AddSwitchSpec(spec);
    for (int i = 0; i < 4; ++i) topology.AddSwitch(std::string("s").append(std::to_string(i)), 1, s);
    PortId host_port[4], clockwise[4];
    for (int i = 0; i < 4; ++i) host_port[i] = 2 * topology.AddLink(4 + i, i, DataRate::Gbps(100), Time::FromNs(500));
    for (int i = 0; i < 4; ++i) {
      clockwise[i] = 2 * topology.AddLink(4 + i, 4 + (i + 1) % 4, DataRate::Gbps(100), Time::FromNs(500));
    }
    ForwardingTables lft(topology);
    for (int sw = 0; sw < 4; ++sw) {
      for (int dst = 0; dst < 4; ++dst) lft.Set(4 + sw, dst, dst == sw ? host_port[sw] : clockwise[sw]);
    }
    routes = RoutingTable::FromForwardingTables(topology, lft);
  }
  Topology topology;
  RoutingTable routes;
};

struct RingOutcome {
  uint64_t deadlocks = 0;
  uint64_t storms = 0;
  size_t completed = 0;
};

// Each host sends 4 MiB two hops clockwise: every ring link carries two
// flows (one entering, one passing through) at 200G offered on 100G.
RingOutcome RunRing(Time watchdog_detection, Time until, PfcWatchdogAction action = PfcWatchdogAction::kDrop) {
  const Ring ring;
  PacketConfig config;
  config.pfc.enabled = true;
  config.pfc.watchdog_detection = watchdog_detection;
  config.pfc.watchdog_restoration = Time::FromUs(200);
  config.pfc.watchdog_action = action;
  Simulator sim(1);
  RcTransport transport(TransportConfig{});  // go-back-N resends what the watchdog drops
  PacketNetwork net(sim, ring.topology, ring.routes, config, &transport);
  for (int i = 0; i < 4; ++i) {
    TransferRequest r;
    r.id = i;
    r.src = i;
    r.dst = (i + 2) % 4;
    r.bytes = 4 << 20;
    r.priority = 3;
    net.StartTransfer(r);
  }
  sim.Run(until);
  RingOutcome o;
  o.deadlocks = net.pfc_deadlocks();
  for (const Port& p : ring.topology.ports()) o.storms += net.egress(p.id).counters().pfc_storms;
  for (const FlowState& f : net.flows()) o.completed += f.done();
  return o;
}

TEST(PfcDeadlock, ACyclicBufferDependencyIsDetectedAndTheWatchdogBreaksIt) {
  // Without the watchdog the ring locks up: no flow finishes, and the
  // detector reports one deadlock (it persists, so it is counted once).
  const RingOutcome stuck = RunRing(Time::Zero(), Time::FromMs(5));
  EXPECT_EQ(stuck.deadlocks, 1u);
  EXPECT_EQ(stuck.completed, 0u);
  EXPECT_EQ(stuck.storms, 0u);
  // With a 200 us watchdog, a stormed switch port drops the priority for
  // 200 us (SONiC's default action) and the transport resends: the
  // deadlock keeps re-forming and being broken, and every byte of the
  // 4 x 4 MiB arrives.
  const RingOutcome dropped = RunRing(Time::FromUs(200), Time::FromMs(50));
  EXPECT_GT(dropped.storms, 0u);
  EXPECT_GE(dropped.deadlocks, 1u);
  EXPECT_EQ(dropped.completed, 4u);
  // The forward action sends anyway instead (the receiver may then drop,
  // and the transport resends): the same outcome.
  const RingOutcome forwarded = RunRing(Time::FromUs(200), Time::FromMs(50), PfcWatchdogAction::kForward);
  EXPECT_GT(forwarded.storms, 0u);
  EXPECT_GE(forwarded.deadlocks, 1u);
  EXPECT_EQ(forwarded.completed, 4u);
}

}  // namespace
}  // namespace aifabric
