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

// Records events_processed() (and the tag it was given) at every heartbeat.
struct HeartbeatRecorder final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<uint64_t> tags;
  std::vector<uint64_t> processed;
  void OnEvent(uint64_t tag) override {
    tags.push_back(tag);
    processed.push_back(sim->events_processed());
  }
};

TEST(Simulator, HeartbeatFiresAfterEveryNthEvent) {
  // 3 events run first without a heartbeat; set at 3 with every 4, it fires
  // after events 7, 11, 15, 19 of 22 in all (not after 22: 23 is next).
  Simulator sim(1);
  Recorder r;
  r.sim = &sim;
  HeartbeatRecorder hb;
  hb.sim = &sim;
  for (int t = 1; t <= 3; ++t) sim.Schedule(Time::FromPs(t), &r, 0);
  sim.Run();
  sim.SetHeartbeat(4, &hb);
  for (int t = 10; t < 29; ++t) sim.Schedule(Time::FromPs(t), &r, 0);
  sim.Run();
  EXPECT_EQ(sim.events_processed(), 22u);
  EXPECT_EQ(hb.tags, (std::vector<uint64_t>{7, 11, 15, 19}));
  EXPECT_EQ(hb.processed, hb.tags);
}

TEST(Simulator, HeartbeatCountsBackgroundEventsAndSurvivesRuns) {
  // Every processed event counts, background ones too: ticks at 10, 20 ns
  // and work at 5, 15, 25 ns are 5 events; every 2 fires after 2 and 4.
  // A second Run continues the count: the tick at 30 and work at 35 ns are
  // events 6 and 7 (the tick at 40 ns stays queued); it fires after 6.
  Simulator sim(1);
  Ticker ticker;
  ticker.sim = &sim;
  Recorder r;
  r.sim = &sim;
  HeartbeatRecorder hb;
  hb.sim = &sim;
  sim.SetHeartbeat(2, &hb);
  sim.ScheduleBackground(Time::FromNs(10), &ticker);
  for (int t : {5, 15, 25}) sim.Schedule(Time::FromNs(t), &r, 0);
  sim.Run();
  EXPECT_EQ(sim.events_processed(), 5u);
  EXPECT_EQ(hb.tags, (std::vector<uint64_t>{2, 4}));
  sim.Schedule(Time::FromNs(35), &r, 0);
  sim.Run();
  EXPECT_EQ(sim.events_processed(), 7u);
  EXPECT_EQ(hb.tags, (std::vector<uint64_t>{2, 4, 6}));
}

// A heartbeat that removes itself at its second beat.
struct OneShotTwice final : EventHandler {
  Simulator* sim = nullptr;
  std::vector<uint64_t> tags;
  void OnEvent(uint64_t tag) override {
    tags.push_back(tag);
    if (tags.size() == 2) sim->SetHeartbeat(0, nullptr);
  }
};

TEST(Simulator, HeartbeatUnsetOrRemovedNeverFires) {
  Simulator sim(1);
  Recorder r;
  r.sim = &sim;
  OneShotTwice hb;
  hb.sim = &sim;
  // Unset: 100 events, no beat (and the event order is untouched).
  for (int t = 0; t < 100; ++t) sim.Schedule(Time::FromPs(t), &r, static_cast<uint64_t>(t));
  sim.Run();
  EXPECT_TRUE(hb.tags.empty());
  ASSERT_EQ(r.seen.size(), 100u);
  EXPECT_EQ(r.seen[99], (std::pair<int64_t, uint64_t>{99, 99}));
  // Removed from inside its own call at the second beat (after events 110
  // and 120); nothing after, over 30 more events. every 0 also removes.
  sim.SetHeartbeat(10, &hb);
  for (int t = 100; t < 150; ++t) sim.Schedule(Time::FromPs(t), &r, 0);
  sim.Run();
  EXPECT_EQ(hb.tags, (std::vector<uint64_t>{110, 120}));
  sim.SetHeartbeat(1, &hb);
  sim.SetHeartbeat(0, &hb);
  sim.Schedule(Time::FromPs(200), &r, 0);
  sim.Run();
  EXPECT_EQ(hb.tags.size(), 2u);
}

}  // namespace
}  // namespace aifabric
