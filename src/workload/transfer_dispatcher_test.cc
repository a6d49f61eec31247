// TransferDispatcher: disjoint id blocks, completions routed to the owner of
// the block, and two JobExecutors sharing one network while their
// transfers overlap in time.
#include "workload/transfer_dispatcher.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "workload/alpha_beta_network.h"
#include "workload/job_executor.h"
#include "workload/test_topology.h"

namespace aifabric {
namespace {

using testing::AlphaBetaNetwork;

struct Recorder final : TransferObserver {
  void OnTransferDone(FlowId id, Time finish) override { done.emplace_back(id, finish); }
  std::vector<std::pair<FlowId, Time>> done;
};

TEST(TransferDispatcher, BlocksAreDisjointAndCompletionsReachTheirOwner) {
  TransferDispatcher d(100);
  Recorder a, b;
  const FlowId fa = d.Reserve(10, &a);
  const FlowId fb = d.Reserve(1);
  d.SetOwner(fb, &b);
  const FlowId fa2 = d.Reserve(5, &a);
  EXPECT_EQ(fa, 100);
  EXPECT_EQ(fb, 110);
  EXPECT_EQ(fa2, 111);
  EXPECT_EQ(d.blocks(), 3u);
  d.OnTransferDone(109, Time::FromNs(1));  // last id of a's first block
  d.OnTransferDone(110, Time::FromNs(2));  // b's only id
  d.OnTransferDone(115, Time::FromNs(3));  // last of a's second block
  ASSERT_EQ(a.done.size(), 2u);
  ASSERT_EQ(b.done.size(), 1u);
  EXPECT_EQ(a.done[0].first, 109);
  EXPECT_EQ(a.done[1].first, 115);
  EXPECT_EQ(b.done[0].first, 110);
  EXPECT_EQ(b.done[0].second, Time::FromNs(2));
  d.Release(fb);
  EXPECT_EQ(d.blocks(), 2u);
  // Released ids are never handed out again.
  EXPECT_EQ(d.Reserve(1, &b), 116);
}

TEST(TransferDispatcher, TwoJobExecutorsShareOneNetwork) {
  // Executor A: a 1 MB transfer 0 -> 2 at t = 0 (1 us + 80 us at 100 Gb/s)
  // then a 10 us kernel on 2: done at 91 us. Executor B, started at 40 us
  // while A's transfer is in flight: an all-reduce over {1, 3} (ring, one
  // channel, across servers: 8.4 us of base latency, then 2 steps of
  // alpha + 14 us + (S/2)/B, S = 1 MB) = 8.4 + 2 x 55 us, done at 158.4 us.
  // Each executor hears only of its own transfers.
  Simulator sim(1);
  AlphaBetaNetwork net(sim, Time::FromUs(1), DataRate::Gbps(100));
  TransferDispatcher dispatcher;
  net.SetObserver(&dispatcher);
  const ClusterLayout layout = testing_topology::GpuServers(2, 2);

  JobGraphBuilder ga;
  const JobNodeIndex send = ga.AddTransfer(0, 2, 1'000'000, CommDimension::kPipeline, 0);
  const JobNodeIndex kernel = ga.AddCompute(2, Time::FromUs(10), 0, 0);
  ga.AddEdge(send, kernel);
  const JobGraph graph_a = std::move(ga).Build().value();
  JobGraphBuilder gb;
  gb.AddCollective(CollectiveOp::kAllReduce, gb.AddGroup({1, 3}), 1'000'000, CommDimension::kTensor, 0);
  const JobGraph graph_b = std::move(gb).Build().value();

  constexpr FlowId kBlock = 1 << 20;
  std::unique_ptr<JobExecutor> a, b;
  Time a_done = Time::Infinite(), b_done = Time::Infinite();
  JobExecutorOptions oa;
  oa.first_flow_id = dispatcher.Reserve(kBlock);
  oa.on_done = [&] { a_done = sim.Now(); };
  a = std::make_unique<JobExecutor>(sim, net, layout, graph_a, oa);
  dispatcher.SetOwner(oa.first_flow_id, a.get());
  ASSERT_TRUE(a->Start().ok());
  sim.ScheduleCallback(Time::FromUs(40), [&] {
    JobExecutorOptions ob;
    ob.channels = 1;
    ob.first_flow_id = dispatcher.Reserve(kBlock);
    ob.on_done = [&] { b_done = sim.Now(); };
    b = std::make_unique<JobExecutor>(sim, net, layout, graph_b, ob);
    dispatcher.SetOwner(ob.first_flow_id, b.get());
    ASSERT_TRUE(b->Start().ok());
  });
  sim.Run();
  ASSERT_TRUE(a->done());
  ASSERT_TRUE(b->done());
  EXPECT_EQ(a_done, Time::FromUs(91));
  // GPUs 1 and 3 sit on different servers: NET steps (14 us) after
  // Simple's base latency (8.4 us).
  const Time step = Time::FromUs(1) + Time::FromUs(14) + DataRate::Gbps(100).TransmitTime(500'000);
  EXPECT_EQ(b_done, Time::FromUs(40) + Time::FromNs(8400) + step * 2);
  EXPECT_EQ(a->flow_ids_used(), 1);
}

}  // namespace
}  // namespace aifabric
