#include "engine/simulator.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

// Records (time, tag) of every event it receives.
struct Recorder final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<std::pair<int64_t, uint64_t>> seen;
  void OnEvent(uint64_t tag) override { seen.emplace_back(sim->Now().ps(), tag); }
};

TEST(Simulator, EventsRunInTimeThenSchedulingOrder) {
  // Scheduled out of order, with three ties at t = 5 ps: time order first,
  // then the order they were scheduled in (tags 1, 3, 4).
  Simulator sim(1);
  Recorder r;
  r.sim = &sim;
  sim.Schedule(Time::FromPs(5), &r, 1);
  sim.Schedule(Time::FromPs(2), &r, 2);
  sim.Schedule(Time::FromPs(5), &r, 3);
  sim.Schedule(Time::FromPs(5), &r, 4);
  sim.Schedule(Time::FromPs(9), &r, 5);
  sim.Run();
  const std::vector<std::pair<int64_t, uint64_t>> expected = {{2, 2}, {5, 1}, {5, 3}, {5, 4}, {9, 5}};
  EXPECT_EQ(r.seen, expected);
  EXPECT_EQ(sim.events_processed(), 5u);
  EXPECT_EQ(sim.Now().ps(), 9);
}

TEST(Simulator, RunStopsAtUntilAndResumes) {
  Simulator sim(1);
  Recorder r;
  r.sim = &sim;
  for (int t = 1; t <= 10; ++t) sim.Schedule(Time::FromNs(t), &r, static_cast<uint64_t>(t));
  sim.Run(Time::FromNs(4));  // events at <= 4 ns run, the rest wait
  EXPECT_EQ(r.seen.size(), 4u);
  EXPECT_EQ(sim.pending_events(), 6u);
  sim.Run();
  EXPECT_EQ(r.seen.size(), 10u);
}

TEST(Simulator, EventsMayBeScheduledBeforeTheNextOneBetweenRuns) {
  // Run(until) stops before an event at 55 ns; scheduling one at 2 ns and
  // one at 10 ns afterwards must still run them first, in time order.
  Simulator sim(1);
  Recorder r;
  r.sim = &sim;
  sim.Schedule(Time::FromNs(55), &r, 55);
  sim.Run(Time::FromNs(1));
  sim.Schedule(Time::FromNs(10), &r, 10);
  sim.Schedule(Time::FromNs(2), &r, 2);
  sim.Run();
  const std::vector<std::pair<int64_t, uint64_t>> expected = {{2000, 2}, {10000, 10}, {55000, 55}};
  EXPECT_EQ(r.seen, expected);
}

TEST(Simulator, CallbacksRunAndReuseSlots) {
  Simulator sim(1);
  std::vector<int64_t> at;
  // A callback that schedules the next one 10 ps later, 100 times.
  std::function<void()> tick = [&] {
    at.push_back(sim.Now().ps());
    if (at.size() < 100) sim.ScheduleCallback(sim.Now() + Time::FromPs(10), tick);
  };
  sim.ScheduleCallback(Time::Zero(), tick);
  sim.Run();
  ASSERT_EQ(at.size(), 100u);
  EXPECT_EQ(at.back(), 990);
}

TEST(Simulator, StopEndsTheRunAfterTheCurrentEvent) {
  Simulator sim(1);
  int ran = 0;
  for (int i = 0; i < 5; ++i) {
    sim.ScheduleCallback(Time::FromPs(i), [&] {
      if (++ran == 2) sim.Stop();
    });
  }
  sim.Run();
  EXPECT_EQ(ran, 2);
  EXPECT_TRUE(sim.stopped());
}

// A background ticker: records its time and reschedules itself every 10 ns.
struct Ticker final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<int64_t> seen_ns;
  void OnEvent(uint64_t) override {
    seen_ns.push_back(sim->Now().ns());
    sim->ScheduleBackground(sim->Now() + Time::FromNs(10), this);
  }
};

TEST(Simulator, BackgroundEventsDoNotKeepARunGoing) {
  // Ticks at 10, 20 ns run (work at 25 ns is still queued); the tick at
  // 30 ns does not: only it is left after 25 ns, so Run ends at 25 ns.
  // Work added at 50 ns resumes the ticks at 30 and 40 ns; the tick at
  // 50 ns was scheduled (at 40 ns) after that work, so it comes after it
  // and is left queued.
  Simulator sim(1);
  Ticker ticker;
  ticker.sim = &sim;
  Recorder r;
  r.sim = &sim;
  sim.ScheduleBackground(Time::FromNs(10), &ticker);
  sim.Schedule(Time::FromNs(25), &r, 25);
  EXPECT_EQ(sim.pending_events(), 1u);
  EXPECT_EQ(sim.background_events(), 1u);
  sim.Run();
  EXPECT_EQ(ticker.seen_ns, (std::vector<int64_t>{10, 20}));
  EXPECT_EQ(sim.Now(), Time::FromNs(25));
  EXPECT_EQ(sim.pending_events(), 0u);
  EXPECT_EQ(sim.background_events(), 1u);
  sim.Schedule(Time::FromNs(50), &r, 50);
  sim.Run();
  EXPECT_EQ(ticker.seen_ns, (std::vector<int64_t>{10, 20, 30, 40}));
  EXPECT_EQ(r.seen.size(), 2u);
  EXPECT_EQ(sim.Now(), Time::FromNs(50));
  EXPECT_EQ(sim.background_events(), 1u);
}

}  // namespace
}  // namespace aifabric
