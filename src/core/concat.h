// Concat builds a string by appending its parts in order, each a
// std::string, string_view, C string or char: one growing string instead
// of a chain of temporaries, and no false GCC 12 warning on
// "literal" + std::string. Header-only; stateless.
#pragma once

#include <string>

namespace aifabric {

template <typename... Parts>
std::string Concat(const Parts&... parts) {
  std::string s;
  (s += ... += parts);
  return s;
}

}  // namespace aifabric
