#include "sched/replay_comm_edges.h"

#include <gtest/gtest.h>

#include <vector>

#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

// Two servers of 4 GPUs with 2 NICs each (rail r: GPUs 2r, 2r+1):
// servers' NICs are host nodes 0,1 (server 0) and 2,3 (server 1).
struct TwoServers {
  Topology topology;
  ClusterLayout layout;
  TwoServers() {
    for (int s = 0; s < 2; ++s) {
      for (int r = 0; r < 2; ++r) {
        std::string name = "h";
        name += std::to_string(2 * s + r);
        topology.AddHost(name, s, r);
      }
    }
    const NodeId leaf = topology.AddSwitch("leaf", 1, topology.AddSwitchSpec(SwitchSpec{}));
    for (NodeId h = 0; h < 4; ++h) topology.AddLink(h, leaf, DataRate::Gbps(100), Time::Zero());
    layout = sched_testing::Layout(topology, 4);
  }
};

// tp = 1, dp = 8 over GPUs 0-7: the ring 0->1->...->7->0 crosses servers
// at 3->4 and 7->0 only, each carrying 2 x 7/8 x S; the sender's rail
// picks the receiving NIC (GPU 3 is on rail 1: NIC 1 -> NIC 3; GPU 7 on
// rail 1 of server 1: NIC 3 -> NIC 1).
TEST(ReplayCommEdgesTest, RingCrossesServersOnTheSendersRail) {
  const TwoServers c;
  JobProfile p;
  p.parallelism = {1, 1, 8, 1};
  p.allreduce_bytes = 800;
  const std::vector<GpuId> gpus = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<CommEdge> edges = GradientAndPipelineEdges(p, true, c.layout, gpus);
  ASSERT_EQ(edges.size(), 2u);
  EXPECT_EQ(edges[0].src, 1);
  EXPECT_EQ(edges[0].dst, 3);
  EXPECT_DOUBLE_EQ(edges[0].bytes, 2.0 * 7 / 8 * 800);
  EXPECT_EQ(edges[1].src, 3);
  EXPECT_EQ(edges[1].dst, 1);
}

// tp = 4, pp = 2, dp = 1: stage 0 on server 0, stage 1 on server 1; each
// tensor rank sends half the pipeline bytes forward and half back.
TEST(ReplayCommEdgesTest, PipelineSendsBothWaysInTraining) {
  const TwoServers c;
  JobProfile p;
  p.parallelism = {4, 2, 1, 1};
  p.pipeline_bytes = 100;
  const std::vector<GpuId> gpus = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<CommEdge> training = GradientAndPipelineEdges(p, true, c.layout, gpus);
  ASSERT_EQ(training.size(), 8u);
  for (const CommEdge& e : training) EXPECT_DOUBLE_EQ(e.bytes, 50);
  EXPECT_EQ(training[0].src, 0);  // GPU 0 (rail 0) -> server 1's rail 0
  EXPECT_EQ(training[0].dst, 2);
  EXPECT_EQ(training[1].src, 2);  // and back
  EXPECT_EQ(training[1].dst, 0);
  const std::vector<CommEdge> inference = GradientAndPipelineEdges(p, false, c.layout, gpus);
  ASSERT_EQ(inference.size(), 4u);
  for (const CommEdge& e : inference) EXPECT_DOUBLE_EQ(e.bytes, 100);
}

// ep = dp = 2 with tp = 4: each tensor rank's pair exchanges
// alltoall_bytes / (ep - 1) both ways across the servers.
TEST(ReplayCommEdgesTest, AllToAllAmongExpertRanks) {
  const TwoServers c;
  JobProfile p;
  p.parallelism = {4, 1, 2, 2};
  p.alltoall_bytes = 60;
  const std::vector<GpuId> gpus = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<CommEdge> edges = AllToAllEdges(p, c.layout, gpus);
  ASSERT_EQ(edges.size(), 8u);
  double total = 0;
  for (const CommEdge& e : edges) total += e.bytes;
  EXPECT_DOUBLE_EQ(total, 8 * 60.0);
}

// Checkpoints go to the nearest storage server on the GPU's rail.
TEST(ReplayCommEdgesTest, CheckpointToStorageOnTheSameRail) {
  const TwoServers c;
  JobProfile p;
  p.checkpoint_bytes_per_gpu = 10;
  const std::vector<GpuId> gpus = {0, 3};
  const std::vector<int> storage = {1};
  const std::vector<CommEdge> edges =
      CheckpointEdges(p, c.layout, gpus, storage, [](int a, int b) { return a == b ? 0 : 1; });
  ASSERT_EQ(edges.size(), 2u);
  EXPECT_EQ(edges[0].src, 0);
  EXPECT_EQ(edges[0].dst, 2);
  EXPECT_EQ(edges[1].src, 1);
  EXPECT_EQ(edges[1].dst, 3);
  EXPECT_DOUBLE_EQ(edges[1].bytes, 10);
}

}  // namespace
}  // namespace aifabric
