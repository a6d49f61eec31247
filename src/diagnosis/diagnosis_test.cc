#include "diagnosis/diagnosis.h"

#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"

#include <algorithm>
#include <string>

namespace aifabric {
namespace {

// Two leaves, two spines, 100G host links:
//   h0..h3 (ids 0-3) on leaf0 (id 8), h4..h7 (ids 4-7) on leaf1 (id 9),
//   spine0 (10), spine1 (11). Host link i gives ports 2i (h_i -> leaf) and
//   2i+1 (leaf -> h_i); then leaf0-spine0: 16/17, leaf0-spine1: 18/19,
//   leaf1-spine0: 20/21, leaf1-spine1: 22/23 (even: up, odd: down).
constexpr PortId kLeaf0ToSpine0 = 16, kLeaf0ToSpine1 = 18, kSpine0ToLeaf0 = 17;
constexpr PortId kSpine0ToLeaf1 = 21, kSpine1ToLeaf1 = 23;
constexpr PortId Up(NodeId host) { return 2 * host; }        // h -> its leaf
constexpr PortId Down(NodeId host) { return 2 * host + 1; }  // leaf -> h

// `prefix` followed by i (appended, not "literal" + string: GCC 12 -Wrestrict).
std::string Name(const char* prefix, int i) {
  std::string name = prefix;
  name += std::to_string(i);
  return name;
}

Topology TwoLeaves(DataRate uplink = DataRate::Gbps(100)) {
  Topology t;
  for (int h = 0; h < 8; ++h) t.AddHost(Name("h", h));
  const NodeId leaf0 = t.AddSwitch("leaf0", 1, -1), leaf1 = t.AddSwitch("leaf1", 1, -1);
  const NodeId spine0 = t.AddSwitch("spine0", 2, -1), spine1 = t.AddSwitch("spine1", 2, -1);
  for (int h = 0; h < 8; ++h) t.AddLink(h, h < 4 ? leaf0 : leaf1, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(leaf0, spine0, uplink, Time::FromNs(500));
  t.AddLink(leaf0, spine1, uplink, Time::FromNs(500));
  t.AddLink(leaf1, spine0, uplink, Time::FromNs(500));
  t.AddLink(leaf1, spine1, uplink, Time::FromNs(500));
  return t;
}

// An observation of `topology` over 1 ms with idle ports.
FabricObservation Idle(const Topology& topology, Time active = Time::FromMs(1)) {
  FabricObservation o;
  o.model = ModelKind::kPacket;
  o.active_time = active;
  for (const Port& p : topology.ports()) {
    PortObservation port;
    port.port = p.id;
    o.ports.push_back(port);
  }
  return o;
}

TransferObservation Transfer(FlowId id, NodeId src, NodeId dst, std::vector<PortId> path, std::string owner = "",
                             uint64_t bytes = 1'000'000, Time start = Time::Zero(),
                             Time finish = Time::FromUs(500), Time ideal = Time::FromUs(80)) {
  return TransferObservation{.id = id, .src = src, .dst = dst, .bytes = bytes, .start = start, .finish = finish,
                             .ideal = ideal, .path = std::move(path), .owner = std::move(owner)};
}

const Finding* FindAt(const std::vector<Finding>& findings, PortId port) {
  for (const Finding& f : findings) {
    if (f.port == port) return &f;
  }
  return nullptr;
}

// The pause tree of an incast into h7 (port 15, leaf1 -> h7):
//   leaf1 pauses h4, h5, h6 (ports 8, 10, 12) and spine0 -> leaf1 (21),
//     cause 15                                                   depth 1
//   spine0 pauses leaf0 -> spine0 (16), cause 21 (40 frames) and
//     17 (spine0 -> leaf0, 5 frames): 21 dominates                depth 2
//   leaf0 pauses h0 -> leaf0 (0), cause 16                      depth 3
// Each paused port spent 100 us of the 1 ms paused: phi = 0.1.
void AddIncastPauseTree(FabricObservation& o) {
  o.pause_causes = {{Up(4), Down(7), 30},          {Up(5), Down(7), 30}, {Up(6), Down(7), 30},
                    {kSpine0ToLeaf1, Down(7), 20}, {16, 21, 40},         {16, kSpine0ToLeaf0, 5},
                    {Up(0), 16, 10}};
  for (PortId p : {Up(0), Up(4), Up(5), Up(6), kSpine0ToLeaf1, kLeaf0ToSpine0}) {
    o.ports[p].pause_time = Time::FromUs(100);
  }
  o.ports[Down(7)].utilization = 0.98;
  o.ports[Down(7)].max_queue_bytes = 400'000;
}

std::vector<TransferObservation> IntoH7(int sources) {
  std::vector<TransferObservation> t;
  // h0 crosses the fabric; h4, h5, h6 are on h7's leaf.
  t.push_back(Transfer(1, 0, 7, {Up(0), kLeaf0ToSpine0, kSpine0ToLeaf1, Down(7)}, "jobA"));
  for (NodeId h = 4; h < 3 + sources; ++h) t.push_back(Transfer(h - 2, h, 7, {Up(h), Down(7)}, "jobB"));
  return t;
}

TEST(Diagnose, PauseTreeRootBeforeThePortsItPaused) {
  const Topology t = TwoLeaves();
  FabricObservation o = Idle(t);
  AddIncastPauseTree(o);
  o.transfers = IntoH7(2);  // two sources only: not an incast
  const std::vector<Finding> findings = Diagnose(t, o);

  // 1 root + 6 paused ports; port 15 (saturated too) is named once.
  ASSERT_EQ(findings.size(), 7u);
  const Finding& root = findings[0];
  EXPECT_EQ(root.kind, kPfcPauseRoot);
  EXPECT_EQ(t.node(root.node).name, "leaf1");
  EXPECT_EQ(t.node(root.port_peer).name, "h7");
  // 0.5 + 0.5 * min(1, 0 + 6 x 0.1)
  EXPECT_DOUBLE_EQ(root.severity, 0.8);
  EXPECT_EQ(root.evidence["paused_ports"], 6);
  EXPECT_EQ(root.evidence["tree_pause_time_ns"], 600'000);
  EXPECT_EQ(root.evidence["tree_frames"], 30 + 30 + 30 + 20 + 45 + 10);
  EXPECT_EQ(root.evidence["depth"], 3);
  EXPECT_EQ(root.evidence["frames_caused"], 110);
  EXPECT_EQ(root.evidence["max_queue_bytes"], 400'000);
  EXPECT_EQ(root.flows, (std::vector<FlowId>{1, 2}));
  EXPECT_EQ(root.owners, (std::vector<std::string>{"jobA", "jobB"}));

  for (size_t i = 1; i < findings.size(); ++i) {
    EXPECT_EQ(findings[i].kind, kPfcPause) << i;
    EXPECT_DOUBLE_EQ(findings[i].severity, 0.05) << i;  // 0.5 x 0.1
    EXPECT_EQ(findings[i].evidence["root"]["node"], "leaf1") << i;
    EXPECT_EQ(findings[i].evidence["root"]["port_peer"], "h7") << i;
  }
  // Equal severities: by port id.
  EXPECT_EQ(findings[1].port, Up(0));
  EXPECT_EQ(findings[6].port, kSpine0ToLeaf1);
  const Finding* h0 = FindAt(findings, Up(0));
  ASSERT_NE(h0, nullptr);
  EXPECT_EQ(h0->evidence["depth"], 3);
  EXPECT_EQ(h0->evidence["cause"]["node"], "leaf0");
  EXPECT_EQ(h0->evidence["cause"]["port_peer"], "spine0");
}

TEST(Diagnose, IncastKeepsThePortAndCarriesItsPauseTree) {
  const Topology t = TwoLeaves();
  FabricObservation o = Idle(t);
  AddIncastPauseTree(o);
  o.transfers = IntoH7(4);  // h0, h4, h5, h6 at once
  const std::vector<Finding> findings = Diagnose(t, o);

  ASSERT_EQ(findings.size(), 7u);
  const Finding& top = findings[0];
  EXPECT_EQ(top.kind, kIncast);
  EXPECT_EQ(t.node(top.node).name, "leaf1");
  EXPECT_EQ(t.node(top.port_peer).name, "h7");
  EXPECT_DOUBLE_EQ(top.severity, 0.99);  // max(0.5 + 0.5 x 0.98, the root's 0.8)
  EXPECT_EQ(top.evidence["sources"], 4);
  EXPECT_EQ(top.evidence["concurrent_sources"], 4);
  EXPECT_EQ(top.evidence["bytes"], 4'000'000);
  ASSERT_EQ(top.evidence["pfc_pause_root"].size(), 1u);
  EXPECT_EQ(top.evidence["pfc_pause_root"][0]["paused_ports"], 6);
  EXPECT_EQ(top.evidence["pfc_pause_root"][0]["severity"], 0.8);
  for (size_t i = 1; i < findings.size(); ++i) EXPECT_EQ(findings[i].kind, kPfcPause) << i;
}

// Four sources, but one after another (each ends as the next starts): at
// most one in flight, so not an incast, only a saturated link.
TEST(Diagnose, SequentialSendersAreNotAnIncast) {
  const Topology t = TwoLeaves();
  FabricObservation o = Idle(t);
  o.ports[Down(7)].utilization = 0.95;
  for (NodeId h = 0; h < 4; ++h) {
    o.transfers.push_back(Transfer(h, h, 7, {Up(h), kLeaf0ToSpine0, kSpine0ToLeaf1, Down(7)}, "", 1000,
                                   Time::FromUs(100 * h), Time::FromUs(100 * (h + 1))));
  }
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, kSaturatedLink);
  EXPECT_EQ(findings[0].port, Down(7));
  EXPECT_DOUBLE_EQ(findings[0].severity, 0.475);
}

// Pause chains 16 -> 18 -> 21 -> 16 (a cycle) with h0 -> leaf0 (port 0)
// feeding it. Diagnose terminates, names the cycle by its lowest port, 16
// (leaf0 -> spine0), and points the feeder at it.
TEST(Diagnose, PauseCycleIsReported) {
  const Topology t = TwoLeaves();
  FabricObservation o = Idle(t);
  o.pause_causes = {{16, 18, 5}, {18, 21, 5}, {21, 16, 5}, {Up(0), 16, 3}};
  for (PortId p : {16, 18, 21, Up(0)}) o.ports[p].pause_time = Time::FromUs(900);
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].kind, kPfcDeadlockCycle);
  EXPECT_EQ(t.node(findings[0].node).name, "leaf0");
  EXPECT_EQ(t.node(findings[0].port_peer).name, "spine0");
  EXPECT_DOUBLE_EQ(findings[0].severity, 1.0);
  EXPECT_EQ(findings[0].evidence["cycle_length"], 3);
  EXPECT_EQ(findings[0].evidence["cycle"][1]["node"], "leaf0");
  EXPECT_EQ(findings[0].evidence["cycle"][1]["port_peer"], "spine1");
  EXPECT_EQ(findings[0].evidence["cycle"][2]["node"], "spine0");
  EXPECT_EQ(findings[0].evidence["cycle"][2]["port_peer"], "leaf1");
  EXPECT_EQ(findings[0].evidence["paused_ports"], 1);  // the feeder
  EXPECT_EQ(findings[1].kind, kPfcPause);
  EXPECT_EQ(findings[1].port, Up(0));
  EXPECT_DOUBLE_EQ(findings[1].severity, 0.45);  // 0.5 x 0.9
  EXPECT_EQ(findings[1].evidence["root"]["port_peer"], "spine0");
  EXPECT_EQ(findings[1].evidence["in_cycle_tree"], true);
}

// leaf0's four 100G hosts send 1.25 MB each to leaf1's hosts, all at t = 0;
// alone each would take 100 us (the ideal FCT). leaf0 has two 100G uplinks,
// both full: demand = 4 x (10 Mbit / 100 us = 100 Gbit/s) in flight at once
// / 200 Gbit/s = 2, ingress = 400G / 200G = 2, so the offered ratio is 2 and
// severity 0.5 + 0.5 x (1 - 1/2).
FabricObservation Oversubscribed(const Topology& t, int hosts) {
  FabricObservation o = Idle(t, Time::FromUs(200));
  for (NodeId h = 0; h < hosts; ++h) {
    const PortId up = h < 2 ? kLeaf0ToSpine0 : kLeaf0ToSpine1;
    const PortId down = h < 2 ? kSpine0ToLeaf1 : kSpine1ToLeaf1;
    o.transfers.push_back(Transfer(10 + h, h, h + 4, {Up(h), up, down, Down(h + 4)}, "allreduce", 1'250'000,
                                   Time::Zero(), Time::FromUs(200), Time::FromUs(100)));
  }
  for (PortId p : {kLeaf0ToSpine0, kSpine0ToLeaf1}) o.ports[p].utilization = 0.97;
  for (PortId p : {kLeaf0ToSpine1, kSpine1ToLeaf1}) o.ports[p].utilization = 0.99;
  return o;
}

TEST(Diagnose, OversubscribedUplinkAboveTheLinksItFeeds) {
  const Topology t = TwoLeaves();
  const std::vector<Finding> findings = Diagnose(t, Oversubscribed(t, 4));
  ASSERT_EQ(findings.size(), 3u);
  const Finding& top = findings[0];
  EXPECT_EQ(top.kind, kOversubscribedUplink);
  EXPECT_EQ(t.node(top.node).name, "leaf0");
  EXPECT_EQ(t.node(top.port_peer).name, "spine1");  // the more utilized uplink
  EXPECT_DOUBLE_EQ(top.severity, 0.75);
  EXPECT_EQ(top.evidence["offered_ratio"], 2.0);
  EXPECT_EQ(top.evidence["demand_ratio"], 2.0);
  EXPECT_EQ(top.evidence["ingress_ratio"], 2.0);
  EXPECT_EQ(top.evidence["offered_bytes"], 5'000'000);
  EXPECT_EQ(top.evidence["uplinks"].size(), 2u);
  EXPECT_EQ(top.flows, (std::vector<FlowId>{10, 11, 12, 13}));
  EXPECT_EQ(top.owners, (std::vector<std::string>{"allreduce"}));
  // The sibling uplink is covered; the spine -> leaf1 links are symptoms.
  EXPECT_EQ(FindAt(findings, kLeaf0ToSpine0), nullptr);
  EXPECT_EQ(findings[1].kind, kSaturatedLink);
  EXPECT_EQ(findings[1].port, kSpine1ToLeaf1);
  EXPECT_EQ(findings[2].port, kSpine0ToLeaf1);
}

TEST(Diagnose, OversubscribedTieNamesTheLowestPort) {
  const Topology t = TwoLeaves();
  FabricObservation o = Oversubscribed(t, 4);
  o.ports[kLeaf0ToSpine1].utilization = 0.97;
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].kind, kOversubscribedUplink);
  EXPECT_EQ(findings[0].port, kLeaf0ToSpine0);
}

