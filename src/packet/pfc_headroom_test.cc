// PFC headroom and the buffer a lossless switch needs, worked by hand; XON
// once the shared pool frees, even for an ingress with nothing left to send;
// and a lossless packet dropped for want of headroom is an internal error.
#include "packet/pfc_headroom.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "engine/simulator.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

// Wire bytes of a full RoCE frame: 4096 B of payload + 82 (packet_config.h).
constexpr uint64_t kFrame = 4096 + 82;

Port Link(DataRate rate, Time latency) {
  Port p;
  p.rate = rate;
  p.latency = latency;
  return p;
}

TEST(PfcHeadroom, IsThePauseRoundTripThePeerResponseAndTwoFrames) {
  // 400G, 1 us cable, 400 ns switch: the PAUSE frame takes 84 x 8 / 400 =
  // 1.68 ns, so 2 x 1000 + 400 + 1.68 = 2401.68 ns at 50 B/ns = 120,084 B;
  // the peer's response is 905 quanta x 512 bits / 8 = 57,920 B; two
  // frames 2 x 4178 = 8,356 B. Sum 186,360 B.
  EXPECT_EQ(PfcHeadroomBytes(Link(DataRate::Gbps(400), Time::FromUs(1)), Time::FromNs(400), kFrame), 186360u);
  // 100G, 500 ns cable, 450 ns switch: 1000 + 450 + 6.72 = 1456.72 ns at
  // 12.5 B/ns = 18,209 B; 394 x 64 = 25,216 B; + 8,356 B = 51,781 B.
  EXPECT_EQ(PfcHeadroomBytes(Link(DataRate::Gbps(100), Time::FromNs(500)), Time::FromNs(450), kFrame), 51781u);
  EXPECT_EQ(PfcPeerResponseQuanta(DataRate::Gbps(800)), 905u);
  EXPECT_EQ(PfcPeerResponseQuanta(DataRate::Gbps(200)), 453u);
  EXPECT_EQ(PfcPeerResponseQuanta(DataRate::Gbps(25)), 80u);
}

// One 17-port 400G switch, 400 ns, with 1 us cables to 17 hosts.
Topology SeventeenPortSwitch(uint64_t buffer_bytes, NodeId& sw) {
  Topology t;
  SwitchSpec spec;
  spec.radix = 17;
  spec.port_rate = DataRate::Gbps(400);
  spec.latency = Time::FromNs(400);
  spec.buffer_bytes = buffer_bytes;
  sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
  for (int i = 0; i < 17; ++i) {
    std::string name = "h";
    name += std::to_string(i);
    t.AddLink(t.AddHost(name), sw, DataRate::Gbps(400), Time::FromUs(1));
  }
  return t;
}

TEST(PfcHeadroom, ASwitchNeedsItsPortsHeadroomAndAPoolForTheThresholds) {
  NodeId sw = kNoNode;
  const Topology t = SeventeenPortSwitch(4 << 20, sw);
  PacketConfig c;
  c.pfc.enabled = true;  // priorities 3 and 4, alpha 1, xon_offset 8,356 B
  const LosslessBufferNeed need = SwitchLosslessBufferNeed(t, sw, c);
  EXPECT_EQ(need.ports, 17);
  EXPECT_EQ(need.lossless_priorities, 2);
  EXPECT_TRUE(need.uniform_headroom);
  EXPECT_EQ(need.max_port_headroom_bytes, 186360u);
  EXPECT_EQ(need.headroom_bytes, 17u * 2 * 186360);  // 6,336,240 B
  // A lone ingress reaches XON at b <= (alpha x pool - 8,356) / (1 + alpha)
  // and b must still cover one 186,360-B round trip: pool >= 2 x 186,360 +
  // 8,356 = 381,076 B at alpha 1.
  EXPECT_EQ(need.shared_bytes, 381076u);
  EXPECT_EQ(need.total_bytes(), 6717316u);
  // alpha 2: (3 x 186,360 + 8,356) / 2 = 283,718 B.
  c.pfc.alpha = 2;
  EXPECT_EQ(SwitchLosslessBufferNeed(t, sw, c).shared_bytes, 283718u);
  // One lossless priority halves the headroom.
  c.pfc.lossless_mask = 1u << 3;
  EXPECT_EQ(SwitchLosslessBufferNeed(t, sw, c).headroom_bytes, 17u * 186360);
  // PFC off, or InfiniBand (credits): nothing.
  c.pfc.enabled = false;
  EXPECT_EQ(SwitchLosslessBufferNeed(t, sw, c).total_bytes(), 0u);
  c.pfc.enabled = true;
  c.kind = FabricKind::kIb;
  EXPECT_EQ(SwitchLosslessBufferNeed(t, sw, c).total_bytes(), 0u);
}

