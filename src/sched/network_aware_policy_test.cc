// NetworkAwarePolicy on hand-made fabric states (FakeFabricLoad), each
// worked by hand in its comment and contrasted with first_fit and
// topology; then invariants over random streams: a job that sends nothing
// is placed as topology places it, no GPU is ever over-allocated, and the
// same state gives the same answer.
#include "sched/network_aware_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/rng.h"
#include "sched/fake_fabric_load.h"
#include "sched/first_fit_policy.h"
#include "sched/sched_test_cluster.h"
#include "sched/topology_policy.h"

namespace aifabric {
namespace {

using fabric_testing::CountTier;
using fabric_testing::MakeSpec;
using sched_testing::FakeFabricLoad;
using sched_testing::Layout;
using sched_testing::MakeFatTreeCluster;
using sched_testing::PortBetween;
using sched_testing::TestCluster;

constexpr int kGpusPerServer = 4;

// 8 one-NIC servers of 4 GPUs under 4 leaves (leaf i holds servers 2i and
// 2i+1; hosts h0..h7), 100G everywhere. Oversubscription 2 gives each leaf
// one uplink, to spine0 (200G down, 100G up); 1 gives two, to spine0 and
// spine1.
TestCluster LeafSpine4x2(double oversubscription) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "32x100G", 8, 1, DataRate::Gbps(100));
  spec.hosts_per_leaf = 2;
  spec.oversubscription = oversubscription;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  ClusterLayout l = Layout(*t, kGpusPerServer);
  return {std::move(t).value(), std::move(l)};
}

using sched_testing::Busy;
using sched_testing::ServersGpus;

PlacementRequest JobRequest(int gpus, double fabric_bytes_per_s_per_gpu, double storage_bytes_per_s_per_gpu = 0) {
  return PlacementRequest{"j", gpus, fabric_bytes_per_s_per_gpu, storage_bytes_per_s_per_gpu};
}

// 100 Gb/s in bytes per second.
constexpr double k100G = 12.5e9;

// The issue's case. Job A (servers 0 and 2, 2.5 GB/s per GPU) runs an
// all-reduce between leaf0 and leaf1: each of its servers sends
// 4 x 2.5 GB/s = 10 GB/s = 80 Gb/s up its leaf's one 100G uplink, so both
// uplinks run at 0.8. Jobs that send nothing hold servers 4 and 6, leaving
// one free server under each leaf: 1, 3, 5, 7. Job B (8 GPUs, same traffic)
// must span two leaves; each of its servers would send 10 GB/s (0.8) up.
// first_fit and topology (every leaf ties at one free server, lowest ids)
// take 1 and 3, under A's leaves: 0.8 + 0.8 = 1.6, the uplinks 60% over
// capacity, both all-reduces slowed. network_aware takes 5 and 7: 0.8.
class IssueCase : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(CountTier(c_.topology, 1), 4);
    ASSERT_EQ(CountTier(c_.topology, 2), 1);  // one 100G uplink per leaf
    ASSERT_TRUE(a_.Allocate("A", ServersGpus({0, 2})).ok());
    Busy(a_, {4, 6});
  }
  void LoadA(double utilization) {
    load_.SetLinkLoad(PortBetween(c_.topology, "leaf0", "spine0"), utilization);
    load_.SetLinkLoad(PortBetween(c_.topology, "leaf1", "spine0"), utilization);
  }
  // The load on the uplink of the leaf `gpu`'s NIC hangs from.
  double UplinkLoadOver(GpuId gpu) const {
    const NodeId nic = c_.layout.nic_of(gpu);
    const Node& leaf = c_.topology.node(c_.topology.port(c_.topology.node(nic).ports.front()).peer);
    return load_.PortLoad(PortBetween(c_.topology, leaf.name, "spine0"));
  }
  TestCluster c_ = LeafSpine4x2(2.0);
  GpuAllocation a_{c_.layout};
  FakeFabricLoad load_{c_.topology};
  NetworkAwarePolicy policy_{c_.topology, c_.layout, load_};
  TopologyPolicy topo_{c_.topology, c_.layout};
  FirstFitPolicy first_;
};

