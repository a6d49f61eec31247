// RunWatch is what rides one simulation's heartbeat for the RunHooks a
// caller attached: the progress display on stderr (hooks.progress: a
// telemetry/progress_reporter.h ProgressReporter, unchanged), the progress
// callback (hooks.on_progress, throttled to hooks.publish_every of wall
// time) and the cancel flag (hooks.cancel: the simulation stops at the
// first heartbeat that reads it set). With none of them it does nothing.
// Made just before Simulator::Run, finished just after; lives on the
// simulation's thread; the Simulator must outlive it. Not thread-safe.
#pragma once

#include <chrono>
#include <memory>

#include "engine/simulator.h"
#include "run/run_hooks.h"
#include "telemetry/progress_reporter.h"

namespace aifabric {

class RunWatch final : public EventHandler {
 public:
  // `options` says how far the run has got (fraction, until) and how often
  // the heartbeat beats; the display uses all of it.
  RunWatch(Simulator& sim, const RunHooks& hooks, ProgressOptions options);
  ~RunWatch();
  RunWatch(const RunWatch&) = delete;
  RunWatch& operator=(const RunWatch&) = delete;

  void OnEvent(uint64_t events_processed) override;
  // The run is over: the display's last line, the heartbeat given back.
  // Idempotent.
  void Finish();
  // The fraction done as `options` defines it (as the display shows it),
  // or negative when unknown.
  double Fraction() const;

 private:
  Simulator& sim_;
  const RunHooks& hooks_;
  const ProgressOptions options_;
  const Time start_sim_;
  std::unique_ptr<ProgressReporter> reporter_;
  bool watching_ = false;  // holds the heartbeat itself (cancel or on_progress)
  std::chrono::steady_clock::time_point last_progress_{};
};

}  // namespace aifabric