// Only two hosts send: 200G of ingress into 200G of uplinks. The uplinks
// are full, but they are not the limit: no oversubscription finding.
TEST(Diagnose, FullUplinksWithoutExcessOfferAreNotOversubscribed) {
  const Topology t = TwoLeaves();
  FabricObservation o = Oversubscribed(t, 4);
  o.transfers = {o.transfers[0], o.transfers[2]};  // h0 via spine0, h2 via spine1
  for (const Finding& f : Diagnose(t, o)) EXPECT_EQ(f.kind, kSaturatedLink) << f.port;
}

// The same four transfers one after another (each starts when the last
// would have ended alone): 100G offered at a time against 200G, even
// though the ingress could offer 400G. Not oversubscribed.
TEST(Diagnose, StaggeredOfferIsNotOversubscribed) {
  const Topology t = TwoLeaves();
  FabricObservation o = Oversubscribed(t, 4);
  for (size_t i = 0; i < o.transfers.size(); ++i) o.transfers[i].start = Time::FromUs(100 * i);
  for (const Finding& f : Diagnose(t, o)) EXPECT_EQ(f.kind, kSaturatedLink) << f.port;
  // Three at once (h0-h2 at 0, h3 at 100 us): 300G / 200G = 1.5.
  for (size_t i = 0; i < o.transfers.size(); ++i) o.transfers[i].start = Time::FromUs(i < 3 ? 0 : 100);
  const std::vector<Finding> three = Diagnose(t, o);
  ASSERT_FALSE(three.empty());
  EXPECT_EQ(three[0].kind, kOversubscribedUplink);
  EXPECT_EQ(three[0].evidence["demand_ratio"], 1.5);
  EXPECT_EQ(three[0].evidence["offered_ratio"], 1.5);
}

