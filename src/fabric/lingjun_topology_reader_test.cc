#include "fabric/lingjun_topology_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology_builder.h"
#include "test_paths.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::CountTier;
using fabric_testing::MakeSpec;

const std::string kPath = std::string(AIFABRIC_SOURCE_DIR) + "/data/clusters/lingjun2023_topo.csv";

TopologySpec LingjunSpec() {
  TopologySpec spec = MakeSpec(TopologyType::kLingjunFile, "64x400G", 1, 1, DataRate::Gbps(200));
  spec.file = kPath;
  return spec;
}

// Counts the CSV's labels independently of the reader: hosts = rows,
// ToRs = distinct (PSW, ASW) pairs, PSWs and DSWs = distinct labels. Cables,
// non-blocking with 200G hosts and 400G switch ports: a ToR with h hosts has
// ceil(h * 200 / 400) uplinks, and (one DSW) each PSW as many uplinks as
// downlinks, so links = 847 + 2 * sum over ToRs of ceil(h / 2).
TEST(Lingjun, RealFileMatchesLabelCounts) {
  std::ifstream in(kPath);
  ASSERT_TRUE(in) << kPath;
  std::string line, first_ip;
  std::getline(in, line);
  ASSERT_EQ(line, "ip,DSW,PSW,ASW");
  int rows = 0;
  std::set<std::string> dsw, psw, asw_labels;
  std::set<std::pair<std::string, std::string>> tors, psw_dsw;
  std::map<std::pair<std::string, std::string>, int> hosts_under;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::stringstream ss(line);
    std::string ip, d, p, a;
    std::getline(ss, ip, ',');
    std::getline(ss, d, ',');
    std::getline(ss, p, ',');
    std::getline(ss, a, ',');
    if (rows++ == 0) first_ip = ip;
    dsw.insert(d);
    psw.insert(p);
    asw_labels.insert(a);
    tors.insert({p, a});
    hosts_under[{p, a}]++;
    psw_dsw.insert({p, d});
  }
  EXPECT_EQ(rows, 847);
  // ASW labels repeat under different PSWs, so a ToR is a (PSW, ASW) pair.
  EXPECT_GT(tors.size(), asw_labels.size());

  Result<Topology> t = BuildTopology(LingjunSpec());
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->hosts().size(), 847u);
  EXPECT_EQ(t->hosts().front(), 0);
  EXPECT_EQ(t->hosts().back(), 846);
  EXPECT_EQ(t->node(0).name, first_ip);
  EXPECT_EQ(CountTier(*t, 1), static_cast<int>(tors.size()));   // 119
  EXPECT_EQ(CountTier(*t, 2), static_cast<int>(psw.size()));    // 3
  EXPECT_EQ(CountTier(*t, 3), static_cast<int>(dsw.size()));    // 1
  ASSERT_EQ(dsw.size(), 1u);
  size_t tor_uplinks = 0;
  for (const auto& [tor, h] : hosts_under) tor_uplinks += static_cast<size_t>((h + 1) / 2);
  EXPECT_EQ(t->num_links(), 847 + 2 * tor_uplinks);
  // Host links at min(200G NIC, 400G port); switch links at 400G.
  EXPECT_EQ(t->port(t->node(0).ports[0]).rate, DataRate::Gbps(200));
  const NodeId psw_node = t->FindByName("P10");
  ASSERT_NE(psw_node, kNoNode);
  EXPECT_EQ(t->port(t->node(psw_node).ports[0]).rate, DataRate::Gbps(400));
  EXPECT_NE(t->FindByName("P10/S14"), kNoNode);
  EXPECT_NE(t->FindByName("G6"), kNoNode);
  // Every host is reachable; hosts under different PSWs are 6 hops apart
  // (host-ToR-PSW-DSW-PSW-ToR-host).
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  for (NodeId h = 1; h < 847; ++h) {
    ASSERT_GT(rt.Distance(0, h), 0) << h;
  }
  const NodeId tor0 = t->port(t->node(0).ports[0]).peer;
  for (NodeId h = 1; h < 847; ++h) {
    const NodeId tor = t->port(t->node(h).ports[0]).peer;
    if (t->node(tor).pod != t->node(tor0).pod) {
      EXPECT_EQ(rt.Distance(0, h), 6) << h;
      break;
    }
  }
}

