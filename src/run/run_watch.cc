#include "run/run_watch.h"

#include <algorithm>
#include <cmath>

namespace aifabric {

RunWatch::RunWatch(Simulator& sim, const RunHooks& hooks, ProgressOptions options)
    : sim_(sim), hooks_(hooks), options_(options), start_sim_(sim.Now()) {
  // The reporter takes the heartbeat when it is made; when this watch needs
  // it too, it takes it over and hands each beat on.
  if (hooks.progress) reporter_ = std::make_unique<ProgressReporter>(sim, std::move(options));
  watching_ = hooks.cancel != nullptr || static_cast<bool>(hooks.on_progress);
  if (watching_) sim_.SetHeartbeat(options_.every_events, this);
}

RunWatch::~RunWatch() {
  if (watching_) sim_.SetHeartbeat(0, nullptr);
}

void RunWatch::OnEvent(uint64_t events_processed) {
  if (reporter_) reporter_->OnEvent(events_processed);
  if (hooks_.cancel != nullptr && hooks_.cancel->load(std::memory_order_relaxed)) {
    sim_.Stop();
    return;
  }
  if (!hooks_.on_progress) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_progress_ < hooks_.publish_every) return;
  last_progress_ = now;
  hooks_.on_progress(RunProgress{Fraction(), sim_.Now(), events_processed});
}

void RunWatch::Finish() {
  if (reporter_) reporter_->Finish();
  if (watching_) {
    sim_.SetHeartbeat(0, nullptr);
    watching_ = false;
  }
}

double RunWatch::Fraction() const {
  double f;
  if (options_.fraction) {
    f = options_.fraction();
    if (std::isnan(f)) return -1;
  } else if (!options_.until.IsInfinite() && options_.until > start_sim_) {
    f = static_cast<double>((sim_.Now() - start_sim_).ps()) / static_cast<double>((options_.until - start_sim_).ps());
  } else {
    return -1;
  }
  return std::clamp(f, 0.0, 1.0);
}

}  // namespace aifabric