// h0 -> h4 and h1 -> h5 both hashed onto leaf0 -> spine0, which is full,
// while leaf0 -> spine1 sent nothing. The collision outranks the
// spine0 -> leaf1 link it feeds (saturated by the same two transfers).
TEST(Diagnose, EcmpCollisionAboveTheLinkItFeeds) {
  const Topology t = TwoLeaves();
  FabricObservation o = Idle(t);
  for (NodeId h = 0; h < 2; ++h) {
    o.transfers.push_back(Transfer(20 + h, h, h + 4, {Up(h), kLeaf0ToSpine0, kSpine0ToLeaf1, Down(h + 4)}));
  }
  for (PortId p : {kLeaf0ToSpine0, kSpine0ToLeaf1}) {
    o.ports[p].utilization = 0.95;
    o.ports[p].tx_bytes = 2'000'000;
  }
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].kind, kEcmpCollision);
  EXPECT_EQ(t.node(findings[0].node).name, "leaf0");
  EXPECT_EQ(t.node(findings[0].port_peer).name, "spine0");
  EXPECT_DOUBLE_EQ(findings[0].severity, 0.975);  // 0.5 + 0.5 x 0.95 x (1 - 0/2 MB)
  EXPECT_EQ(findings[0].evidence["transfers"], 2);
  EXPECT_EQ(findings[0].evidence["idlest_sibling"]["port_peer"], "spine1");
  EXPECT_EQ(findings[0].flows, (std::vector<FlowId>{20, 21}));
  EXPECT_EQ(findings[1].kind, kSaturatedLink);
  EXPECT_EQ(t.node(findings[1].node).name, "spine0");
  EXPECT_EQ(t.node(findings[1].port_peer).name, "leaf1");
  EXPECT_DOUBLE_EQ(findings[1].severity, 0.475);

  // A sibling that sent half as much (1 MB of 2 MB) is not idle capacity.
  o.ports[kLeaf0ToSpine1].tx_bytes = 1'000'000;
  for (const Finding& f : Diagnose(t, o)) EXPECT_EQ(f.kind, kSaturatedLink);
}

