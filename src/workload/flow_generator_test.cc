#include "workload/flow_generator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "workload/test_topology.h"
#include "test_paths.h"

namespace aifabric {
namespace {

using testing_topology::Interleaved;
using testing_topology::Star;

bool Same(const FlowSpec& a, const FlowSpec& b) {
  return a.id == b.id && a.src == b.src && a.dst == b.dst && a.bytes == b.bytes &&
         a.start == b.start && a.priority == b.priority && a.dport == b.dport;
}

std::string WebSearch() {
  return std::string(AIFABRIC_SOURCE_DIR) + "/data/traffic/WebSearch_distribution.txt";
}

// Every result: ids first_id..first_id+n-1, sorted by (start, id), src != dst,
// both hosts.
void ExpectWellFormed(const std::vector<FlowSpec>& flows, const Topology& topo, FlowId first_id) {
  std::set<FlowId> ids;
  for (size_t i = 0; i < flows.size(); ++i) {
    const FlowSpec& f = flows[i];
    ids.insert(f.id);
    EXPECT_NE(f.src, f.dst);
    EXPECT_EQ(topo.node(f.src).kind, NodeKind::kHost);
    EXPECT_EQ(topo.node(f.dst).kind, NodeKind::kHost);
    EXPECT_GT(f.bytes, 0u);
    if (i > 0) {
      const FlowSpec& p = flows[i - 1];
      EXPECT_TRUE(p.start < f.start || (p.start == f.start && p.id < f.id));
    }
  }
  ASSERT_EQ(ids.size(), flows.size());
  if (!flows.empty()) {
    EXPECT_EQ(*ids.begin(), first_id);
    EXPECT_EQ(*ids.rbegin(), first_id + static_cast<FlowId>(flows.size()) - 1);
  }
}

FlowSpec ListFlow(NodeId src, NodeId dst, uint64_t bytes, Time start) {
  FlowSpec f;
  f.src = src;
  f.dst = dst;
  f.bytes = bytes;
  f.start = start;
  return f;
}

TEST(BuildFlowsTest, ListKeepsIdsInListOrderAndSortsByStart) {
  const Topology topo = Star(4);
  FlowListSpec list;
  list.flows = {ListFlow(0, 1, 100, Time::FromUs(2)), ListFlow(1, 2, 200, Time::FromUs(1)),
                ListFlow(2, 3, 300, Time::FromUs(1))};
  Rng rng(1);
  Result<std::vector<FlowSpec>> flows = BuildFlows(list, topo, rng, 100, "workload[0]");
  ASSERT_TRUE(flows.ok()) << flows.error().message;
  ExpectWellFormed(*flows, topo, 100);
  // List entry i gets id 100 + i; order by start, then id.
  ASSERT_EQ(flows->size(), 3u);
  EXPECT_EQ((*flows)[0].id, 101);
  EXPECT_EQ((*flows)[1].id, 102);
  EXPECT_EQ((*flows)[2].id, 100);
  EXPECT_EQ((*flows)[2].bytes, 100u);
}

TEST(BuildFlowsTest, ListErrorsNameTheField) {
  const Topology topo = Star(32);  // 32 hosts + 1 switch = 33 nodes
  struct Case {
    FlowSpec flow;
    const char* expect;
  };
  for (const Case& c : {
           Case{ListFlow(0, 40, 1, Time()),
                "workload[0].flows[3].dst: node 40 is not a host (the topology has 33 nodes)"},
           Case{ListFlow(32, 1, 1, Time()),
                "workload[0].flows[3].src: node 32 (sw0) is a switch, not a host"},
           Case{ListFlow(-1, 1, 1, Time()), "workload[0].flows[3].src: node -1 is not a host"},
           Case{ListFlow(5, 5, 1, Time()), "workload[0].flows[3].dst: same node as src (5)"},
           Case{ListFlow(0, 1, 0, Time()), "workload[0].flows[3].size: expected a size > 0"},
       }) {
    FlowListSpec list;
    list.flows = {ListFlow(0, 1, 1, Time()), ListFlow(0, 1, 1, Time()), ListFlow(0, 1, 1, Time()),
                  c.flow};
    Rng rng(1);
    Result<std::vector<FlowSpec>> flows = BuildFlows(list, topo, rng, 0, "workload[0]");
    ASSERT_FALSE(flows.ok());
    EXPECT_EQ(flows.error().message.rfind(c.expect, 0), 0u) << "got: " << flows.error().message;
  }
}

// A derangement: every host sends exactly once, receives exactly once, and
// never to itself. Checked on interleaved node ids (host id != host index)
// for many seeds and sizes, including 2 hosts (the only derangement is the
// swap).
TEST(BuildFlowsTest, PermutationIsADerangement) {
  for (int hosts : {2, 3, 7, 64}) {
    const Topology topo = Interleaved(hosts);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Rng rng(seed);
      PermutationSpec spec;
      spec.bytes = 4096;
      spec.start = Time::FromUs(3);
      Result<std::vector<FlowSpec>> flows = BuildFlows(spec, topo, rng, 0);
      ASSERT_TRUE(flows.ok()) << flows.error().message;
      ExpectWellFormed(*flows, topo, 0);
      ASSERT_EQ(flows->size(), static_cast<size_t>(hosts));
      std::set<NodeId> senders, receivers;
      for (const FlowSpec& f : *flows) {
        senders.insert(f.src);
        receivers.insert(f.dst);
        EXPECT_EQ(f.start, Time::FromUs(3));
        EXPECT_EQ(f.bytes, 4096u);
      }
      EXPECT_EQ(senders.size(), static_cast<size_t>(hosts));
      EXPECT_EQ(receivers.size(), static_cast<size_t>(hosts));
    }
  }
}

// With 3 hosts there are exactly 2 derangements (the two 3-cycles); a
// uniform draw gives each about half the time: 2000 draws, sd ~ 22.
TEST(BuildFlowsTest, PermutationDrawsDerangementsUniformly) {
  const Topology topo = Star(3);
  Rng rng(5);
  int forward = 0;  // 0->1->2->0
  for (int i = 0; i < 2000; ++i) {
    Result<std::vector<FlowSpec>> flows = BuildFlows(PermutationSpec{}, topo, rng, 0);
    ASSERT_TRUE(flows.ok());
    forward += (*flows)[0].dst == 1;
  }
  EXPECT_NEAR(forward, 1000, 110);
}

// Incast: `senders` distinct hosts, the ones after the receiver in host
// order (wrapping), each send `bytes` to the receiver at `start`.
TEST(BuildFlowsTest, IncastHasNSendersToOneReceiver) {
  const Topology topo = Interleaved(8);  // hosts are nodes 1, 3, ..., 15
  IncastSpec spec;
  spec.senders = 5;
  spec.receiver = topo.hosts()[6];  // node 13; senders: host indices 7, 0, 1, 2, 3
  spec.bytes = 1000;
  spec.start = Time::FromNs(10);
  Rng rng(1);
  Result<std::vector<FlowSpec>> flows = BuildFlows(spec, topo, rng, 7);
  ASSERT_TRUE(flows.ok()) << flows.error().message;
  ExpectWellFormed(*flows, topo, 7);
  ASSERT_EQ(flows->size(), 5u);
  std::set<NodeId> senders;
  for (const FlowSpec& f : *flows) {
    EXPECT_EQ(f.dst, 13);
    EXPECT_EQ(f.bytes, 1000u);
    EXPECT_EQ(f.start, Time::FromNs(10));
    senders.insert(f.src);
  }
  EXPECT_EQ(senders, (std::set<NodeId>{15, 1, 3, 5, 7}));

  // Default receiver: host index 0; senders the next ones.
  IncastSpec def;
  def.senders = 7;
  Result<std::vector<FlowSpec>> all = BuildFlows(def, topo, rng, 0);
  ASSERT_TRUE(all.ok()) << all.error().message;
  ASSERT_EQ(all->size(), 7u);
  for (const FlowSpec& f : *all) EXPECT_EQ(f.dst, 1);
}

TEST(BuildFlowsTest, IncastErrors) {
  const Topology topo = Star(8);
  Rng rng(1);
  IncastSpec spec;
  spec.senders = 8;
  Result<std::vector<FlowSpec>> flows = BuildFlows(spec, topo, rng, 0, "workload[2]");
  ASSERT_FALSE(flows.ok());
  EXPECT_EQ(flows.error().message.rfind("workload[2].incast.senders: expected 1..7", 0), 0u)
      << flows.error().message;
  spec.senders = 2;
  spec.receiver = 8;  // the switch
  flows = BuildFlows(spec, topo, rng, 0, "workload[2]");
  ASSERT_FALSE(flows.ok());
  EXPECT_EQ(flows.error().message.rfind("workload[2].incast.receiver: node 8 (sw0) is a switch", 0),
            0u)
      << flows.error().message;
}

// All-to-all over H hosts: H(H-1) flows, each ordered pair once. H = 9: 72.
TEST(BuildFlowsTest, AllToAllHasEveryOrderedPairOnce) {
  const Topology topo = Interleaved(9);
  Rng rng(1);
  Result<std::vector<FlowSpec>> flows = BuildFlows(AllToAllSpec{}, topo, rng, 0);
  ASSERT_TRUE(flows.ok()) << flows.error().message;
  ExpectWellFormed(*flows, topo, 0);
  EXPECT_EQ(flows->size(), 72u);
  std::set<std::pair<NodeId, NodeId>> pairs;
  for (const FlowSpec& f : *flows) pairs.insert({f.src, f.dst});
  EXPECT_EQ(pairs.size(), 72u);
}

// Poisson count. Host h starts flows at rate lambda_h = load * R_h /
// (mean_bytes * 8). WebSearch mean = 1,711,250 B = 13,690,000 bits; load 0.3.
//   100 Gbps host: 0.3 * 1e11 / 1.369e7 = 2,191.38 flows/s
//   400 Gbps host: 4x that               = 8,765.52 flows/s
// 8 hosts of each over 1 s: N ~ Poisson(8 * 2,191.38 + 8 * 8,765.52)
// = Poisson(87,655.2), sigma = sqrt(87,655.2) = 296.1; accept |N - E| < 3 sigma.
TEST(BuildFlowsTest, PoissonCountMatchesLoadWithinThreeSigma) {
  Topology topo;
  for (int i = 0; i < 16; ++i) topo.AddHost(testing_topology::Name("h", i));
  const NodeId sw = topo.AddSwitch("sw", 1, -1);
  for (int i = 0; i < 16; ++i) {
    topo.AddLink(i, sw, i < 8 ? DataRate::Gbps(100) : DataRate::Gbps(400), Time::FromNs(500));
  }
  PoissonSpec spec;
  spec.load = 0.3;
  spec.cdf_file = WebSearch();
  spec.start = Time::FromMs(2);
  spec.duration = Time::FromSeconds(1.0);
  Rng rng(11);
  Result<std::vector<FlowSpec>> flows = BuildFlows(spec, topo, rng, 0, "workload[0]");
  ASSERT_TRUE(flows.ok()) << flows.error().message;
  ExpectWellFormed(*flows, topo, 0);
  const double expected = 8 * 0.3 * 1e11 / 13.69e6 + 8 * 0.3 * 4e11 / 13.69e6;
  ASSERT_NEAR(expected, 87655.2, 0.1);
  EXPECT_NEAR(static_cast<double>(flows->size()), expected, 3 * std::sqrt(expected));
  for (const FlowSpec& f : *flows) {
    ASSERT_GE(f.start, spec.start);
    ASSERT_LT(f.start, spec.start + spec.duration);
    ASSERT_EQ(f.priority, 3);
  }
}

TEST(BuildFlowsTest, SameSeedGivesIdenticalFlows) {
  const Topology topo = Interleaved(12);
  PoissonSpec poisson;
  poisson.cdf_file = WebSearch();
  poisson.duration = Time::FromMs(20);
  for (const TrafficSpec& spec : {TrafficSpec(poisson), TrafficSpec(PermutationSpec{})}) {
    Rng a(99), b(99), c(100);
    Result<std::vector<FlowSpec>> fa = BuildFlows(spec, topo, a, 5);
    Result<std::vector<FlowSpec>> fb = BuildFlows(spec, topo, b, 5);
    Result<std::vector<FlowSpec>> fc = BuildFlows(spec, topo, c, 5);
    ASSERT_TRUE(fa.ok() && fb.ok() && fc.ok());
    ASSERT_EQ(fa->size(), fb->size());
    ASSERT_GT(fa->size(), 0u);
    bool differs = fa->size() != fc->size();
    for (size_t i = 0; i < fa->size(); ++i) {
      EXPECT_TRUE(Same((*fa)[i], (*fb)[i])) << i;
      if (!differs && !Same((*fa)[i], (*fc)[i])) differs = true;
    }
    EXPECT_TRUE(differs) << "another seed should give other flows";
  }
}

TEST(BuildFlowsTest, PoissonErrorsNameTheField) {
  const Topology topo = Star(16);
  PoissonSpec spec;
  spec.cdf_file = WebSearch();
  // 16 hosts * 2,191.38 flows/s * 1000 s = 35 million > 10 million.
  spec.duration = Time::FromSeconds(1000);
  Rng rng(1);
  Result<std::vector<FlowSpec>> flows = BuildFlows(spec, topo, rng, 0, "workload[3]");
  ASSERT_FALSE(flows.ok());
  EXPECT_EQ(flows.error().message.rfind("workload[3].poisson.duration: about 35062", 0), 0u)
      << flows.error().message;

  spec.duration = Time::FromMs(1);
  spec.load = 1.5;
  flows = BuildFlows(spec, topo, rng, 0, "workload[3]");
  ASSERT_FALSE(flows.ok());
  EXPECT_EQ(flows.error().message.rfind("workload[3].poisson.load: expected", 0), 0u)
      << flows.error().message;

  spec.load = 0.3;
  spec.cdf_file = "/nonexistent.txt";
  flows = BuildFlows(spec, topo, rng, 0, "workload[3]");
  ASSERT_FALSE(flows.ok());
  EXPECT_EQ(flows.error().message.rfind("workload[3].poisson.cdf_file: /nonexistent.txt", 0), 0u)
      << flows.error().message;
}

TEST(BuildFlowsTest, HpccFileMissingIsAnError) {
  const Topology topo = Star(4);
  HpccFlowFileSpec spec;
  spec.file = "/nonexistent/flow.txt";
  Rng rng(1);
  Result<std::vector<FlowSpec>> flows = BuildFlows(spec, topo, rng, 0, "workload[1]");
  ASSERT_FALSE(flows.ok());
  EXPECT_NE(flows.error().message.find("/nonexistent/flow.txt"), std::string::npos);
}

}  // namespace
}  // namespace aifabric