TEST_F(IssueCase, AvoidsTheUplinkAnotherAllReduceOverloads) {
  LoadA(4 * 2.5e9 / k100G);  // 0.8
  const PlacementRequest b = JobRequest(8, 2.5e9);
  const auto first = first_.Place(b, a_);
  const auto chosen = policy_.Place(b, a_);
  ASSERT_TRUE(first && chosen);
  EXPECT_EQ(*first, ServersGpus({1, 3}));
  EXPECT_EQ(topo_.Place(b, a_), ServersGpus({1, 3}));
  EXPECT_EQ(*chosen, ServersGpus({5, 7}));
  // first_fit's servers sit under the leaves whose uplinks A loads;
  // network_aware's under idle ones.
  EXPECT_DOUBLE_EQ(UplinkLoadOver(first->front()), 0.8);
  EXPECT_DOUBLE_EQ(UplinkLoadOver(first->back()), 0.8);
  EXPECT_DOUBLE_EQ(UplinkLoadOver(chosen->front()), 0.0);
  EXPECT_DOUBLE_EQ(UplinkLoadOver(chosen->back()), 0.0);
}

TEST_F(IssueCase, SpreadsAwayFromALoadedUplinkEvenBelowCapacity) {
  // A light job A (0.1): 1 and 3 would run at 0.9, 5 and 7 at 0.8; neither
  // overloads, both cross two tiers, so the headroom decides.
  LoadA(0.1);
  EXPECT_EQ(policy_.Place(JobRequest(8, 2.5e9), a_), ServersGpus({5, 7}));
}

TEST_F(IssueCase, AJobThatSendsNothingIsPlacedAsTopology) {
  LoadA(0.8);
  EXPECT_EQ(policy_.Place(JobRequest(8, 0), a_), ServersGpus({1, 3}));
}

// 2-pod k = 4 fat-tree (servers 4p..4p+3 in pod p; leaf i holds 2i, 2i+1;
// each leaf has two 100G uplinks to its pod's aggs = 25 GB/s, each pod
// four 100G uplinks to the cores = 50 GB/s). Servers 1 and 2 busy: free
// are 0 | 3 | 4, 5 | 6, 7. A 3-server job at 5 GB/s per GPU fits in pod 1
// only through leaf2, whose uplinks carry `leaf2_load`.
class FatTreeCase : public ::testing::Test {
 protected:
  void SetUp() override { Busy(a_, {1, 2}); }
  void LoadLeaf2(double utilization) {
    load_.SetLinkLoad(PortBetween(c_.topology, "leaf2", "agg2"), utilization);
    load_.SetLinkLoad(PortBetween(c_.topology, "leaf2", "agg3"), utilization);
  }
  TestCluster c_ = MakeFatTreeCluster(8);
  GpuAllocation a_{c_.layout};
  FakeFabricLoad load_{c_.topology};
  NetworkAwarePolicy policy_{c_.topology, c_.layout, load_};
  TopologyPolicy topo_{c_.topology, c_.layout};
};

// In pod 1 any 3 servers put one or two on leaf2. One server there (4 of
// the 12 GPUs) sends 4 x 5 GB/s x 8/8 = 20 GB/s out of its group (every
// peer is outside); two (8 GPUs) send 2 x 4 x 5 x (12-8)/(12-4) = 20 GB/s.
// Either way 20/25 = 0.8 on top of 0.9: 1.7, overloaded. Across pods,
// 6, 7 (leaf3) + 0 (leaf0): each group and each pod sends 20 GB/s, 0.8 of
// a leaf's uplinks and 0.4 of a pod's, all idle: crossing the core tier is
// free, so network_aware takes it; topology stays in pod 1 (4, 5, 6).
TEST_F(FatTreeCase, CrossesPodsWhenStayingWouldOverloadAnUplink) {
  LoadLeaf2(0.9);
  EXPECT_EQ(topo_.Place(JobRequest(12, 5e9), a_), ServersGpus({4, 5, 6}));
  EXPECT_EQ(policy_.Place(JobRequest(12, 5e9), a_), ServersGpus({0, 6, 7}));
}

// At 0.1, pod 1 peaks at 0.1 + 0.8 = 0.9 whichever servers it takes:
// nothing overloads, so the fewer tiers win, as topology places it.
TEST_F(FatTreeCase, StaysInOnePodWhenNothingOverloads) {
  LoadLeaf2(0.1);
  EXPECT_EQ(policy_.Place(JobRequest(12, 5e9), a_), ServersGpus({4, 5, 6}));
}

