// The network as GPUs see it: NVLink inside a server with contention at
// each GPU's port, NIC to NIC between servers.
#include "flow/gpu_network.h"

#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "flow/flow_test_util.h"

namespace aifabric {
namespace {

// A fabric that delivers any transfer after bytes / 50 GB/s + 2 us, and
// records what it was asked to carry.
struct FakeFabric final : NetworkModel {
  explicit FakeFabric(Simulator& s) : sim(s) {}
  void StartTransfer(const TransferRequest& r) override {
    requests.push_back(r);
    const Time at = sim.Now() + DataRate::Gbps(400).TransmitTime(r.bytes) + Time::FromUs(2);
    const FlowId id = r.id;
    sim.ScheduleCallback(at, [this, id, at] { observer->OnTransferDone(id, at); });
  }
  void SetObserver(TransferObserver* o) override { observer = o; }
  const char* name() const override { return "fake"; }
  Simulator& sim;
  TransferObserver* observer = nullptr;
  std::vector<TransferRequest> requests;
};

// A fabric that takes coflows and records them (done at once).
struct CoflowFabric final : NetworkModel {
  explicit CoflowFabric(Simulator& s) : sim(s) {}
  void StartTransfer(const TransferRequest& /*r*/) override {}
  bool SupportsCoflows() const override { return true; }
  Status StartCoflow(const CoflowRequest& r) override {
    coflows.push_back(r);
    const FlowId id = r.id;
    sim.ScheduleCallback(sim.Now(), [this, id] { observer->OnTransferDone(id, sim.Now()); });
    return Status::Ok();
  }
  void SetObserver(TransferObserver* o) override { observer = o; }
  const char* name() const override { return "fake"; }
  Simulator& sim;
  TransferObserver* observer = nullptr;
  std::vector<CoflowRequest> coflows;
};

using flow_testing::Finishes;

struct TwoServers {
  TwoServers() {
    for (int s = 0; s < 2; ++s) {
      for (int r = 0; r < 8; ++r) {
        std::string name = "h";
        name += std::to_string(topology.num_nodes());
        topology.AddHost(std::move(name), s, r);
      }
    }
    layout = ClusterLayout::Build(topology, ServerSpec{}).value();  // H100: 450 GB/s, 25 ns
    net = std::make_unique<GpuNetwork>(sim, layout, fabric);
    net->SetObserver(&finishes);
  }
  void Start(FlowId id, GpuId src, GpuId dst, uint64_t bytes) {
    TransferRequest r;
    r.id = id;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    net->StartTransfer(r);
  }
  Topology topology;
  ClusterLayout layout;
  Simulator sim{1};
  FakeFabric fabric{sim};
  std::unique_ptr<GpuNetwork> net;
  Finishes finishes;
};

TEST(GpuNetwork, InsideAServerATransferRunsAtNvlinkSpeed) {
  // 450 MB over 450 GB/s: 1 ms, plus 25 ns.
  TwoServers c;
  c.Start(1, 0, 5, 450'000'000);
  c.sim.Run();
  EXPECT_EQ(c.finishes.at.at(1), Time::FromMs(1) + Time::FromNs(25));
  EXPECT_TRUE(c.fabric.requests.empty());
}

TEST(GpuNetwork, TransfersLeavingOneGpuShareItsNvlinkPort) {
  // GPU 0 sends 450 MB to GPUs 1 and 2 at once: 225 GB/s each, 2 ms; GPU 3
  // -> 4 meanwhile is untouched (the NVSwitch does not block): 1 ms.
  TwoServers c;
  c.Start(1, 0, 1, 450'000'000);
  c.Start(2, 0, 2, 450'000'000);
  c.Start(3, 3, 4, 450'000'000);
  c.sim.Run();
  const Time latency = Time::FromNs(25);
  EXPECT_EQ(c.finishes.at.at(1), Time::FromMs(2) + latency);
  EXPECT_EQ(c.finishes.at.at(2), Time::FromMs(2) + latency);
  EXPECT_EQ(c.finishes.at.at(3), Time::FromMs(1) + latency);
  EXPECT_NEAR(c.net->nvlink_bytes_sent(0), 900e6, 1);
}

TEST(GpuNetwork, ASwitchTransferCrossesOnlyTheGpusPort) {
  // NVLS: GPUs 0 and 1 both send 450 MB to server 0's NVSwitch (endpoint
  // 16) at once: each on its own port, 1 ms; the switch then sends 450 MB
  // to GPU 2 (its port in), 1 ms more.
  TwoServers c;
  const GpuId nvswitch = c.net->nvswitch(0);
  EXPECT_EQ(nvswitch, 16);
  c.Start(1, 0, nvswitch, 450'000'000);
  c.Start(2, 1, nvswitch, 450'000'000);
  c.sim.Run();
  c.Start(3, nvswitch, 2, 450'000'000);
  c.sim.Run();
  const Time latency = Time::FromNs(25);
  EXPECT_EQ(c.finishes.at.at(1), Time::FromMs(1) + latency);
  EXPECT_EQ(c.finishes.at.at(2), Time::FromMs(1) + latency);
  EXPECT_EQ(c.finishes.at.at(3), Time::FromMs(2) + latency + latency);
}

TEST(GpuNetwork, BetweenServersATransferGoesNicToNicOverTheFabric) {
  // GPU 3 (server 0, rail 3) -> GPU 11 (server 1, rail 3): host 3 -> host
  // 11; 50 MB at 50 GB/s + 2 us = 1.002 ms. Ids are the caller's again.
  TwoServers c;
  c.Start(42, 3, 11, 50'000'000);
  c.sim.Run();
  ASSERT_EQ(c.fabric.requests.size(), 1u);
  EXPECT_EQ(c.fabric.requests[0].src, 3);
  EXPECT_EQ(c.fabric.requests[0].dst, 11);
  EXPECT_EQ(c.finishes.at.at(42), Time::FromUs(1002));
}

TEST(GpuNetwork, AGpusTransfersBetweenServersTakeItsNicsInTurn) {
  // 2 servers of 8 GPUs with 16 NICs each (GPU i: hosts 2i, 2i + 1 of its
  // server). GPU 3 sends three transfers to GPU 11 with ids 2, 4 and 6
  // (one stride, as a step DAG's ids for one GPU can be): they leave by
  // host 6, 7, 6 and enter by the receiver's NIC of the same index, 22, 23,
  // 22. By id parity all three would take host 6.
  Topology topology;
  for (int s = 0; s < 2; ++s) {
    for (int r = 0; r < 16; ++r) {
      std::string name = "h";
      name += std::to_string(topology.num_nodes());
      topology.AddHost(std::move(name), s, r);
    }
  }
  const ClusterLayout layout = ClusterLayout::Build(topology, ServerSpec{}).value();
  Simulator sim{1};
  FakeFabric fabric{sim};
  GpuNetwork net(sim, layout, fabric);
  Finishes finishes;
  net.SetObserver(&finishes);
  for (FlowId id : {2, 4, 6}) {
    TransferRequest r;
    r.id = id;
    r.src = 3;
    r.dst = 11;
    r.bytes = 1000;
    net.StartTransfer(r);
  }
  sim.Run();
  ASSERT_EQ(fabric.requests.size(), 3u);
  EXPECT_EQ(fabric.requests[0].src, 6);
  EXPECT_EQ(fabric.requests[1].src, 7);
  EXPECT_EQ(fabric.requests[2].src, 6);
  EXPECT_EQ(fabric.requests[0].dst, 22);
  EXPECT_EQ(fabric.requests[1].dst, 23);
  EXPECT_EQ(fabric.requests[2].dst, 22);
  EXPECT_EQ(finishes.at.size(), 3u);
}

TEST(GpuNetwork, ACoflowEdgeBetweenServersIsCutOverEveryNicOfTheGpu) {
  // 2 servers of 8 GPUs with 16 NICs each: GPU i has hosts 2i and 2i + 1
  // of its server (nic_count 2), as Oracle's BM.GPU4.8. One coflow edge
  // GPU 3 -> GPU 11 of 1,000,001 bytes, latency weight 1, stands for all
  // its channels; NCCL spreads a GPU's channels over its NICs, so the
  // fabric gets two edges, host 6 -> 22 with 500,001 bytes and host 7 -> 23
  // with 500,000, weight 1/2 each (the path latency counts once in all).
  // Its NVLink edge (GPU 3 -> 4) stays off the fabric.
  Topology topology;
  for (int s = 0; s < 2; ++s) {
    for (int r = 0; r < 16; ++r) {
      std::string name = "h";
      name += std::to_string(topology.num_nodes());
      topology.AddHost(std::move(name), s, r);
    }
  }
  const ClusterLayout layout = ClusterLayout::Build(topology, ServerSpec{}).value();
  ASSERT_EQ(layout.nic_count(3), 2);
  Simulator sim{1};
  CoflowFabric fabric{sim};
  GpuNetwork net(sim, layout, fabric);
  Finishes finishes;
  net.SetObserver(&finishes);
  CoflowRequest r;
  r.id = 5;
  r.edges.push_back(CoflowEdge{3, 4, 2'000'000, 0, 1.0});
  r.edges.push_back(CoflowEdge{3, 11, 1'000'001, 0, 1.0});
  ASSERT_TRUE(net.StartCoflow(r).ok());
  sim.Run();
  ASSERT_EQ(fabric.coflows.size(), 1u);
  const std::vector<CoflowEdge>& edges = fabric.coflows[0].edges;
  ASSERT_EQ(edges.size(), 2u);
  EXPECT_EQ(edges[0].src, 6);
  EXPECT_EQ(edges[0].dst, 22);
  EXPECT_EQ(edges[0].bytes, 500'001u);
  EXPECT_EQ(edges[1].src, 7);
  EXPECT_EQ(edges[1].dst, 23);
  EXPECT_EQ(edges[1].bytes, 500'000u);
  EXPECT_DOUBLE_EQ(edges[0].latency_weight, 0.5);
  EXPECT_DOUBLE_EQ(edges[1].latency_weight, 0.5);
  EXPECT_TRUE(finishes.at.contains(5));
}

}  // namespace
}  // namespace aifabric
