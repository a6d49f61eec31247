#include "telemetry/progress_reporter.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace aifabric {
namespace {

struct Noop final : EventHandler {
  void OnEvent(uint64_t) override {}
};

// Queues `count` events at `at`; the last one runs `last` (which moves the
// fake wall clock, the work done...), so the heartbeat after it sees that.
void Batch(Simulator& sim, Time at, uint64_t count, std::function<void()> last) {
  static Noop noop;
  for (uint64_t i = 1; i < count; ++i) sim.Schedule(at, &noop);
  sim.ScheduleCallback(at, std::move(last));
}

// A reporter on a string sink with a fake wall clock starting at 0 s and a
// heartbeat after every event.
struct Fixture {
  Simulator sim{1};
  double wall_s = 0;
  std::string out;
  ProgressOptions Options(bool tty) {
    ProgressOptions o;
    o.every_events = 1;
    o.wall_clock_s = [this] { return wall_s; };
    o.sink = &out;
    o.is_tty = tty;
    return o;
  }
  std::function<void()> WallTo(double s) {
    return [this, s] { wall_s = s; };
  }
};

TEST(ProgressReporter, TerminalRedrawsOneLineThrottledAndFinishClearsIt) {
  // Horizon 1 ms: the fraction is sim time / 1 ms.
  //  - 400 events to sim 250 us at 10 s: 25%, 400 / 10 s = 40 events/s,
  //    ETA 10 s * 0.75 / 0.25 = 30 s; the bar has 25% of 20 = 5 cells.
  //  - 9 single events at 10.01 .. 10.09 s: within 0.1 s, no redraw.
  //  - 2000 events to 500 us at 12 s: (9 + 2000) / 2 s = 1004.5/s,
  //    ETA 12 * 0.5 / 0.5 = 12 s.
  //  - 1 event to 750 us at 22 s: 0.1/s prints as 0, ETA 22 / 3 = 7.33 s;
  //    5 characters shorter than the last line, so 5 spaces blank its end.
  //  - Finish: the last line is 63 characters; 63 spaces wipe it.
  Fixture f;
  ProgressOptions options = f.Options(/*tty=*/true);
  options.until = Time::FromMs(1);
  ProgressReporter reporter(f.sim, std::move(options));
  Batch(f.sim, Time::FromUs(250), 400, f.WallTo(10));
  for (int k = 1; k <= 9; ++k) Batch(f.sim, Time::FromUs(250 + k), 1, f.WallTo(10 + k * 0.01));
  Batch(f.sim, Time::FromUs(500), 2000, f.WallTo(12));
  Batch(f.sim, Time::FromUs(750), 1, f.WallTo(22));
  f.sim.Run();
  const std::string drawn =
      "\r[#####---------------]  25% sim 250.000 us, 40 events/s, ETA 30 s"
      "\r[##########----------]  50% sim 500.000 us, 1.0 k events/s, ETA 12 s"
      "\r[###############-----]  75% sim 750.000 us, 0 events/s, ETA 7 s     ";
  EXPECT_EQ(f.out, drawn);
  reporter.Finish();
  EXPECT_EQ(f.out, drawn + "\r" + std::string(63, ' ') + "\r");
  reporter.Finish();  // idempotent
  EXPECT_EQ(f.out, drawn + "\r" + std::string(63, ' ') + "\r");
}

TEST(ProgressReporter, PlainLineEveryFiveSecondsWithFractionAndEta) {
  // Work fraction from a callback (e.g. transfers done / total).
  //  - 1000 events at 4 s: under 5 s, no line.
  //  - 1 event at 6 s, 25% done: 1001 / 6 s = 166.8/s, ETA 6 * 0.75 / 0.25
  //    = 18 s.
  //  - 4 events at 7, 8, 9, 10.5 s: under 5 s since 6 s, no line.
  //  - 10000 events at 11 s, 50%: 10004 / 5 s = 2000.8/s, ETA 11 s.
  //  - Finish at 20 s: 11005 events / 20 s = 550.25/s.
  Fixture f;
  double done = 0;
  ProgressOptions options = f.Options(/*tty=*/false);
  options.fraction = [&done] { return done; };
  ProgressReporter reporter(f.sim, std::move(options));
  Batch(f.sim, Time::FromUs(10), 1000, f.WallTo(4));
  Batch(f.sim, Time::FromUs(20), 1, [&] { f.wall_s = 6, done = 0.25; });
  for (double w : {7.0, 8.0, 9.0, 10.5}) Batch(f.sim, Time::FromUs(30), 1, f.WallTo(w));
  Batch(f.sim, Time::FromNs(1500000), 10000, [&] { f.wall_s = 11, done = 0.5; });
  f.sim.Run();
  const std::string lines =
      "progress: sim 20.000 us (25%), 167 events/s, ETA 18 s\n"
      "progress: sim 1.500 ms (50%), 2.0 k events/s, ETA 11 s\n";
  EXPECT_EQ(f.out, lines);
  f.wall_s = 20;
  reporter.Finish();
  EXPECT_EQ(f.out, lines + "progress: done, sim 1.500 ms, 11.0 k events in 20 s (550 events/s)\n");
}

TEST(ProgressReporter, NoFractionMeansNoPercentNoBarNoEta) {
  // Neither a fraction nor a horizon. 200000 events in 0.125 s = 1.6 M/s.
  Fixture tty;
  ProgressReporter on_tty(tty.sim, tty.Options(true));
  Batch(tty.sim, Time::FromUs(2), 200000, tty.WallTo(0.125));
  tty.sim.Run();
  EXPECT_EQ(tty.out, "\rsim 2.000 us, 1.6 M events/s");

  // 500 events in 5 s = 100/s.
  Fixture plain;
  ProgressReporter on_plain(plain.sim, plain.Options(false));
  Batch(plain.sim, Time::FromNs(2), 500, plain.WallTo(5));
  plain.sim.Run();
  EXPECT_EQ(plain.out, "progress: sim 2.000 ns, 100 events/s\n");
}

TEST(ProgressReporter, LongEtasInMinutesAndHoursAndFractionsClamped) {
  // Plain lines at 125 s (50%: ETA 125 s = 2 min 05 s), 250 s (1%: ETA
  // 250 * 99 = 24750 s = 6 h 52 min 30 s, shown 6 h 52 min) and 500 s (a
  // fraction over 1 shows 100%, ETA 0 s). Sim times of 1 s and more in s.
  Fixture f;
  double done = 0;
  ProgressOptions options = f.Options(false);
  options.fraction = [&done] { return done; };
  ProgressReporter reporter(f.sim, std::move(options));
  Batch(f.sim, Time::FromMs(1000), 125, [&] { f.wall_s = 125, done = 0.5; });
  Batch(f.sim, Time::FromMs(2500), 125, [&] { f.wall_s = 250, done = 0.01; });
  Batch(f.sim, Time::FromMs(3000), 250, [&] { f.wall_s = 500, done = 1.5; });
  f.sim.Run();
  EXPECT_EQ(f.out,
            "progress: sim 1.000 s (50%), 1 events/s, ETA 2 min 05 s\n"
            "progress: sim 2.500 s (1%), 1 events/s, ETA 6 h 52 min\n"
            "progress: sim 3.000 s (100%), 1 events/s, ETA 0 s\n");
}

TEST(ProgressReporter, ShortRunPrintsNothing) {
  // Under one interval (0.1 s on a terminal, 5 s otherwise): no bar to
  // clear, no final line.
  for (bool tty : {true, false}) {
    Fixture f;
    ProgressReporter reporter(f.sim, f.Options(tty));
    Batch(f.sim, Time::FromUs(1), 1000, f.WallTo(tty ? 0.09 : 4.9));
    f.sim.Run();
    reporter.Finish();
    EXPECT_EQ(f.out, "") << "tty " << tty;
  }
}

TEST(ProgressReporter, HeartbeatEveryNEventsReadsTheClockOnlyThen) {
  // every_events = 100 over 1050 events: the clock is read at construction
  // and after events 100, 200, ..., 1000: 11 reads.
  Fixture f;
  int reads = 0;
  ProgressOptions options = f.Options(false);
  options.every_events = 100;
  options.wall_clock_s = [&reads] { return ++reads * 0.0; };
  ProgressReporter reporter(f.sim, std::move(options));
  Batch(f.sim, Time::FromUs(1), 1050, [] {});
  f.sim.Run();
  EXPECT_EQ(reads, 11);
}

TEST(ProgressReporter, DestroyedWithoutFinishClearsTheBarAndFreesTheHeartbeat) {
  Fixture f;
  {
    ProgressReporter reporter(f.sim, f.Options(true));
    Batch(f.sim, Time::FromUs(3), 30, f.WallTo(1));
    f.sim.Run();
  }
  // 30 events / 1 s; the line is 25 characters, cleared by 25 spaces.
  EXPECT_EQ(f.out, "\rsim 3.000 us, 30 events/s\r" + std::string(25, ' ') + "\r");
  // The heartbeat went with the reporter: more events call nothing (a
  // dangling heartbeat would write again or crash).
  const std::string before = f.out;
  Batch(f.sim, Time::FromUs(4), 10, f.WallTo(5));
  f.sim.Run();
  EXPECT_EQ(f.out, before);

  // A plain reporter dropped mid-run (e.g. the run failed) writes no
  // "done" line.
  Fixture g;
  {
    ProgressReporter reporter(g.sim, g.Options(false));
    Batch(g.sim, Time::FromUs(3), 50, g.WallTo(5));
    g.sim.Run();
  }
  EXPECT_EQ(g.out, "progress: sim 3.000 us, 10 events/s\n");
}

}  // namespace
}  // namespace aifabric