// Inside one pod the cooler leaf takes the larger share. A 10-GPU job at
// 2.5 GB/s per GPU needs 3 servers (4 + 4 + 2 GPUs), in pod 1 only. With
// two servers (8 GPUs) under a leaf, each sends 4 x 2.5 x (10-8)/(10-4)
// GB/s out of it, 6.67 GB/s in all, 0.267 of its uplinks; the 2 GPUs alone
// under the other leaf send 2 x 2.5 = 5 GB/s, 0.2. With leaf2 at 0.5,
// topology's 4, 5, 6 peaks at 0.5 + 0.267 = 0.767; 6, 7 and two GPUs of 4
// peak at 0.5 + 0.2 = 0.7. Across pods (6, 7, 0) would cross a third tier
// for nothing: neither overloads.
TEST_F(FatTreeCase, InsideAPodTheCoolerLeafTakesTheLargerShare) {
  LoadLeaf2(0.5);
  std::vector<GpuId> expected = {16, 17};
  for (GpuId g : ServersGpus({6, 7})) expected.push_back(g);
  EXPECT_EQ(policy_.Place(JobRequest(10, 2.5e9), a_), expected);
  std::vector<GpuId> topology = ServersGpus({4, 5});
  topology.insert(topology.end(), {24, 25});
  EXPECT_EQ(topo_.Place(JobRequest(10, 2.5e9), a_), topology);
}

// The storage server is 7 (leaf3, pod 1); server 6 busy, so leaf3 has no
// usable server, and server 1 busy, so leaf0 is the best fit (one free).
// A one-server job writing 1 GB/s per GPU sends 4 GB/s up whichever leaf
// it sits under (4/25 = 0.16 of any leaf's uplinks, more than the 4/50 of
// a pod's), so the peak ties; server 4 (leaf2) is 2 tiers from storage,
// servers 0 and 2 are 3: network_aware takes 4 where topology takes 0.
TEST(NetworkAwarePolicy, NearerStorageWinsWhenAllElseIsEqual) {
  const TestCluster c = MakeFatTreeCluster(8);
  GpuAllocation a(c.layout);
  Busy(a, {1, 6});
  FakeFabricLoad load(c.topology);
  load.SetStorageServers({7});
  NetworkAwarePolicy policy(c.topology, c.layout, load);
  EXPECT_EQ(TopologyPolicy(c.topology, c.layout).Place(JobRequest(4, 0), a), ServersGpus({0}));
  EXPECT_EQ(policy.Place(JobRequest(4, 0, 1e9), a), ServersGpus({4}));
  EXPECT_EQ(policy.Place(JobRequest(4, 0, 0), a), ServersGpus({0}));  // no storage traffic: best fit
  // Server 6 freed: under the storage server's own leaf the writes cross
  // no uplink at all.
  ASSERT_TRUE(a.Release("busy6").ok());
  EXPECT_EQ(policy.Place(JobRequest(4, 0, 1e9), a), ServersGpus({6}));
  // The storage server never takes a job: with 1 busy and 7 storage, 6
  // servers are usable, so 7 servers' worth (28 GPUs) waits.
  EXPECT_FALSE(policy.Place(JobRequest(28, 0), a).has_value());
  EXPECT_EQ(policy.Place(JobRequest(24, 0), a), ServersGpus({0, 2, 3, 4, 5, 6}));
}

// All free, non-blocking leaf-spine. A one-server job goes to server 0
// (every leaf has two free; best fit ties to the lowest). With h0's link
// down, server 0 is out and leaf0 has one usable server: the best fit,
// server 1. A two-server job then takes leaf1 (2, 3), the lowest whole leaf.
TEST(NetworkAwarePolicy, NeverChoosesAServerWhoseNicLinkIsDown) {
  const TestCluster c = LeafSpine4x2(1.0);
  GpuAllocation a(c.layout);
  FakeFabricLoad load(c.topology);
  NetworkAwarePolicy policy(c.topology, c.layout, load);
  EXPECT_EQ(policy.Place(JobRequest(4, 1e9), a), ServersGpus({0}));
  load.SetLinkUp(PortBetween(c.topology, "h0", "leaf0"), false);
  EXPECT_EQ(policy.Place(JobRequest(4, 1e9), a), ServersGpus({1}));
  EXPECT_EQ(policy.Place(JobRequest(8, 0), a), ServersGpus({2, 3}));
  EXPECT_EQ(TopologyPolicy(c.topology, c.layout).Place(JobRequest(8, 0), a), ServersGpus({0, 1}));
  // Only the link's other direction down: the link is down all the same.
  load.SetLinkUp(PortBetween(c.topology, "h0", "leaf0"), true);
  load.SetLinkUp(PortBetween(c.topology, "leaf0", "h0"), false);
  EXPECT_EQ(policy.Place(JobRequest(4, 0), a), ServersGpus({1}));
}

