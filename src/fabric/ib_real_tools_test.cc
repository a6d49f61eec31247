// End-to-end check against the real InfiniBand tools (Debian packages
// ibsim-utils, opensm, infiniband-diags): an aifabric fabric is written as an
// ibsim net file, the simulated fabric is swept by OpenSM, and what OpenSM
// programmed and what ibnetdiscover / ibroute report is read back and
// compared with aifabric's own engines. Each test starts its own ibsim on
// its own abstract unix socket (IBSIM_SOCKNAME) and temp dir, so parallel
// runs do not collide; every process has a hard timeout and is killed at the
// end, even on failure. Skips (saying what is missing) when the tools are not
// installed or ibsim cannot start here.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <set>

#include "fabric/fabric_test_util.h"
#include "fabric/ib_forwarding_check.h"
#include "fabric/ib_forwarding_tables.h"
#include "fabric/ib_tools_test_support.h"
#include "fabric/ibnetdiscover_reader.h"
#include "fabric/topology_builder.h"

namespace aifabric {
namespace {

using ib_testing::SimulatedFabric;
using ib_testing::ToolRun;
using fabric_testing::Irregular;
using fabric_testing::LeafSpine4x4;



std::multiset<int> Loads(const Topology& t, const ForwardingTables& f, NodeId sw) {
  std::multiset<int> loads;
  for (int n : RoutesPerPort(t, f, sw)) loads.insert(n);
  return loads;
}

#define START_OR_SKIP(fabric, topology)                         \
  do {                                                          \
    const std::string why = (fabric).Start(topology);           \
    if (!why.empty()) GTEST_SKIP() << "real IB tools: " << why; \
  } while (0)

// OpenSM's minhop tables route every pair along a shortest path, and give
// each switch port the same number of destinations as ComputeMinHop (as a
// multiset per switch). ComputeMinHop follows OpenSM's destination order and
// tie-breaks, so the tables are also expected to be equal entry by entry.
void ExpectOpenSmMinHopMatches(const Topology& t) {
  SimulatedFabric fabric;
  START_OR_SKIP(fabric, t);
  Result<std::string> dump = fabric.RunOpenSm("minhop");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  Result<ForwardingTables> osm = ReadOpensmLftDump(*dump, "opensm-lfts.dump", IbLidMap::ForTopology(t), t);
  ASSERT_TRUE(osm.ok()) << osm.error().message << "\n" << *dump;
  const Status check = CheckForwardingTables(t, *osm, PathRule::kShortest);
  EXPECT_TRUE(check.ok()) << check.error().message;
  const ForwardingTables ours = ComputeMinHop(t);
  for (NodeId sw : t.switches()) EXPECT_EQ(Loads(t, *osm, sw), Loads(t, ours, sw)) << t.node(sw).name;
  for (NodeId sw : t.switches()) {
    for (NodeId h : t.hosts()) {
      EXPECT_EQ(osm->Get(sw, h), ours.Get(sw, h)) << t.node(sw).name << " -> " << t.node(h).name;
    }
  }
}

// Leaf-spine 4x4: at a leaf 4 local ports x 1 and 4 up-ports x 12/4 = 3; at
// a spine 4 ports x 4.
TEST(IbRealTools, OpenSmMinHopMatchesComputeMinHopOnLeafSpine) {
  const Topology t = LeafSpine4x4();
  ExpectOpenSmMinHopMatches(t);
  if (HasFatalFailure() || IsSkipped()) return;
  const ForwardingTables ours = ComputeMinHop(t);
  EXPECT_EQ(Loads(t, ours, 16), (std::multiset<int>{1, 1, 1, 1, 3, 3, 3, 3}));
  EXPECT_EQ(Loads(t, ours, 20), (std::multiset<int>{4, 4, 4, 4}));
}

// Uneven leaves, a missing leaf-spine link and a double link: the order and
// tie rules decide which port each destination gets.
TEST(IbRealTools, OpenSmMinHopMatchesComputeMinHopOnIrregularFabric) { ExpectOpenSmMinHopMatches(Irregular()); }

// OpenSM's ftree engine accepts the leaf-spine as a 2-level fat-tree; its
// per-port totals match ComputeFtree (3 per up-port, 4 per spine port).
TEST(IbRealTools, OpenSmFtreeMatchesComputeFtreeTotals) {
  const Topology t = LeafSpine4x4();
  SimulatedFabric fabric;
  START_OR_SKIP(fabric, t);
  Result<std::string> dump = fabric.RunOpenSm("ftree");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  Result<ForwardingTables> osm = ReadOpensmLftDump(*dump, "opensm-lfts.dump", IbLidMap::ForTopology(t), t);
  ASSERT_TRUE(osm.ok()) << osm.error().message;
  const Status check = CheckForwardingTables(t, *osm, PathRule::kShortest);
  EXPECT_TRUE(check.ok()) << check.error().message;
  const ForwardingTables ours = ComputeFtree(t);
  for (NodeId sw : t.switches()) EXPECT_EQ(Loads(t, *osm, sw), Loads(t, ours, sw)) << t.node(sw).name;
}

// ibnetdiscover sees the fabric that was written (same hosts, switches,
// links, GUIDs, neighbours by name, 4xEDR = 100G links) plus the LIDs OpenSM
// gave; `ibroute <leaf0 lid>` shows the same table as OpenSM's dump.
TEST(IbRealTools, IbnetdiscoverAndIbrouteReadBack) {
  const Topology t = LeafSpine4x4();
  SimulatedFabric fabric;
  START_OR_SKIP(fabric, t);
  Result<std::string> dump = fabric.RunOpenSm("minhop");
  ASSERT_TRUE(dump.ok()) << dump.error().message;
  const ToolRun disc = fabric.Tool("ibnetdiscover", {}, std::chrono::seconds(30));
  ASSERT_EQ(disc.status, 0) << disc.out;
  Result<IbFabric> read = ReadIbnetdiscover(disc.out, "ibnetdiscover");
  ASSERT_TRUE(read.ok()) << read.error().message << "\n" << disc.out;
  const Topology& d = read->topology;
  ASSERT_EQ(d.hosts().size(), t.hosts().size());
  ASSERT_EQ(d.num_nodes(), t.num_nodes());
  ASSERT_EQ(d.num_links(), t.num_links());
  const IbLidMap ours = IbLidMap::ForTopology(t);
  auto neighbours = [](const Topology& topo, NodeId n) {
    std::multiset<std::string> names;
    for (PortId p : topo.node(n).ports) names.insert(topo.node(topo.port(p).peer).name);
    return names;
  };
  for (const Node& n : t.nodes()) {
    // GUID order reproduces aifabric's node ids.
    EXPECT_EQ(d.node(n.id).name, n.name);
    EXPECT_EQ(d.node(n.id).kind, n.kind);
    EXPECT_EQ(read->lids.node_guid(n.id), ours.node_guid(n.id)) << n.name;
    EXPECT_EQ(neighbours(d, n.id), neighbours(t, n.id)) << n.name;
    for (PortId p : d.node(n.id).ports) EXPECT_EQ(d.port(p).rate, DataRate::Gbps(100));
    if (n.kind == NodeKind::kHost) {
      EXPECT_NE(read->lids.LidOf({n.id, 1}), 0) << n.name;
    }
  }
  const NodeId leaf0 = d.FindByName("leaf0");
  const uint16_t lid = read->lids.LidOf({leaf0, 0});
  ASSERT_NE(lid, 0);
  const ToolRun route = fabric.Tool("ibroute", {std::to_string(lid)}, std::chrono::seconds(30));
  ASSERT_EQ(route.status, 0) << route.out;
  Result<ForwardingTables> from_ibroute = ReadIbroute(route.out, "ibroute", read->lids, d);
  ASSERT_TRUE(from_ibroute.ok()) << from_ibroute.error().message << "\n" << route.out;
  Result<ForwardingTables> from_dump = ReadOpensmLftDump(*dump, "opensm-lfts.dump", read->lids, d);
  ASSERT_TRUE(from_dump.ok()) << from_dump.error().message;
  for (NodeId h : d.hosts()) {
    ASSERT_NE(from_ibroute->Get(leaf0, h), kNoPort) << d.node(h).name;
    EXPECT_EQ(from_ibroute->Get(leaf0, h), from_dump->Get(leaf0, h)) << d.node(h).name;
  }
}

}  // namespace
}  // namespace aifabric