// The port from node `a` to node `b` (the first, if parallel links).
PortId PortBetween(const Topology& t, const std::string& a, const std::string& b) {
  for (PortId p : t.node(t.FindByName(a)).ports) {
    if (t.node(t.port(p).peer).name == b) return p;
  }
  ADD_FAILURE() << a << " -> " << b;
  return kNoPort;
}

// On the built 4 x 4 leaf-spine, h0 -> h4 and h1 -> h5 both go leaf0 ->
// spine2 while leaf0's three other uplinks are idle.
TEST(Diagnose, EcmpCollisionOnBuiltLeafSpine) {
  const Topology t = fabric_testing::LeafSpine4x4();
  FabricObservation o = Idle(t);
  const PortId up = PortBetween(t, "leaf0", "spine2"), down = PortBetween(t, "spine2", "leaf1");
  for (int h = 0; h < 2; ++h) {
    const PortId nic = PortBetween(t, Name("h", h), "leaf0");
    const PortId last = PortBetween(t, "leaf1", Name("h", h + 4));
    o.transfers.push_back(Transfer(h, h, h + 4, {nic, up, down, last}));
  }
  for (PortId p : {up, down}) {
    o.ports[p].utilization = 1.0;
    o.ports[p].tx_bytes = 2'000'000;
  }
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].kind, kEcmpCollision);
  EXPECT_EQ(t.node(findings[0].node).name, "leaf0");
  EXPECT_EQ(t.node(findings[0].port_peer).name, "spine2");
  EXPECT_EQ(findings[0].evidence["siblings"], 3);
  EXPECT_EQ(findings[0].evidence["idlest_sibling"]["port_peer"], "spine0");  // all idle: lowest port id
  EXPECT_EQ(findings[1].kind, kSaturatedLink);
  EXPECT_EQ(t.node(findings[1].node).name, "spine2");
}