// h0 and h2 each send 1 MiB on priority 3 to h1 through one 100G switch
// (500 ns cables, 400 ns latency) whose buffer is its headroom plus
// `pool_bytes`; no transport (each packet once). `resume_senders` makes
// the senders ignore PAUSE, as a broken NIC would: a RESUME reaches them
// every 20 ns.
struct TwoToOne {
  TwoToOne(uint64_t pool_bytes, bool resume_senders = false) {
    h0 = t.AddHost("h0");
    h1 = t.AddHost("h1");
    h2 = t.AddHost("h2");
    SwitchSpec spec;
    spec.radix = 4;
    spec.port_rate = DataRate::Gbps(100);
    spec.latency = Time::FromNs(400);
    // Three ports x 2 priorities x (1,400 ns + 6.72 ns at 12.5 B/ns = 17,584 B
    // + 25,216 + 8,356 = 51,156 B).
    spec.buffer_bytes = 3 * 2 * 51156 + pool_bytes;
    sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(spec));
    t.AddLink(h0, sw, DataRate::Gbps(100), Time::FromNs(500));
    t.AddLink(h1, sw, DataRate::Gbps(100), Time::FromNs(500));
    t.AddLink(h2, sw, DataRate::Gbps(100), Time::FromNs(500));
    config.pfc.enabled = true;
    routes = RoutingTable::BuildShortestPaths(t);
    net = std::make_unique<PacketNetwork>(sim, t, routes, config);
    if (resume_senders) {
      for (int ns = 0; ns < 200'000; ns += 20) {
        for (NodeId h : {h0, h2}) {
          sim.Schedule(Time::FromNs(ns), &net->port(t.node(h).ports[0]), EgressPort::PfcFrameTag(3, false));
        }
      }
    }
    for (NodeId src : {h0, h2}) {
      TransferRequest r;
      r.id = static_cast<FlowId>(src);
      r.src = src;
      r.dst = h1;
      r.bytes = 1 << 20;
      r.priority = 3;
      net->StartTransfer(r);
    }
  }
  uint64_t storms() const {
    uint64_t n = 0;
    for (const Port& p : t.ports()) n += net->egress(p.id).counters().pfc_storms;
    return n;
  }

  Topology t;
  NodeId h0 = kNoNode, h1 = kNoNode, h2 = kNoNode, sw = kNoNode;
  PacketConfig config;
  Simulator sim{1};
  RoutingTable routes;
  std::unique_ptr<PacketNetwork> net;
};

TEST(PfcHeadroom, TheHandWorkedHeadroomIsWhatTheSwitchReserves) {
  TwoToOne f(0);
  EXPECT_EQ(SwitchLosslessBufferNeed(f.t, f.sw, f.config).headroom_bytes, 3u * 2 * 51156);
}

TEST(PfcXon, AnIngressResumesOnceThePoolFreesEvenWithNothingLeftToSend) {
  // Both 1 MiB messages end by the time h1's link has carried 2 x 256
  // frames: 2 x 256 x 4178 B at 12.5 B/ns = 171,130.88 ns, after the first
  // frame's 334.24 ns at h0 + 500 ns + 400 ns, and + 500 ns to h1: 172,865.12
  // ns. PFC pauses both senders again and again and must resume them each
  // time the shared pool frees, though an ingress whose last packet left
  // while the pool was full has no departure of its own left to check at.
  // With a pool of just xon_offset (8,356 B) the egress idles in each pause
  // round trip but the run ends (within 2x the ideal, not at the 200 ms
  // watchdog); with the smallest pool the loader accepts (2 x 51,156 +
  // 8,356 = 110,668 B) it never idles: within 2% of the ideal.
  const int64_t ideal_ps = 172'865'120;
  for (const auto& [pool, limit_ps] : {std::pair<uint64_t, int64_t>{8356, 2 * ideal_ps},
                                       std::pair<uint64_t, int64_t>{110668, ideal_ps * 102 / 100}}) {
    TwoToOne f(pool);
    f.sim.Run(Time::FromPs(limit_ps));
    EXPECT_EQ(f.net->TransfersCompleted(), 2u) << "pool " << pool;
    EXPECT_EQ(f.storms(), 0u) << "pool " << pool;
    EXPECT_EQ(f.net->totals().dropped, 0u) << "pool " << pool;
    EXPECT_GT(f.net->egress(f.t.node(f.sw).ports[0]).counters().pfc_frames_tx, 0u) << "pool " << pool;
  }
}

TEST(PfcXon, ALosslessPacketDroppedForWantOfHeadroomIsAnInternalError) {
  // Senders that ignore PAUSE overrun any headroom: two at 100G into one
  // 100G port fill the 8,356-B pool and then sw<-h0's (or sw<-h2's) 51,156 B
  // of headroom within microseconds. No watchdog fired, so the drop is
  // not explained by one: the run stops with an error naming the switch,
  // the port and the priority.
  TwoToOne f(8356, /*resume_senders=*/true);
  try {
    f.sim.Run(Time::FromUs(200));
    FAIL() << "no lossless drop";
  } catch (const std::logic_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("switch sw dropped a lossless packet (priority 3)"), std::string::npos) << m;
    EXPECT_NE(m.find("51156 B of PFC headroom of port sw<-h"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace aifabric
