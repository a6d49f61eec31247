#include "workload/flow_size_cdf.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/text_file.h"

namespace aifabric {
namespace {

// Parses a whole token as a finite double; false on anything else.
bool ParseDouble(std::string_view token, double& out) {
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, out);
  return ec == std::errc() && ptr == end && std::isfinite(out);
}

}  // namespace

FlowSizeCdf::FlowSizeCdf(std::vector<Point> points) : points_(std::move(points)) {
  assert(points_.size() >= 2);
  mean_ = points_.front().bytes * points_.front().percent / 100.0;
  for (size_t i = 1; i < points_.size(); ++i) {
    const Point& a = points_[i - 1];
    const Point& b = points_[i];
    mean_ += (a.bytes + b.bytes) / 2.0 * (b.percent - a.percent) / 100.0;
  }
}

Result<FlowSizeCdf> FlowSizeCdf::Load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open the flow-size CDF file"};
  Result<std::string> text = ReadTextFile(path);
  if (!text) return text.error();
  return Parse(*text, path);
}

Result<FlowSizeCdf> FlowSizeCdf::Parse(std::string_view text, const std::string& origin) {
  std::vector<Point> points;
  int last_line = 0;
  for (const auto& [line_no, line] : SplitLines(text)) {
    std::vector<std::string_view> f = SplitWhitespace(line);
    if (f.empty() || f[0].front() == '#') continue;
    if (f.size() != 2) {
      return Error{FileLine(origin, line_no) + "expected `<size_bytes> <cumulative_percent>`, got " +
                   std::to_string(f.size()) + " fields"};
    }
    Point p;
    // At most 2^53 bytes (8 PiB), where doubles still hold every whole
    // byte and Sample's conversion to uint64_t is defined.
    if (!ParseDouble(f[0], p.bytes) || p.bytes < 0 || p.bytes > 9007199254740992.0) {
      return Error{FileLine(origin, line_no) + "expected a size in bytes in [0, 2^53], got '" +
                   std::string(f[0]) + "'"};
    }
    if (!ParseDouble(f[1], p.percent) || p.percent < 0 || p.percent > 100) {
      return Error{FileLine(origin, line_no) + "expected a cumulative percent in [0, 100], got '" +
                   std::string(f[1]) + "'"};
    }
    if (!points.empty()) {
      if (p.bytes < points.back().bytes) {
        return Error{FileLine(origin, line_no) + "sizes must be non-decreasing (" +
                     std::string(f[0]) + " after a larger size on line " +
                     std::to_string(last_line) + ")"};
      }
      if (p.percent < points.back().percent) {
        return Error{FileLine(origin, line_no) + "cumulative percents must be non-decreasing (" +
                     std::string(f[1]) + " after a larger percent on line " +
                     std::to_string(last_line) + ")"};
      }
    }
    points.push_back(p);
    last_line = line_no;
  }
  if (points.size() < 2) {
    return Error{origin + ": expected at least 2 `<size_bytes> <cumulative_percent>` points, got " +
                 std::to_string(points.size())};
  }
  if (points.back().percent != 100.0) {
    std::ostringstream got;
    got << points.back().percent;
    return Error{FileLine(origin, last_line) + "the last cumulative percent must be 100, got " +
                 got.str()};
  }
  FlowSizeCdf cdf(std::move(points));
  // A mean of 0 (every size 0) would make the expected flow count of a
  // load infinite.
  if (!(cdf.Mean() > 0)) return Error{origin + ": the distribution's mean flow size is 0 bytes; give sizes above 0"};
  return cdf;
}

uint64_t FlowSizeCdf::Sample(Rng& rng) const {
  const double r = rng.Uniform() * 100.0;  // [0, 100)
  // First point whose percent exceeds r; exists because the last is 100 > r.
  auto it = std::upper_bound(points_.begin(), points_.end(), r,
                             [](double v, const Point& p) { return v < p.percent; });
  assert(it != points_.end());
  double x;
  if (it == points_.begin()) {
    x = it->bytes;  // point mass of the first point
  } else {
    const Point& a = *(it - 1);
    const Point& b = *it;
    // a.percent <= r < b.percent, so the division is safe.
    x = a.bytes + (b.bytes - a.bytes) * (r - a.percent) / (b.percent - a.percent);
  }
  const double rounded = std::floor(x + 0.5);
  return rounded < 1.0 ? 1 : static_cast<uint64_t>(rounded);
}

}  // namespace aifabric