// HPCC-style topologies have no tiers (-1): uplinks follow the hop
// distance from the hosts, so the collision is still found.
TEST(Diagnose, UnknownTiersComeFromHopDistance) {
  Topology t;
  for (int h = 0; h < 4; ++h) t.AddHost(Name("n", h));
  const NodeId a = t.AddSwitch("sw4", -1, -1), b = t.AddSwitch("sw5", -1, -1);
  const NodeId c = t.AddSwitch("sw6", -1, -1), d = t.AddSwitch("sw7", -1, -1);
  for (int h = 0; h < 4; ++h) t.AddLink(h, h < 2 ? a : b, DataRate::Gbps(100), Time::Zero());
  t.AddLink(a, c, DataRate::Gbps(100), Time::Zero());  // ports 8/9
  t.AddLink(a, d, DataRate::Gbps(100), Time::Zero());  // ports 10/11
  t.AddLink(b, c, DataRate::Gbps(100), Time::Zero());  // ports 12/13
  t.AddLink(b, d, DataRate::Gbps(100), Time::Zero());  // ports 14/15
  FabricObservation o = Idle(t);
  o.transfers = {Transfer(1, 0, 2, {0, 8, 13, 5}), Transfer(2, 1, 3, {2, 8, 13, 7})};
  o.ports[8].utilization = 0.93;
  o.ports[8].tx_bytes = 2'000'000;
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].kind, kEcmpCollision);
  EXPECT_EQ(t.node(findings[0].node).name, "sw4");
  EXPECT_EQ(t.node(findings[0].port_peer).name, "sw6");
}

