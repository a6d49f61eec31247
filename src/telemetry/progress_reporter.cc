#include "telemetry/progress_reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cmath>
#include <utility>

namespace aifabric {
namespace {

constexpr int kBarCells = 20;

std::string Printf(const char* format, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

// "1.234 ms": three decimals in the largest unit that keeps the value >= 1.
std::string FormatSimTime(Time t) {
  const double ps = static_cast<double>(t.ps());
  if (ps < 1e6) return Printf("%.3f ns", ps / 1e3);
  if (ps < 1e9) return Printf("%.3f us", ps / 1e6);
  if (ps < 1e12) return Printf("%.3f ms", ps / 1e9);
  return Printf("%.3f s", ps / 1e12);
}

// "3.2 M", "45.0 k", "512".
std::string FormatCount(double n) {
  if (n >= 1e6) return Printf("%.1f M", n / 1e6);
  if (n >= 1e3) return Printf("%.1f k", n / 1e3);
  return Printf("%.0f", n);
}

// Whole seconds: "30 s", "2 min 05 s", "1 h 02 min".
std::string FormatDuration(double seconds) {
  const long long s = std::llround(std::max(seconds, 0.0));
  char buf[64];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%lld s", s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%lld min %02lld s", s / 60, s % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%lld h %02lld min", s / 3600, s % 3600 / 60);
  }
  return buf;
}

// Rounded down (a run shows 100% only when it is done); the epsilon keeps
// 0.29 * 100 = 28.999... at 29.
int WholePercent(double fraction) {
  return static_cast<int>(std::floor(fraction * 100 + 1e-9));
}

}  // namespace

ProgressReporter::ProgressReporter(Simulator& sim, ProgressOptions options)
    : sim_(sim),
      options_(std::move(options)),
      tty_(options_.is_tty.value_or(options_.sink == nullptr && isatty(fileno(options_.out)) != 0)),
      start_wall_s_(WallNow()),
      start_sim_(sim.Now()),
      start_events_(sim.events_processed()),
      last_wall_s_(start_wall_s_),
      last_events_(start_events_) {
  assert(options_.every_events > 0);
  assert(options_.tty_interval_s > 0 && options_.plain_interval_s > 0);
  assert(options_.sink != nullptr || options_.out != nullptr);
  sim_.SetHeartbeat(options_.every_events, this);
}

ProgressReporter::~ProgressReporter() {
  if (finished_) return;
  sim_.SetHeartbeat(0, nullptr);
  if (tty_) ClearBar();
}

void ProgressReporter::OnEvent(uint64_t events_processed) {
  const double wall_s = WallNow();
  const double interval_s = tty_ ? options_.tty_interval_s : options_.plain_interval_s;
  if (wall_s - last_wall_s_ < interval_s) return;
  Draw(wall_s, events_processed);
}

void ProgressReporter::Finish() {
  if (finished_) return;
  finished_ = true;
  sim_.SetHeartbeat(0, nullptr);
  if (tty_) {
    ClearBar();
    return;
  }
  if (lines_written_ == 0) return;
  const double wall_s = WallNow() - start_wall_s_;
  const double events = static_cast<double>(sim_.events_processed() - start_events_);
  const double rate = wall_s > 0 ? events / wall_s : 0;
  std::string line = "progress: done, sim ";
  line += FormatSimTime(sim_.Now());
  line += ", " + FormatCount(events) + " events in " + FormatDuration(wall_s);
  line += " (" + FormatCount(rate) + " events/s)\n";
  Write(line);
}

double ProgressReporter::WallNow() const {
  if (options_.wall_clock_s) return options_.wall_clock_s();
  using Seconds = std::chrono::duration<double>;
  return std::chrono::duration_cast<Seconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void ProgressReporter::Write(const std::string& text) {
  if (options_.sink != nullptr) {
    options_.sink->append(text);
    return;
  }
  std::fwrite(text.data(), 1, text.size(), options_.out);
  std::fflush(options_.out);
}

double ProgressReporter::Fraction() const {
  double f;
  if (options_.fraction) {
    f = options_.fraction();
    if (std::isnan(f)) return -1;
  } else if (!options_.until.IsInfinite() && options_.until > start_sim_) {
    f = static_cast<double>((sim_.Now() - start_sim_).ps()) /
        static_cast<double>((options_.until - start_sim_).ps());
  } else {
    return -1;
  }
  return std::clamp(f, 0.0, 1.0);
}

void ProgressReporter::Draw(double wall_s, uint64_t events) {
  const double rate = static_cast<double>(events - last_events_) / (wall_s - last_wall_s_);
  const double f = Fraction();
  // ETA: the wall time so far scaled by the work left per work done.
  // (Strings are built by appending: GCC 12 warns falsely, -Wrestrict, on
  // "literal" + std::string.)
  std::string figures = FormatSimTime(sim_.Now());
  if (!tty_ && f >= 0) figures += Printf(" (%.0f%%)", WholePercent(f));
  figures += ", ";
  figures += FormatCount(rate);
  figures += " events/s";
  if (f > 0) figures += ", ETA " + FormatDuration((wall_s - start_wall_s_) * (1 - f) / f);
  std::string line;
  if (tty_) {
    line = "\r";
    if (f >= 0) {
      const int filled = static_cast<int>(std::floor(f * kBarCells + 1e-9));
      line += '[';
      line.append(filled, '#').append(kBarCells - filled, '-');
      line += "] " + Printf("%3.0f%% ", WholePercent(f));
    }
    line += "sim ";
    line += figures;
    const size_t width = line.size() - 1;
    if (width < bar_width_) line.append(bar_width_ - width, ' ');
    bar_width_ = width;
  } else {
    line = "progress: sim ";
    line += figures;
    line += '\n';
  }
  Write(line);
  last_wall_s_ = wall_s;
  last_events_ = events;
  ++lines_written_;
}

void ProgressReporter::ClearBar() {
  if (bar_width_ == 0) return;
  std::string blank = "\r";
  blank.append(bar_width_, ' ');
  blank += '\r';
  Write(blank);
  bar_width_ = 0;
}

}  // namespace aifabric
