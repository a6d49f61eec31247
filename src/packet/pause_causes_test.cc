// PacketNetwork::pause_causes: which switch egress made a switch pause an
// upstream port, on an incast whose only congested egress is known.
#include <gtest/gtest.h>

#include <memory>

#include "engine/simulator.h"
#include "fabric/fabric_observation.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

TEST(PauseCauses, IncastPausesNameTheEgressTowardTheReceiver) {
  // h1..h4 send 1 MiB each to h5 through one switch, 100G links, PFC on
  // priority 3, no transport and so no congestion control: the switch's
  // egress toward h5 is 4:1 oversubscribed; every ingress from a sender
  // fills up behind it and the switch pauses that sender. So every pause
  // names sw -> h5 as its cause, and h1..h4 are paused.
  // A decoy: h5 sends 2 packets (8,356 B) to h0 on the same priority, and
  // the test holds sw -> h0 paused from 0 to 835 us (a PAUSE every 100 us
  // up to 500 us, 335.5 us each), so that egress, with a lower port id
  // than the cause, holds 8,356 B at every pause: a rule that took the
  // first non-empty egress, rather than the fullest, would name it.
  Topology t;
  for (int i = 0; i <= 5; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
  SwitchSpec spec;
  spec.name = "test";
  spec.radix = 8;
  spec.port_rate = DataRate::Gbps(100);
  spec.latency = Time::FromNs(400);
  spec.buffer_bytes = 1 << 20;
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
  for (int i = 0; i <= 5; ++i) t.AddLink(i, sw, DataRate::Gbps(100), Time::FromNs(500));
  // Link i joins h_i and sw: port 2i is h_i -> sw, 2i+1 is sw -> h_i.
  const PortId toward_receiver = 11, decoy = 1;
  Simulator sim(1);
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  PacketConfig config;
  config.pfc.enabled = true;
  PacketNetwork net(sim, t, routes, config);
  auto start = [&](FlowId id, NodeId src, NodeId dst, uint64_t bytes) {
    TransferRequest r;
    r.id = id;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    r.priority = 3;
    net.StartTransfer(r);
  };
  for (int i = 1; i <= 4; ++i) start(i, i, 5, 1 << 20);
  start(5, 5, 0, 2 * 4096);
  for (int us = 0; us <= 500; us += 100) sim.Schedule(Time::FromUs(us), &net.port(decoy), EgressPort::PfcFrameTag(3, true));
  std::vector<uint64_t> decoy_queue;  // at 100, 200, 300 us
  for (int us : {100, 200, 300}) {
    sim.ScheduleCallback(Time::FromUs(us), [&] { decoy_queue.push_back(net.egress(decoy).queue_bytes(3)); });
  }
  sim.Run();

  EXPECT_EQ(decoy_queue, (std::vector<uint64_t>{8356, 8356, 8356}));
  const std::vector<PauseCause> causes = net.pause_causes();
  ASSERT_EQ(causes.size(), 4u);  // one (paused, cause) pair per sender
  uint64_t frames = 0;
  for (size_t i = 0; i < causes.size(); ++i) {
    EXPECT_EQ(causes[i].paused, static_cast<PortId>(2 * (i + 1)));  // h_{i+1} -> sw, sorted
    EXPECT_EQ(causes[i].cause, toward_receiver);
    EXPECT_GT(causes[i].frames, 0u);
    frames += causes[i].frames;
  }
  // The switch's frames over those links are these pauses plus at least
  // one resume each (every pause episode ends once the incast drains).
  uint64_t sent = 0;
  for (int i = 1; i <= 4; ++i) sent += net.egress(2 * i + 1).counters().pfc_frames_tx;
  EXPECT_LE(frames + 4, sent);
  EXPECT_EQ(net.totals().dropped, 0u);
  EXPECT_EQ(net.totals().delivered, 4ull * (1 << 20) + 2 * 4096);
}

}  // namespace
}  // namespace aifabric
