// How the planner's files write numbers: rounded to 9 significant digits,
// so a figure reads the same whatever the last bits of a floating-point
// sum were (the files must be the same bytes for any thread count). Pure
// function; thread-safe.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace aifabric {

inline double RoundForFiles(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return std::strtod(buf, nullptr);
}

}  // namespace aifabric
