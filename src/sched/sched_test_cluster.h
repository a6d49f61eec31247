// Clusters shared by the scheduling tests (test-only; not part of the
// library): k = 4 fat-trees of one-NIC servers with 4 GPUs each (server s
// holds GPUs 4s..4s+3; leaf i holds servers 2i and 2i+1; pod p holds
// leaves 2p and 2p+1, so servers 4p..4p+3).
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "fabric/cluster_layout.h"
#include "fabric/fabric_test_util.h"
#include "fabric/topology_builder.h"
#include "sched/gpu_allocation.h"

namespace aifabric::sched_testing {

struct TestCluster {
  Topology topology;
  ClusterLayout layout;
};

// The k = 4 fat-tree builder's topology with `servers` one-NIC servers.
inline Topology FatTree4(int servers) {
  TopologySpec spec = fabric_testing::MakeSpec(TopologyType::kFatTree, "32x100G", servers, 1, DataRate::Gbps(100));
  spec.k = 4;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// Adds `servers` one-NIC servers: host hN is server N's rail 0 (node id N
// when the topology is empty).
inline void AddOneNicServers(Topology& t, int servers) {
  for (int h = 0; h < servers; ++h) {
    std::string name = "h";  // appended, not "h" + string (GCC 12 -Wrestrict)
    name += std::to_string(h);
    t.AddHost(name, h, 0);
  }
}

// 2 leaves x 2 servers (one NIC each), 2 spines, every leaf to every
// spine: h0 h1 -> leaf0, h2 h3 -> leaf1; 100G down, 400G up.
inline Topology LeafSpine2x2() {
  Topology t;
  AddOneNicServers(t, 4);
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  const NodeId leaf0 = t.AddSwitch("leaf0", 1, spec), leaf1 = t.AddSwitch("leaf1", 1, spec);
  const NodeId spine0 = t.AddSwitch("spine0", 2, spec), spine1 = t.AddSwitch("spine1", 2, spec);
  for (int h = 0; h < 4; ++h) t.AddLink(h, h < 2 ? leaf0 : leaf1, DataRate::Gbps(100), Time::Zero());
  for (NodeId l : {leaf0, leaf1}) {
    for (NodeId s : {spine0, spine1}) t.AddLink(l, s, DataRate::Gbps(400), Time::Zero());
  }
  return t;
}

inline ClusterLayout Layout(const Topology& t, int gpus_per_server = 1) {
  ServerSpec spec;
  spec.gpus_per_server = gpus_per_server;
  Result<ClusterLayout> l = ClusterLayout::Build(t, spec);
  EXPECT_TRUE(l.ok()) << l.error().message;
  return std::move(l).value();
}

// `servers`: 8 gives two pods, 16 all four; 4 GPUs per server.
inline TestCluster MakeFatTreeCluster(int servers) {
  Topology t = FatTree4(servers);
  ClusterLayout l = Layout(t, 4);
  return {std::move(t), std::move(l)};
}

// 8 servers: two pods (servers 0-3 and 4-7).
inline TestCluster MakeTwoPodFatTree() { return MakeFatTreeCluster(8); }

// The GPUs of these whole servers (4 GPUs each), ascending.
inline std::vector<GpuId> ServersGpus(std::vector<int> servers) {
  std::sort(servers.begin(), servers.end());
  std::vector<GpuId> out;
  for (int s : servers) {
    for (int i = 0; i < 4; ++i) out.push_back(4 * s + i);
  }
  return out;
}

// Marks whole servers busy (jobs that send nothing).
inline void Busy(GpuAllocation& a, std::vector<int> servers) {
  for (int s : servers) ASSERT_TRUE(a.Allocate(std::string("busy").append(std::to_string(s)), ServersGpus({s})).ok());
}

// GPUs first..last, both included.
inline std::vector<GpuId> GpuRange(GpuId first, GpuId last) {
  std::vector<GpuId> out;
  for (GpuId g = first; g <= last; ++g) out.push_back(g);
  return out;
}

}  // namespace aifabric::sched_testing
