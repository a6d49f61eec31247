// Port and queue counters of the packet model, checked by conservation:
// what a port sends arrives at the far end, the queues add up to the port,
// and what is offered to an egress is either sent or dropped.
#include "fabric/port_counters.h"

#include <gtest/gtest.h>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

// Hosts h0..h3 (ids 0-3) under switch A (id 6), h4 and h5 (4, 5) under
// switch B (id 7); 100G links with 500 ns cables. Port ids: link i joins
// its two ends, port 2i goes from the first node to the second, 2i+1 back:
//   h_i -> A: 2i, A -> h_i: 2i+1 (i < 4); h4 -> B: 8, B -> h4: 9;
//   h5 -> B: 10, B -> h5: 11; A -> B: 12, B -> A: 13.
// Traffic (no transport: line rate, nothing comes back): h0, h1 -> h4 on
// priority 3; h2, h3 -> h4 on priority 1; h5 -> h0 on priority 3; 512 KiB
// each. A -> B is 4:1 oversubscribed.
constexpr PortId kAtoB = 12;
constexpr PortId kAtoH0 = 1;

struct Dumbbell {
  Dumbbell(uint64_t buffer_bytes, const PacketConfig& config) {
    for (int i = 0; i < 6; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
    SwitchSpec spec;
    spec.name = "test";
    spec.radix = 8;
    spec.port_rate = DataRate::Gbps(100);
    spec.latency = Time::FromNs(400);
    spec.buffer_bytes = buffer_bytes;
    const int s = t.AddSwitchSpec(spec);
    const NodeId a = t.AddSwitch("A", 1, s), b = t.AddSwitch("B", 1, s);
    for (int i = 0; i < 4; ++i) t.AddLink(i, a, DataRate::Gbps(100), Time::FromNs(500));
    t.AddLink(4, b, DataRate::Gbps(100), Time::FromNs(500));
    t.AddLink(5, b, DataRate::Gbps(100), Time::FromNs(500));
    t.AddLink(a, b, DataRate::Gbps(100), Time::FromNs(500));
    routes = RoutingTable::BuildShortestPaths(t);
    net = std::make_unique<PacketNetwork>(sim, t, routes, config);
    Start(0, 0, 4, 3);
    Start(1, 1, 4, 3);
    Start(2, 2, 4, 1);
    Start(3, 3, 4, 1);
    Start(4, 5, 0, 3);
    sim.Run();  // to the last event: the network has drained
    net->FinishRun(sim.Now());
  }
  void Start(FlowId id, NodeId src, NodeId dst, uint8_t priority) {
    TransferRequest r;
    r.id = id;
    r.src = src;
    r.dst = dst;
    r.bytes = 512 << 10;
    r.priority = priority;
    net->StartTransfer(r);
  }
  const PortCounters& tx(PortId id) const { return net->egress(id).counters(); }
  const PortRxCounters& rx(PortId id) const { return net->received(id); }
  QueueCounters q(PortId id, int priority) const { return net->egress(id).queue_counters(priority); }

  Topology t;
  Simulator sim{1};
  RoutingTable routes;
  std::unique_ptr<PacketNetwork> net;
};

PacketConfig Lossy() {
  PacketConfig c;
  c.ecn.enabled = true;  // marks, so the per-queue ECN sums are not all zero
  c.ecn.kmin_bytes = 10'000;
  c.ecn.kmax_bytes = 50'000;
  return c;
}

PacketConfig Lossless() {
  PacketConfig c;
  c.pfc.enabled = true;  // priority 3 lossless (the default mask: 3 and 4), priority 1 lossy
  return c;
}

// The laws every run obeys once drained; `label` names the run.
void ExpectConserved(const Dumbbell& d, const char* label) {
  SCOPED_TRACE(label);
  EXPECT_EQ(d.net->packets_in_use(), 0u);  // drained: nothing queued or in flight
  // Every link: what one end sent, the other end received.
  for (const Port& p : d.t.ports()) {
    EXPECT_EQ(d.tx(p.id).tx_bytes, d.rx(p.id ^ 1).rx_bytes) << "port " << p.id;
    EXPECT_EQ(d.tx(p.id).tx_packets, d.rx(p.id ^ 1).rx_packets) << "port " << p.id;
  }
  // Every port: its queues add up to its totals.
  for (const Port& p : d.t.ports()) {
    const PortCounters& c = d.tx(p.id);
    QueueCounters sum;
    uint64_t watermark = 0;
    for (int prio = 0; prio < kNumPriorities; ++prio) {
      const QueueCounters q = d.net->egress(p.id).queue_counters(prio);
      sum.tx_bytes += q.tx_bytes;
      sum.tx_packets += q.tx_packets;
      sum.drop_packets += q.drop_packets;
      sum.ecn_marks += q.ecn_marks;
      sum.pfc_frames_tx += q.pfc_frames_tx;
      sum.pfc_frames_rx += q.pfc_frames_rx;
      sum.pfc_pause_ps += q.pfc_pause_ps;
      watermark = std::max(watermark, q.watermark_bytes);
    }
    EXPECT_EQ(sum.tx_bytes, c.tx_bytes) << "port " << p.id;
    EXPECT_EQ(sum.tx_packets, c.tx_packets) << "port " << p.id;
    EXPECT_EQ(sum.drop_packets, c.drop_packets) << "port " << p.id;
    EXPECT_EQ(sum.ecn_marks, c.ecn_marks) << "port " << p.id;
    EXPECT_EQ(sum.pfc_frames_tx, c.pfc_frames_tx) << "port " << p.id;
    EXPECT_EQ(sum.pfc_frames_rx, c.pfc_frames_rx) << "port " << p.id;
    EXPECT_EQ(sum.pfc_pause_ps, c.pfc_pause_ps) << "port " << p.id;
    // One queue's peak is at most the port's (all queues) peak.
    EXPECT_LE(watermark, c.max_queue_bytes) << "port " << p.id;
  }
  // Offered to an egress = what arrived at the switch for it (a switch
  // makes no packets here: no transport, no feedback), counted at the
  // ingress; each such packet is either sent or dropped.
  // A -> B: everything from h0..h3 (their only destination is h4); by
  // queue, priority 3 from h0 and h1, priority 1 from h2 and h3.
  const uint64_t from_h01 = d.rx(1).rx_packets + d.rx(3).rx_packets;
  const uint64_t from_h23 = d.rx(5).rx_packets + d.rx(7).rx_packets;
  const PortCounters& ab = d.tx(kAtoB);
  const QueueCounters ab3 = d.q(kAtoB, 3), ab1 = d.q(kAtoB, 1);
  EXPECT_EQ(from_h01, ab3.tx_packets + ab3.drop_packets);
  EXPECT_EQ(from_h23, ab1.tx_packets + ab1.drop_packets);
  EXPECT_EQ(d.rx(1).rx_bytes + d.rx(3).rx_bytes + d.rx(5).rx_bytes + d.rx(7).rx_bytes,
            ab.tx_bytes + ab.drop_bytes);
  // A -> h0: everything A received from B (h5's flow), counted on A's
  // port of that link, A -> B.
  EXPECT_EQ(d.rx(kAtoB).rx_bytes, d.tx(kAtoH0).tx_bytes + d.tx(kAtoH0).drop_bytes);
  // Each switch as a whole: packets in == packets out + dropped.
  for (const Node& node : d.t.nodes()) {
    if (node.kind != NodeKind::kSwitch) continue;
    uint64_t in = 0, out = 0;
    for (PortId id : node.ports) {
      in += d.rx(id).rx_packets;
      out += d.tx(id).tx_packets + d.tx(id).drop_packets;
    }
    EXPECT_EQ(in, out) << node.name;
  }
  // The hosts sent every byte: 5 flows x 128 packets of 4096 B + 82 B.
  uint64_t host_tx = 0;
  for (NodeId h = 0; h < 6; ++h) host_tx += d.tx(d.t.node(h).ports[0]).tx_bytes;
  EXPECT_EQ(host_tx, 5ull * 128 * 4178);
}

TEST(PortCounters, ConservedOnACongestedLossyRun) {
  // A 256 KiB buffer at A cannot absorb the 4:1 burst into A -> B: drops on
  // both priorities there, and marks above 10 KB.
  Dumbbell d(256 << 10, Lossy());
  ExpectConserved(d, "lossy");
  const QueueCounters ab3 = d.q(kAtoB, 3), ab1 = d.q(kAtoB, 1);
  EXPECT_GT(ab3.drop_packets, 0u);
  EXPECT_GT(ab1.drop_packets, 0u);
  EXPECT_GT(ab3.ecn_marks, 0u);
  EXPECT_GT(ab1.ecn_marks, 0u);
  EXPECT_GT(ab3.tx_bytes, 0u);
}

TEST(PortCounters, ConservedOnALosslessPfcRun) {
  // PFC on priority 3 at A pauses h0 and h1 instead of dropping; priority
  // 1 stays lossy.
  Dumbbell d(1 << 20, Lossless());
  ExpectConserved(d, "lossless");
  for (const Port& p : d.t.ports()) EXPECT_EQ(d.q(p.id, 3).drop_packets, 0u) << "port " << p.id;
  // The flows of priority 3 delivered everything.
  for (const FlowState& f : d.net->flows()) {
    if (f.request.priority == 3) {
      EXPECT_TRUE(f.done()) << f.request.id;
    }
  }
  // A paused h0 and h1 (ports 0 and 2) over A's ports toward them (1, 3).
  for (PortId host : {0, 2}) {
    EXPECT_GT(d.q(host, 3).pfc_frames_rx, 0u);
    EXPECT_GT(d.q(host, 3).pfc_pause_ps, 0u);
    EXPECT_EQ(d.q(host, 3).pfc_frames_rx, d.q(host ^ 1, 3).pfc_frames_tx);
  }
}

}  // namespace
}  // namespace aifabric
