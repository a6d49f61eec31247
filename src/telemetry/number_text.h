// Numbers appended to a TextSink (core/text_sink.h) with no temporary
// string, each in the shortest text that reads back as the same value: the
// writers of metrics.prom, the time-series CSV and the Chrome trace share
// them. Header-only; stateless.
#pragma once

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <system_error>

#include "core/text_sink.h"

namespace aifabric {

inline void AppendInt(TextSink& out, int64_t v) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  assert(ec == std::errc());
  out.Append(std::string_view(buf, static_cast<size_t>(end - buf)));
}

// An integral value of magnitude up to 2^53 (every such integer is exactly
// a double) as an integer, with no ".0" or exponent and -0 as "0"; any
// other value in the shortest form that reads back the same
// (std::to_chars: "0.1", "1e+300"; NaN and the infinities as "nan",
// "inf", "-inf", so a format with other names for them checks first).
inline void AppendNumber(TextSink& out, double v) {
  constexpr double kLargestExactInteger = 9007199254740992.0;  // 2^53
  if (std::trunc(v) == v && std::fabs(v) <= kLargestExactInteger) {
    AppendInt(out, static_cast<int64_t>(v));
    return;
  }
  char buf[32];  // the shortest round-trip form of a double needs at most 24
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  assert(ec == std::errc());
  out.Append(std::string_view(buf, static_cast<size_t>(end - buf)));
}

}  // namespace aifabric