// A small job goes to the most used server that holds it: server 0 (2 of
// 4 GPUs used) until its NIC link goes down; then every other server is
// empty and the lowest, server 1, takes it on GPUs 4, 5.
TEST(NetworkAwarePolicy, SmallJobTakesTheMostUsedServerWithItsNicUp) {
  const TestCluster c = LeafSpine4x2(1.0);
  GpuAllocation a(c.layout);
  ASSERT_TRUE(a.Allocate("x", std::vector<GpuId>{0, 1}).ok());
  FakeFabricLoad load(c.topology);
  NetworkAwarePolicy policy(c.topology, c.layout, load);
  EXPECT_EQ(policy.Place(JobRequest(2, 1e9), a), (std::vector<GpuId>{2, 3}));
  load.SetLinkUp(PortBetween(c.topology, "h0", "leaf0"), false);
  EXPECT_EQ(policy.Place(JobRequest(2, 1e9), a), (std::vector<GpuId>{4, 5}));
  EXPECT_FALSE(policy.Place(JobRequest(0, 0), a).has_value());
}

// Non-blocking leaf-spine (each leaf two 100G uplinks = 25 GB/s); servers
// 0, 2, 4, 6 busy, so every leaf has one free server. A 2-server job at
// 2.5 GB/s per GPU sends 10 GB/s out of each of its two leaves: 0.4 of
// two live uplinks. With leaf0-spine0 down, leaf0 has 12.5 GB/s left and
// would run at 0.8: network_aware takes 3 and 5 (0.4) where topology takes
// 1 and 3.
TEST(NetworkAwarePolicy, AvoidsALeafGroupWithAnUplinkDown) {
  const TestCluster c = LeafSpine4x2(1.0);
  ASSERT_EQ(CountTier(c.topology, 2), 2);
  GpuAllocation a(c.layout);
  Busy(a, {0, 2, 4, 6});
  FakeFabricLoad load(c.topology);
  load.SetLinkUp(PortBetween(c.topology, "leaf0", "spine0"), false);
  NetworkAwarePolicy policy(c.topology, c.layout, load);
  EXPECT_EQ(TopologyPolicy(c.topology, c.layout).Place(JobRequest(8, 2.5e9), a), ServersGpus({1, 3}));
  EXPECT_EQ(policy.Place(JobRequest(8, 2.5e9), a), ServersGpus({3, 5}));
  // A job that sends nothing does not care.
  EXPECT_EQ(policy.Place(JobRequest(8, 0), a), ServersGpus({1, 3}));

  // Both of leaf0's uplinks down: server 1 is cut off from the others. A
  // talking job spans leaf0 never; it stays inside one leaf, or waits.
  load.SetLinkUp(PortBetween(c.topology, "leaf0", "spine1"), false);
  EXPECT_EQ(policy.Place(JobRequest(12, 2.5e9), a), ServersGpus({3, 5, 7}));
  EXPECT_FALSE(policy.Place(JobRequest(16, 2.5e9), a).has_value());
  EXPECT_EQ(policy.Place(JobRequest(16, 0), a), ServersGpus({1, 3, 5, 7}));
  EXPECT_EQ(policy.Place(JobRequest(4, 2.5e9), a), ServersGpus({1}));  // one server: no fabric
}

TEST(NetworkAwarePolicy, DeclinesWhatCannotFit) {
  const TestCluster c = LeafSpine4x2(2.0);
  GpuAllocation a(c.layout);
  Busy(a, {0, 2, 4, 6});
  FakeFabricLoad load(c.topology);
  NetworkAwarePolicy policy(c.topology, c.layout, load);
  EXPECT_FALSE(policy.Place(JobRequest(0, 0), a).has_value());
  EXPECT_FALSE(policy.Place(JobRequest(-1, 0), a).has_value());
  EXPECT_FALSE(policy.Place(JobRequest(17, 1e9), a).has_value());  // 5 servers, 4 free
  ASSERT_TRUE(a.Allocate("x", std::vector<GpuId>{4}).ok());  // server 1 no longer whole
  EXPECT_FALSE(policy.Place(JobRequest(13, 1e9), a).has_value());   // 15 GPUs free, but 4 of 3 whole servers
  EXPECT_EQ(policy.Place(JobRequest(3, 1e9), a), (std::vector<GpuId>{5, 6, 7}));
}

// One step in three (while jobs run) ends a running job at random instead
// of placing one; true when it did.
bool ReleaseOneAtRandom(Rng& rng, GpuAllocation& a, std::vector<std::string>& live) {
  if (live.empty() || rng.Below(3) != 0) return false;
  const size_t k = static_cast<size_t>(rng.Below(live.size()));
  EXPECT_TRUE(a.Release(live[k]).ok());
  live.erase(live.begin() + static_cast<long>(k));
  return true;
}

