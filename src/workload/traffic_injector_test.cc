#include "workload/traffic_injector.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

// Records each StartTransfer with the simulated time it was called at and
// how many events were pending then.
class RecordingModel final : public NetworkModel {
 public:
  explicit RecordingModel(Simulator& sim) : sim_(sim) {}
  struct Call {
    Time at;
    TransferRequest request;
    size_t pending;
  };
  void StartTransfer(const TransferRequest& request) override {
    calls.push_back({sim_.Now(), request, sim_.pending_events()});
  }
  void SetObserver(TransferObserver*) override {}
  const char* name() const override { return "recording"; }

  std::vector<Call> calls;

 private:
  Simulator& sim_;
};

FlowSpec Flow(FlowId id, Time start) {
  FlowSpec f;
  f.id = id;
  f.src = 0;
  f.dst = 1;
  f.bytes = 1000 + static_cast<uint64_t>(id);
  f.start = start;
  f.priority = 5;
  f.dport = 1234;
  return f;
}

TEST(TrafficInjectorTest, StartsEachFlowAtItsStartTimeWithOnePendingEvent) {
  Simulator sim(1);
  RecordingModel model(sim);
  const std::vector<Time> starts = {Time::Zero(), Time::FromPs(83560), Time::FromPs(83560),
                                    Time::FromUs(1), Time::FromSeconds(2.5)};
  std::vector<FlowSpec> flows;
  for (size_t i = 0; i < starts.size(); ++i) flows.push_back(Flow(40 + i, starts[i]));
  TrafficInjector injector(sim, model, flows);
  injector.Start();
  EXPECT_EQ(sim.pending_events(), 1u);
  sim.Run();
  ASSERT_EQ(model.calls.size(), starts.size());
  EXPECT_EQ(injector.flows_started(), starts.size());
  for (size_t i = 0; i < starts.size(); ++i) {
    const RecordingModel::Call& c = model.calls[i];
    EXPECT_EQ(c.at, starts[i]) << i;
    // The injector's own event was popped and the next not yet scheduled.
    EXPECT_EQ(c.pending, 0u) << i;
    EXPECT_EQ(c.request.id, 40 + static_cast<FlowId>(i));
    EXPECT_EQ(c.request.src, 0);
    EXPECT_EQ(c.request.dst, 1);
    EXPECT_EQ(c.request.bytes, 1040u + i);
    EXPECT_EQ(c.request.priority, 5);
    EXPECT_EQ(c.request.dport, 1234);
    EXPECT_EQ(c.request.sport, TrafficInjector::SourcePort(c.request.id));
  }
  // 5 flows at 4 distinct times: 4 events.
  EXPECT_EQ(sim.events_processed(), 4u);
  EXPECT_EQ(sim.pending_events(), 0u);
}

TEST(TrafficInjectorTest, StopsAtTheRunHorizonAndResumes) {
  Simulator sim(1);
  RecordingModel model(sim);
  TrafficInjector injector(sim, model,
                           {Flow(0, Time::FromNs(1)), Flow(1, Time::FromNs(5)),
                            Flow(2, Time::FromNs(9))});
  injector.Start();
  sim.Run(Time::FromNs(5));
  EXPECT_EQ(injector.flows_started(), 2u);
  EXPECT_EQ(sim.pending_events(), 1u);
  sim.Run();
  EXPECT_EQ(injector.flows_started(), 3u);
  EXPECT_EQ(model.calls.back().at, Time::FromNs(9));
}

TEST(TrafficInjectorTest, EmptyWorkloadSchedulesNothing) {
  Simulator sim(1);
  RecordingModel model(sim);
  TrafficInjector injector(sim, model, {});
  injector.Start();
  EXPECT_EQ(sim.pending_events(), 0u);
  EXPECT_EQ(injector.flows_total(), 0u);
}

// sport = 10000 + id mod 50000: in [10000, 60000), differs for neighbours.
TEST(TrafficInjectorTest, SourcePortIsDerivedFromTheFlowId) {
  EXPECT_EQ(TrafficInjector::SourcePort(0), 10000);
  EXPECT_EQ(TrafficInjector::SourcePort(1), 10001);
  EXPECT_EQ(TrafficInjector::SourcePort(49999), 59999);
  EXPECT_EQ(TrafficInjector::SourcePort(50000), 10000);
  EXPECT_EQ(TrafficInjector::SourcePort(-1), 59999);
}

}  // namespace
}  // namespace aifabric
