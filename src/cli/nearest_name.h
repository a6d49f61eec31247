// The nearest of a list of names to a mistyped one, for "did you mean"
// hints on unknown subcommands and options. Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace aifabric {

// Edits (insert, delete, substitute, swap two neighbours) that turn `a`
// into `b`: the optimal string alignment distance.
size_t EditDistance(std::string_view a, std::string_view b);

// The name in `names` fewest edits from `word`, if that is at most 2 and
// under half of `word`'s length (so "x" suggests nothing); ties go to the
// earlier name. "" when none is that close.
std::string NearestName(std::string_view word, const std::vector<std::string>& names);

}  // namespace aifabric