std::string LingjunError(const std::string& text) {
  Result<Topology> t = ParseLingjunTopology(text, "topo.csv", LingjunSpec());
  return t.ok() ? "(parsed)" : t.error().message;
}

TEST(Lingjun, Errors) {
  EXPECT_THAT(LingjunError("ip,PSW,DSW,ASW\n"), HasSubstr("topo.csv:1: expected the header 'ip,DSW,PSW,ASW'"));
  EXPECT_THAT(LingjunError(""), HasSubstr("topo.csv:1: expected the header"));
  EXPECT_THAT(LingjunError("ip,DSW,PSW,ASW\n"), HasSubstr("topo.csv:1: no hosts"));
  EXPECT_THAT(LingjunError("ip,DSW,PSW,ASW\na,G1,P1,S1\nb,G1,P1\n"),
              HasSubstr("topo.csv:3: expected 4 comma-separated fields (ip,DSW,PSW,ASW), got 3"));
  EXPECT_THAT(LingjunError("ip,DSW,PSW,ASW\na,G1,,S1\n"), HasSubstr("topo.csv:2: empty PSW field"));
  EXPECT_THAT(LingjunError("ip,DSW,PSW,ASW\na,G1,P1,S1\n\nb,G1,P1,S2\na,G1,P2,S1\n"),
              HasSubstr("topo.csv:5: duplicate host ip 'a' (first on line 2)"));
}

TEST(Lingjun, SmallInline) {
  // Two PSWs reuse the label S1: three ToRs (P1/S1, P1/S2, P2/S1).
  Result<Topology> t =
      ParseLingjunTopology("ip,DSW,PSW,ASW\r\na,G1,P1,S1\r\nb,G1,P1,S2\r\nc,G1,P2,S1\r\nd,G1,P2,S1\r\n", "x", LingjunSpec());
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 3);
  EXPECT_EQ(CountTier(*t, 2), 2);
  EXPECT_EQ(CountTier(*t, 3), 1);
  // Cables: 4 host links; each ToR (1, 1 and 2 hosts at 200G) needs one
  // 400G uplink; P1 has 2 downlinks so 2 uplinks to G1, P2 one.
  EXPECT_EQ(t->num_links(), 4u + 3u + 3u);
  EXPECT_EQ(t->node(4).name, "P1/S1");
  EXPECT_EQ(t->node(6).name, "P2/S1");
  EXPECT_EQ(t->node(6).pod, 1);
  EXPECT_EQ(t->port(t->node(3).ports[0]).peer, 6);
}

TEST(Lingjun, OversubscriptionSizesTheParallelUplinks) {
  // One ToR with 4 hosts at 200G under 400G ports: 800G down. Non-blocking
  // it needs 2 uplinks; at 2:1 one. Its PSW then has 2 (or 1) uplinks to the
  // single DSW with agg_oversubscription 1.
  const std::string csv = "ip,DSW,PSW,ASW\na,G1,P1,S1\nb,G1,P1,S1\nc,G1,P1,S1\nd,G1,P1,S1\n";
  TopologySpec spec = LingjunSpec();
  Result<Topology> flat = ParseLingjunTopology(csv, "x", spec);
  ASSERT_TRUE(flat.ok()) << flat.error().message;
  EXPECT_EQ(flat->num_links(), 4u + 2u + 2u);
  spec.oversubscription = 2;
  Result<Topology> oversub = ParseLingjunTopology(csv, "x", spec);
  ASSERT_TRUE(oversub.ok()) << oversub.error().message;
  EXPECT_EQ(oversub->num_links(), 4u + 1u + 1u);
}

}  // namespace
}  // namespace aifabric
