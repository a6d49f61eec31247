#include "fabric/ib_forwarding_tables.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "fabric/fabric_test_util.h"
#include "fabric/ib_forwarding_check.h"
#include "fabric/routing_table.h"
#include "fabric/topology_builder.h"

namespace aifabric {
namespace {

using fabric_testing::Irregular;
using fabric_testing::LeafSpine4x4;
using fabric_testing::MakeSpec;
using ::testing::HasSubstr;


// k = 4 fat-tree: hosts 0-15, leaf0-7 (16-23), agg0-7 (24-31), core0-3
// (32-35); leaf i holds hosts 2i, 2i+1 in pod i/2.
Topology FatTreeK4() {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.k = 4;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// A switch's ports toward switches of a higher tier, in `ports` order (=
// IB port order under IbLidMap::ForTopology).
std::vector<PortId> UpPorts(const Topology& t, NodeId sw) {
  std::vector<PortId> up;
  for (PortId p : t.node(sw).ports) {
    const Node& peer = t.node(t.port(p).peer);
    if (peer.kind == NodeKind::kSwitch && peer.tier > t.node(sw).tier) up.push_back(p);
  }
  return up;
}

// Destinations carried by each up-port of `sw`.
std::vector<int> UpPortLoads(const Topology& t, const ForwardingTables& f, NodeId sw) {
  const std::vector<PortId> up = UpPorts(t, sw);
  std::vector<int> loads(up.size(), 0);
  for (NodeId dst : t.hosts()) {
    for (size_t i = 0; i < up.size(); ++i) loads[i] += f.Get(sw, dst) == up[i];
  }
  return loads;
}

// Leaf-spine 4x4, min-hop. Every pair is routed along a shortest path (2
// hops under a leaf, 4 across). Each leaf has 16 - 4 = 12 remote hosts and 4
// up-ports: 12 / 4 = 3 destinations each. Order, from OpenSM's rules: all
// leaves have 4 CAs, so destinations go h0, h1, ..., h15; at any leaf the
// first remote host takes up-port 0, the next up-port 1, ... (fewest routes,
// lowest port), and the 4 local hosts in between take their own ports, so
// remote host h leaves on up-port h mod 4. Each spine reaches each leaf's 4
// hosts through its one link to that leaf: 4 per down-port.
TEST(IbMinHop, LeafSpineBalancesUpPortsAndFollowsShortestPaths) {
  const Topology t = LeafSpine4x4();
  const ForwardingTables f = ComputeMinHop(t);
  ASSERT_TRUE(CheckForwardingTables(t, f, PathRule::kShortest).ok())
      << CheckForwardingTables(t, f, PathRule::kShortest).error().message;
  for (NodeId leaf = 16; leaf < 20; ++leaf) {
    EXPECT_EQ(UpPortLoads(t, f, leaf), (std::vector<int>{3, 3, 3, 3})) << t.node(leaf).name;
    const std::vector<PortId> up = UpPorts(t, leaf);
    for (NodeId h = 0; h < 16; ++h) {
      if (h / 4 == leaf - 16) continue;
      EXPECT_EQ(f.Get(leaf, h), up[h % 4]) << t.node(leaf).name << " -> h" << h;
    }
  }
  for (NodeId spine = 20; spine < 24; ++spine) {
    EXPECT_EQ(RoutesPerPort(t, f, spine), (std::vector<int>{4, 4, 4, 4})) << t.node(spine).name;
  }
  const RoutingTable rt = RoutingTable::FromForwardingTables(t, f);
  EXPECT_EQ(rt.Distance(0, 15), 4);
  EXPECT_EQ(rt.Distance(0, 1), 2);
  EXPECT_EQ(rt.Distance(16, 15), 3);
  ASSERT_EQ(rt.NextHops(16, 15).size(), 1u);
  EXPECT_EQ(rt.NextHops(16, 15)[0], f.Get(16, 15));
  ASSERT_EQ(rt.NextHops(0, 15).size(), 1u);
  EXPECT_EQ(rt.NextHops(0, 15)[0], t.node(0).ports[0]);  // the host's own link
  EXPECT_TRUE(rt.NextHops(15, 15).empty());
}

// k = 4 fat-tree, min-hop. A leaf has 16 - 2 = 14 remote hosts over 2
// up-ports: 7 each. An agg has 16 - 4 = 12 hosts outside its pod over 2 core
// links: 6 each; the pod's 4 hosts go down, 2 per leaf link. A core reaches
// 4 hosts per pod through its one link into each pod: 4 per port.
TEST(IbMinHop, FatTreeK4SpreadsEvenlyAtEveryTier) {
  const Topology t = FatTreeK4();
  const ForwardingTables f = ComputeMinHop(t);
  ASSERT_TRUE(CheckForwardingTables(t, f, PathRule::kShortest).ok());
  for (NodeId leaf = 16; leaf < 24; ++leaf) EXPECT_EQ(UpPortLoads(t, f, leaf), (std::vector<int>{7, 7}));
  for (NodeId agg = 24; agg < 32; ++agg) {
    EXPECT_EQ(UpPortLoads(t, f, agg), (std::vector<int>{6, 6})) << t.node(agg).name;
    std::multiset<int> loads;
    for (int n : RoutesPerPort(t, f, agg)) loads.insert(n);
    EXPECT_EQ(loads, (std::multiset<int>{2, 2, 6, 6})) << t.node(agg).name;
  }
  for (NodeId core = 32; core < 36; ++core) EXPECT_EQ(RoutesPerPort(t, f, core), (std::vector<int>{4, 4, 4, 4}));
}


// OpenSM's destination order is by switch load: leaf1 (4 CAs), leaf2 (3),
// leaf0 (2), so h2..h5, h6..h8, h0, h1. At leaf1, h6..h8 can only go via
// spine0 (spine1 does not reach leaf2): spine0 carries 3, then h0 and h1,
// which may use spine0 or spine1, both take spine1 (0 < 3, then 1 < 3) —
// in plain id order h0 would have taken spine0. At leaf2, h2..h5 only reach
// leaf1 via spine0's two links and alternate (IB ports 4, 5, 4, 5); h0 and
// h1 then take the idle spine2 link (0 < 2, 1 < 2).
TEST(IbMinHop, IrregularFabricFollowsOpenSmDestinationOrder) {
  const Topology t = Irregular();
  const ForwardingTables f = ComputeMinHop(t);
  ASSERT_TRUE(CheckForwardingTables(t, f, PathRule::kShortest).ok());
  const IbLidMap map = IbLidMap::ForTopology(t);
  auto ib_port = [&](NodeId sw, NodeId dst) { return map.IbPort(f.Get(sw, dst)); };
  // leaf1: IB 1-4 hosts, 5 spine0, 6 spine1.
  for (NodeId h : {6, 7, 8}) EXPECT_EQ(ib_port(10, h), 5) << "h" << h;
  EXPECT_EQ(ib_port(10, 0), 6);
  EXPECT_EQ(ib_port(10, 1), 6);
  // leaf2: IB 1-3 hosts, 4 and 5 spine0, 6 spine2.
  EXPECT_EQ(ib_port(11, 2), 4);
  EXPECT_EQ(ib_port(11, 3), 5);
  EXPECT_EQ(ib_port(11, 4), 4);
  EXPECT_EQ(ib_port(11, 5), 5);
  EXPECT_EQ(ib_port(11, 0), 6);
  EXPECT_EQ(ib_port(11, 1), 6);
}

// Leaf-spine 4x4, ftree. g = host id (leaves in GUID = id order, hosts in
// port order); K_1 = 4 up-ports, so remote host g leaves every leaf on
// up-port g mod 4 (3 per port, like min-hop); the 4 hosts of a leaf take the
// 4 distinct up-ports.
TEST(IbFtree, LeafSpineUsesTheDocumentedUpPort) {
  const Topology t = LeafSpine4x4();
  const ForwardingTables f = ComputeFtree(t);
  ASSERT_TRUE(CheckForwardingTables(t, f, PathRule::kShortest).ok());
  for (NodeId leaf = 16; leaf < 20; ++leaf) {
    EXPECT_EQ(UpPortLoads(t, f, leaf), (std::vector<int>{3, 3, 3, 3}));
    const std::vector<PortId> up = UpPorts(t, leaf);
    for (NodeId g = 0; g < 16; ++g) {
      if (g / 4 != leaf - 16) {
        EXPECT_EQ(f.Get(leaf, g), up[g % 4]);
      }
    }
  }
}

// k = 4 fat-tree, ftree. K_1 = K_2 = 2, so D_2 = 2: a leaf sends remote host g
// up port g mod 2 (7 + 7), an agg sends a host of another pod up port
// floor(g / 2) mod 2 (6 + 6). Agg a of every pod links to cores 2a, 2a+1, so
// traffic to g from every other pod meets at the one core 2(g mod 2) +
// floor(g/2) mod 2: each core is the root of 16 / 4 = 4 destinations.
TEST(IbFtree, FatTreeK4RoutesEachDestinationThroughOneCore) {
  const Topology t = FatTreeK4();
  const ForwardingTables f = ComputeFtree(t);
  ASSERT_TRUE(CheckForwardingTables(t, f, PathRule::kShortest).ok());
  std::vector<int> roots_per_core(4, 0);
  for (NodeId g = 0; g < 16; ++g) {
    for (NodeId leaf = 16; leaf < 24; ++leaf) {
      if (g / 2 != leaf - 16) {
        EXPECT_EQ(f.Get(leaf, g), UpPorts(t, leaf)[g % 2]);
      }
    }
    std::set<NodeId> cores;
    for (NodeId src = 0; src < 16; ++src) {
      if (src / 4 == g / 4) continue;  // same pod: no core
      NodeId at = t.port(t.node(src).ports[0]).peer;
      while (at != g) {
        if (t.node(at).tier == 3) cores.insert(at);
        at = t.port(f.Get(at, g)).peer;
      }
    }
    ASSERT_EQ(cores.size(), 1u) << "h" << g;
    EXPECT_EQ(*cores.begin(), 32 + 2 * (g % 2) + (g / 2) % 2) << "h" << g;
    ++roots_per_core[*cores.begin() - 32];
  }
  EXPECT_EQ(roots_per_core, (std::vector<int>{4, 4, 4, 4}));
  for (NodeId leaf = 16; leaf < 24; ++leaf) EXPECT_EQ(UpPortLoads(t, f, leaf), (std::vector<int>{7, 7}));
  for (NodeId agg = 24; agg < 32; ++agg) EXPECT_EQ(UpPortLoads(t, f, agg), (std::vector<int>{6, 6}));
}

//   h0 - s2 = s3 - h1      (s2, s3 joined by one link)
Topology TwoSwitches() {
  Topology t;
  t.AddHost("h0");
  t.AddHost("h1");
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  t.AddSwitch("s2", 1, spec);
  t.AddSwitch("s3", 1, spec);
  t.AddLink(0, 2, DataRate::Gbps(100), Time::Zero());  // ports 0 (h0->s2), 1
  t.AddLink(2, 3, DataRate::Gbps(100), Time::Zero());  // ports 2 (s2->s3), 3 (s3->s2)
  t.AddLink(3, 1, DataRate::Gbps(100), Time::Zero());  // ports 4 (s3->h1), 5 (h1->s3)
  return t;
}

TEST(IbChecks, FindLoopsMissingEntriesAndLongPaths) {
  const Topology t = TwoSwitches();
  ForwardingTables f(t);
  EXPECT_THAT(CheckForwardingTables(t, f).error().message, HasSubstr("host h1 to host h0: switch s3 has no entry for it"));
  f.Set(2, 1, 2);  // s2 -> s3
  f.Set(3, 1, 3);  // s3 -> s2: a loop
  f.Set(2, 0, 1);
  f.Set(3, 0, 3);
  EXPECT_THAT(CheckForwardingTables(t, f).error().message, HasSubstr("loops: h0 -> s2 -> s3 -> s2"));
  const RoutingTable looped = RoutingTable::FromForwardingTables(t, f);
  EXPECT_EQ(looped.Distance(0, 1), -1);
  EXPECT_TRUE(looped.NextHops(2, 1).empty());  // dropped, not looped
  EXPECT_EQ(looped.Distance(1, 0), 3);
  f.Set(3, 1, 4);
  EXPECT_TRUE(CheckForwardingTables(t, f, PathRule::kShortest).ok());
  const RoutingTable rt = RoutingTable::FromForwardingTables(t, f);
  EXPECT_EQ(rt.Distance(0, 1), 3);
  EXPECT_EQ(rt.Distance(2, 1), 2);
  EXPECT_EQ(std::vector<PortId>(rt.NextHops(2, 1).begin(), rt.NextHops(2, 1).end()), std::vector<PortId>{2});
  f.Set(3, 0, 4);  // s3 sends h0's traffic to h1
  EXPECT_THAT(CheckForwardingTables(t, f).error().message, HasSubstr("host h1 to host h0: is delivered to the wrong host"));
}

// Min-hop and ftree agree with OpenSM's LFT dump format: the dump of
// TwoSwitches as OpenSM would print it (LIDs: h0 1, h1 2, s2 3, s3 4; IB
// ports: s2 has 1 = h0, 2 = s3; s3 has 1 = s2, 2 = h1).
constexpr const char* kDump =
    "Unicast lids [0-4] of switch Lid 3 guid 0xa1fa000000000200 ('s2'):\n"
    "0x0001 001 # Channel Adapter portguid 0xa1fa000000000001: 'h0'\n"
    "0x0002 002 # Channel Adapter portguid 0xa1fa000000000101: 'h1'\n"
    "0x0003 000 # Switch portguid 0xa1fa000000000200: 's2'\n"
    "0x0004 002 # Switch portguid 0xa1fa000000000300: 's3'\n"
    "4 lids dumped\n"
    "Unicast lids [0-4] of switch Lid 4 guid 0xa1fa000000000300 ('s3'):\n"
    "0x0001 001 # Channel Adapter portguid 0xa1fa000000000001: 'h0'\n"
    "0x0002 002 # Channel Adapter portguid 0xa1fa000000000101: 'h1'\n"
    "0x0003 001 # Switch portguid 0xa1fa000000000200: 's2'\n"
    "0x0004 000 # Switch portguid 0xa1fa000000000300: 's3'\n"
    "4 lids dumped\n";

TEST(IbLftReaders, ReadOpensmDumpByPortGuids) {
  const Topology t = TwoSwitches();
  const IbLidMap map = IbLidMap::ForTopology(t);
  Result<ForwardingTables> f = ReadOpensmLftDump(kDump, "lfts.dump", map, t);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->Get(2, 0), 1);  // s2 port 1 = its link to h0 (directed port 1)
  EXPECT_EQ(f->Get(2, 1), 2);
  EXPECT_EQ(f->Get(3, 0), 3);
  EXPECT_EQ(f->Get(3, 1), 4);
  EXPECT_TRUE(*f == ComputeMinHop(t));
  EXPECT_TRUE(*f == ComputeFtree(t));
}

TEST(IbLftReaders, ReadIbrouteByLids) {
  const Topology t = TwoSwitches();
  IbLidMap map = IbLidMap::ForTopology(t);
  ASSERT_TRUE(map.SetLid(1, {0, 1}).ok());
  ASSERT_TRUE(map.SetLid(2, {1, 1}).ok());
  ASSERT_TRUE(map.SetLid(4, {3, 0}).ok());
  const char* text =
      "Unicast lids [0x0-0x4] of switch Lid 4 guid 0xa1fa000000000300 (s3):\n"
      "  Lid  Out   Destination\n"
      "       Port     Info \n"
      "0x0001 001 \n"
      "0x0002 002 \n"
      "0x0004 000 \n"
      "3 valid lids dumped \n";
  Result<ForwardingTables> f = ReadIbroute(text, "ibroute.out", map, t);
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->Get(3, 0), 3);
  EXPECT_EQ(f->Get(3, 1), 4);
  EXPECT_EQ(f->Get(2, 0), kNoPort);  // s2 not in the text
}

TEST(IbLftReaders, ErrorsNameTheLine) {
  const Topology t = TwoSwitches();
  const IbLidMap map = IbLidMap::ForTopology(t);
  auto err = [&](const std::string& text) {
    Result<ForwardingTables> f = ReadOpensmLftDump(text, "d", map, t);
    return f.ok() ? std::string("ok") : f.error().message;
  };
  EXPECT_EQ(err("0x0001 001\n"), "d:1: an LFT entry before any 'Unicast lids ... of switch' line");
  EXPECT_THAT(err("Unicast lids [0-4] of switch Lid 3 guid 0x99 ('x'):\n"),
              HasSubstr("d:1: switch guid 0x99 (Lid 3) is not a switch of the fabric"));
  EXPECT_THAT(err("Unicast lids [0-4] of switch Lid 3 guid zz ('x'):\n"),
              HasSubstr("d:1: expected 'Unicast lids [...] of switch Lid <lid> guid 0x<guid> (...):'"));
  const std::string head = "Unicast lids [0-4] of switch Lid 3 guid 0xa1fa000000000200 ('s2'):\n";
  EXPECT_THAT(err(head + "0x0007 001\n"), HasSubstr("d:2: LID 0x0007 is not known"));
  EXPECT_THAT(err(head + "0x0001 009 # Channel Adapter portguid 0xa1fa000000000001: 'h0'\n"),
              HasSubstr("d:2: switch s2 has no linked port 9"));
  EXPECT_THAT(err(head + "garbage\n"), HasSubstr("d:2: expected a 'opensm-lfts.dump' line"));
  EXPECT_THAT(err(head + head), HasSubstr("d:2: switch s2 has a second table"));
}

// The routing table of min-hop tables keeps one byte per (switch, host)
// and a few indices per node and port: on a k = 16 fat-tree (1024 hosts,
// 320 switches of 16 ports, 3072 links), exactly
//   S x H                      entries            327,680
//   + 8 x switch ports         ports and peers     40,960
//   + 2 x ports + 4 x ports    slots, peers        36,864
//   + 4 x S + 8 x N + 4 x N    indices, uplinks    17,408   = 422,912 bytes,
// where a row per node of 8-byte entries took 11 MB (and 3.4 GB at 16,384
// hosts): a cheap guard against that layout coming back.
TEST(IbRoutingTable, MinHopTablesTakeOneBytePerSwitchAndHost) {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 1024, 1, DataRate::Gbps(100));
  spec.k = 16;
  const Topology t = *BuildTopology(spec);
  const size_t hosts = t.hosts().size(), switches = t.switches().size(), nodes = t.num_nodes();
  const size_t ports = t.ports().size();
  ASSERT_EQ(hosts, 1024u);
  ASSERT_EQ(switches, 320u);
  ASSERT_EQ(ports, 2u * 3072u);
  const RoutingTable rt = RoutingTable::FromForwardingTables(t, ComputeMinHop(t));
  EXPECT_EQ(rt.bytes(), switches * hosts + 8 * switches * 16 + 6 * ports + 4 * switches + 12 * nodes);
  EXPECT_EQ(rt.bytes(), 422912u);
  EXPECT_TRUE(rt.EveryHostReachesEveryHost(t));
}

