// Helpers shared by the report tests (test-only; not part of the library).
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace aifabric::report_testing {

// The whole file at `path`; empty if it cannot be read.
inline std::string Contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace aifabric::report_testing
