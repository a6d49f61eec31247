// FlowSizeCdf is an empirical flow-size distribution read from a CDF file in
// the format of data/traffic/*.txt (HPCC's traffic_gen): one
// `<size_bytes> <cumulative_percent>` pair per line, both columns
// non-decreasing, the last percent exactly 100. Immutable once loaded, so it
// is safe to share between threads; sampling draws from the caller's Rng.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/rng.h"

namespace aifabric {

class FlowSizeCdf {
 public:
  struct Point {
    double bytes = 0;
    double percent = 0;  // cumulative, in [0, 100]
  };

  // Reads and validates the file; errors name `path:line`.
  static Result<FlowSizeCdf> Load(const std::string& path);
  // Parses `text`; errors name `origin:line`. Blank lines and lines starting
  // with '#' are skipped.
  static Result<FlowSizeCdf> Parse(std::string_view text, const std::string& origin);

  // Draws r uniform in [0, 100) and interpolates linearly between the two
  // points that bracket it (the first point whose percent exceeds r and the
  // one before it); rounds to the nearest byte, at least 1. If the first
  // point has a percent above 0, r below it returns that point's size (a
  // point mass, consistent with Mean()).
  uint64_t Sample(Rng& rng) const;

  // The distribution's mean in bytes:
  //   x_first * y_first / 100 + sum over consecutive points of
  //   (x0 + x1) / 2 * (y1 - y0) / 100.
  // For files starting at `0 0` the first term is 0 (the formula of
  // data/README.md). Ignores Sample's rounding to whole bytes.
  double Mean() const { return mean_; }

  const std::vector<Point>& points() const { return points_; }

 private:
  explicit FlowSizeCdf(std::vector<Point> points);

  std::vector<Point> points_;
  double mean_ = 0;
};

}  // namespace aifabric