// Computed tables deliver by construction, so the routing table skips the
// walk that clears what does not: the same table as with the walk.
TEST(IbRoutingTable, ComputedTablesNeedNoWalk) {
  for (const Topology& t : {FatTreeK4(), Irregular()}) {
    for (const ForwardingTables& f : {ComputeMinHop(t), ComputeFtree(t)}) {
      ASSERT_TRUE(f.delivers_by_construction());
      ForwardingTables walked = f;
      const NodeId sw = t.switches()[0], dst = t.hosts()[0];
      walked.Set(sw, dst, walked.Get(sw, dst));  // the same entry, but no longer known to deliver
      ASSERT_FALSE(walked.delivers_by_construction());
      const RoutingTable a = RoutingTable::FromForwardingTables(t, f);
      const RoutingTable b = RoutingTable::FromForwardingTables(t, walked);
      for (NodeId n = 0; n < static_cast<NodeId>(t.num_nodes()); ++n) {
        for (NodeId h : t.hosts()) {
          ASSERT_EQ(a.Distance(n, h), b.Distance(n, h)) << n << " " << h;
          const auto x = a.NextHops(n, h), y = b.NextHops(n, h);
          ASSERT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << n << " " << h;
        }
      }
    }
  }
}

// A loop in the tables: the switches on it get no next hop and distance
// -1, and the hosts behind them do not reach the destination.
TEST(IbRoutingTable, EntriesThatDoNotDeliverAreCleared) {
  const Topology t = FatTreeK4();
  ForwardingTables f = ComputeMinHop(t);
  // leaf0 (16) sends h15 up its first port; point that agg back down to leaf0.
  const PortId up = f.Get(16, 15);
  const NodeId agg = t.port(up).peer;
  f.Set(agg, 15, t.port(up).reverse());
  const RoutingTable rt = RoutingTable::FromForwardingTables(t, f);
  EXPECT_EQ(rt.Distance(16, 15), -1);
  EXPECT_EQ(rt.Distance(agg, 15), -1);
  EXPECT_TRUE(rt.NextHops(agg, 15).empty());
  EXPECT_EQ(rt.Distance(0, 15), -1);  // h0 hangs off leaf0
  EXPECT_FALSE(rt.EveryHostReachesEveryHost(t));
  EXPECT_EQ(rt.Distance(0, 14), 6);   // other destinations are untouched
}

}  // namespace
}  // namespace aifabric
