// Percent writes a fraction as a percentage to one decimal, the way the
// plan's texts quote GPU utilization and thresholds: 0.8123 -> "81.2%".
// Header-only; stateless.
#pragma once

#include <cstdio>
#include <string>

namespace aifabric {

inline std::string Percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * fraction);
  return buf;
}

}  // namespace aifabric