// Random loads (0 to 1.5 of capacity) and switch-to-switch links down on
// every step; every NIC link up and no storage. A job that sends nothing
// must land exactly where topology puts it.
TEST(NetworkAwarePolicy, ZeroTrafficJobsArePlacedAsTopologyPlacesThem) {
  for (const int servers : {8, 16}) {
    const TestCluster c = MakeFatTreeCluster(servers);
    FakeFabricLoad load(c.topology);
    NetworkAwarePolicy policy(c.topology, c.layout, load);
    TopologyPolicy topo(c.topology, c.layout);
    GpuAllocation a(c.layout);
    Rng rng(static_cast<uint64_t>(servers));
    std::vector<std::string> live;
    int placed = 0;
    for (int i = 0; i < 400; ++i) {
      for (PortId p = 0; p < static_cast<PortId>(load.ports()); p += 2) {
        const Port& port = c.topology.port(p);
        load.SetLinkLoad(p, 1.5 * rng.Uniform());
        const bool inter_switch = c.topology.node(port.node).kind == NodeKind::kSwitch &&
                                  c.topology.node(port.peer).kind == NodeKind::kSwitch;
        load.SetLinkUp(p, !inter_switch || rng.Below(5) != 0);
      }
      if (ReleaseOneAtRandom(rng, a, live)) continue;
      const std::string job = std::string("j").append(std::to_string(i));
      const PlacementRequest r{job, 1 + static_cast<int32_t>(rng.Below(static_cast<uint64_t>(servers) * 3))};
      const auto expected = topo.Place(r, a);
      ASSERT_EQ(policy.Place(r, a), expected) << "servers " << servers << " job " << i << " of " << r.gpus;
      if (!expected) continue;
      ASSERT_TRUE(a.Allocate(job, *expected).ok());
      live.push_back(job);
      ++placed;
    }
    EXPECT_GT(placed, 100);
  }
}

// Random loads, links down (NIC links too), storage servers and traffic.
// Every proposal is exactly the job's size, ascending, free, off storage
// and off servers with a NIC link down; allocating it never fails; a
// second policy on the same state answers the same.
TEST(NetworkAwarePolicy, NeverOverAllocatesUnderRandomLoadsAndFailures) {
  const TestCluster c = MakeFatTreeCluster(16);
  FakeFabricLoad load(c.topology);
  NetworkAwarePolicy policy(c.topology, c.layout, load);
  NetworkAwarePolicy twin(c.topology, c.layout, load);
  GpuAllocation a(c.layout);
  Rng rng(23);
  std::vector<std::string> live;
  int placed = 0, declined = 0;
  for (int i = 0; i < 600; ++i) {
    for (PortId p = 0; p < static_cast<PortId>(load.ports()); p += 2) {
      load.SetLinkLoad(p, 1.5 * rng.Uniform());
      load.SetLinkUp(p, rng.Below(20) != 0);
    }
    std::vector<int> storage;
    for (int s = 0; s < 16; ++s) {
      if (rng.Below(8) == 0) storage.push_back(s);
    }
    load.SetStorageServers(storage);
    if (ReleaseOneAtRandom(rng, a, live)) continue;
    const std::string job = std::string("j").append(std::to_string(i));
    const double rates[] = {0, 1e9, 5e9, 2e10};
    const PlacementRequest r{job, 1 + static_cast<int32_t>(rng.Below(24)), rates[rng.Below(4)], rates[rng.Below(2)]};
    const auto gpus = policy.Place(r, a);
    ASSERT_EQ(twin.Place(r, a), gpus) << "job " << i;
    if (!gpus) {
      ++declined;
      continue;
    }
    ASSERT_EQ(static_cast<int>(gpus->size()), r.gpus);
    ASSERT_TRUE(std::is_sorted(gpus->begin(), gpus->end()));
    for (GpuId g : *gpus) {
      ASSERT_TRUE(a.is_free(g)) << "job " << i << " GPU " << g;
      const int server = c.layout.server_of(g);
      ASSERT_FALSE(std::binary_search(storage.begin(), storage.end(), server)) << "job " << i;
      const PortId nic = c.topology.node(c.layout.nics(server).front()).ports.front();
      ASSERT_TRUE(load.PortUp(nic) && load.PortUp(nic ^ 1)) << "job " << i << " server " << server;
    }
    ASSERT_TRUE(a.Allocate(job, *gpus).ok()) << "job " << i;
    live.push_back(job);
    ++placed;
  }
  EXPECT_GT(placed, 100);
  EXPECT_GT(declined, 20);
}

}  // namespace
}  // namespace aifabric
