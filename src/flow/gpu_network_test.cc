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

}  // namespace
}  // namespace aifabric
