// ProgressReporter shows how far a running simulation has got, on stderr:
// on a terminal, one line redrawn in place (`\r`) at most every 0.1 s —
// a bar when the end is known, simulated time, events/s, ETA; otherwise a
// plain line every 5 s of wall time:
//   progress: sim 1.234 ms (12%), 3.2 M events/s, ETA 4 s
// It rides the simulator's heartbeat (Simulator::SetHeartbeat), reading
// the wall clock only there, so the run pays one compare per event. Quiet
// mode is the caller's decision: it simply creates no reporter.
//
// Owned by whoever runs the simulation. It holds the simulator's one
// heartbeat from construction until Finish() or destruction; the Simulator
// (and the sink, if any) must outlive it. Not thread-safe: it lives on the
// simulation's thread.
//
// Wall-clock figures (events/s, ETA) vary from run to run by nature; the
// reporter writes only to the terminal, never to a run's output files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "core/time.h"
#include "engine/simulator.h"

namespace aifabric {

struct ProgressOptions {
  // Where the run ends, if known, for the fraction done and the ETA:
  // `fraction` if set (e.g. transfers completed / total, read only when a
  // line is written; clamped to [0, 1]), else simulated time since the
  // reporter was made over `until` minus that start (a finite Run(until)
  // horizon; a run may end before it). Neither: no fraction, no ETA.
  std::function<double()> fraction;
  Time until = Time::Infinite();

  // Events between heartbeats (wall-clock reads). At 10 M events/s, 1024
  // events is a read every ~0.1 ms; a model with slow events (a flow-level
  // re-solve each) may want fewer. REQUIRES: > 0.
  uint64_t every_events = 1024;
  // Least wall time between redraws on a terminal, and between lines
  // otherwise. REQUIRES: > 0.
  double tty_interval_s = 0.1;
  double plain_interval_s = 5.0;

  // For tests. The wall clock in seconds (empty: std::chrono::steady_clock).
  std::function<double()> wall_clock_s;
  // Output: appended to `sink` if set, else written to `out`.
  std::string* sink = nullptr;
  FILE* out = stderr;
  // Whether the output is a terminal (empty: isatty on `out`; false for a sink).
  std::optional<bool> is_tty;
};

class ProgressReporter final : public EventHandler {
 public:
  // Takes the simulator's heartbeat; the start (wall clock, Now(),
  // events_processed()) is read here, so make it just before Run.
  ProgressReporter(Simulator& sim, ProgressOptions options);
  // Without Finish(): gives the heartbeat back and clears a drawn bar, but
  // writes no final line (the run may have failed).
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  // The heartbeat: writes a line if its interval has passed since the last.
  void OnEvent(uint64_t events_processed) override;

  // The run is over: gives the heartbeat back; on a terminal clears the bar
  // (the caller's summary follows on a clean line); otherwise, if a line
  // was written, writes a last one with the whole run's figures:
  //   progress: done, sim 2.000 ms, 4.0 M events in 10 s (0.4 M events/s)
  // A run shorter than one interval prints nothing. Idempotent.
  void Finish();

 private:
  double WallNow() const;
  void Write(const std::string& text);
  // The fraction done, or a negative number if unknown.
  double Fraction() const;
  void Draw(double wall_s, uint64_t events);
  void ClearBar();

  // Fixed at construction.
  Simulator& sim_;
  const ProgressOptions options_;
  const bool tty_;
  const double start_wall_s_;
  const Time start_sim_;
  const uint64_t start_events_;

  double last_wall_s_;        // of the last line (or the start)
  uint64_t last_events_;      // events_processed() then
  size_t bar_width_ = 0;      // characters of the bar on screen (terminal)
  uint64_t lines_written_ = 0;
  bool finished_ = false;
};

}  // namespace aifabric