// h0 -- leaf0 -- h1: one transfer (id 7, owner jobA) over leaf0 -> h1
// (port 3), saturated at 0.95; h1 -> leaf0 (port 2) dropped 3 packets but
// carries no transfer: severity 0.5 x 0/1.
TEST(FindingsJson, ShapeAndNames) {
  Topology t;
  const NodeId h0 = t.AddHost("h0"), h1 = t.AddHost("h1");
  const NodeId leaf = t.AddSwitch("leaf0", 1, -1);
  t.AddLink(h0, leaf, DataRate::Gbps(100), Time::Zero());
  t.AddLink(h1, leaf, DataRate::Gbps(100), Time::Zero());
  FabricObservation o = Idle(t);
  o.transfers = {Transfer(7, h0, h1, {0, 3}, "jobA")};
  o.ports[3].utilization = 0.95;
  o.ports[3].peak_utilization = 1.0;
  o.ports[3].tx_bytes = 1000;
  o.ports[2].drop_packets = 3;
  const std::string expected =
      R"({"findings":[)"
      R"({"kind":"saturated_link","node":"leaf0","port_peer":"h1","severity":0.475,)"
      R"("evidence":{"transfers":1,"flows_total":1,"utilization":0.95,"peak_utilization":1.0,"rate_gbps":100.0,)"
      R"("tx_bytes":1000,"max_queue_bytes":0,"drop_packets":0,"ecn_marks":0,"pause_time_ns":0,"pfc_frames_tx":0},)"
      R"("flows":[7],"owners":["jobA"]},)"
      R"({"kind":"drops","node":"h1","port_peer":"leaf0","severity":0.0,)"
      R"("evidence":{"transfers":0,"flows_total":0,"utilization":0.0,"peak_utilization":0.0,"rate_gbps":100.0,)"
      R"("tx_bytes":0,"max_queue_bytes":0,"drop_packets":3,"ecn_marks":0,"pause_time_ns":0,"pfc_frames_tx":0},)"
      R"("flows":[],"owners":[]}]})";
  EXPECT_EQ(FindingsJson(t, Diagnose(t, o)).dump(), expected);
}

// Same input in another order (transfers, pause records) gives the same
// bytes; max_findings keeps the most severe; max_flows caps the list.
TEST(Diagnose, DeterministicAndCapped) {
  const Topology t = TwoLeaves();
  FabricObservation o = Idle(t);
  AddIncastPauseTree(o);
  o.transfers = IntoH7(4);
  const std::string first = FindingsJson(t, Diagnose(t, o)).dump();
  std::reverse(o.transfers.begin(), o.transfers.end());
  std::reverse(o.pause_causes.begin(), o.pause_causes.end());
  EXPECT_EQ(FindingsJson(t, Diagnose(t, o)).dump(), first);

  DiagnosisOptions options;
  options.max_findings = 2;
  options.max_flows = 3;
  const std::vector<Finding> capped = Diagnose(t, o, options);
  ASSERT_EQ(capped.size(), 2u);
  EXPECT_EQ(capped[0].kind, kIncast);
  EXPECT_EQ(capped[0].flows, (std::vector<FlowId>{1, 2, 3}));
  EXPECT_EQ(capped[0].evidence["flows_total"], 4);
  EXPECT_EQ(capped[1].port, Up(0));
}

TEST(FormatFindings, TableByHand) {
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(R"({"findings":[
    {"kind":"incast","node":"leaf1","port_peer":"h7","severity":0.99,
     "evidence":{"sources":4,"utilization":0.98,"pfc_pause_root":[{"paused_ports":6}],"flows_total":4},
     "flows":[1,2,3],"owners":["jobA","jobB"]},
    {"kind":"pfc_pause","node":"h0","port_peer":"leaf0","severity":0.05,
     "evidence":{"root":{"node":"leaf1"},"cause":null},"flows":[1],"owners":[]}]})");
  const std::string expected =
      "rank  severity  kind       node   port_peer  flows  owners\n"
      "1     0.9900    incast     leaf1  h7         4      jobA,jobB\n"
      "    sources=4 utilization=0.98 flows_total=4\n"
      "2     0.0500    pfc_pause  h0     leaf0      1      -\n";
  Result<std::string> text = FormatFindings(doc);
  ASSERT_TRUE(text.ok()) << text.error().message;
  EXPECT_EQ(*text, expected);
  EXPECT_EQ(*FormatFindings(nlohmann::ordered_json::parse(R"({"findings":[]})")), "no findings\n");
}

TEST(FormatFindings, ErrorsNameTheField) {
  Result<std::string> no_list = FormatFindings(nlohmann::ordered_json::parse(R"({"finding":[]})"));
  ASSERT_FALSE(no_list.ok());
  EXPECT_EQ(no_list.error().message, "diagnosis: expected an object with a \"findings\" array");
  Result<std::string> no_node =
      FormatFindings(nlohmann::ordered_json::parse(R"({"findings":[{"kind":"drops","node":3,"port_peer":"x"}]})"));
  ASSERT_FALSE(no_node.ok());
  EXPECT_EQ(no_node.error().message, "findings[0].node: expected a string");
}

}  // namespace
}  // namespace aifabric
