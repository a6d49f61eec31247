// --set overrides: "dotted.path=value" assignments applied to a parsed YAML
// tree before the scenario is read. A path names map keys and list indices
// ("workload.0.permutation.size"); the value is parsed as a YAML scalar or
// flow collection ("9KiB", "[6,7]", "{type: fat_tree}"). Pure functions.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "core/result.h"

namespace aifabric {

// One parsed --set argument.
struct SetOverride {
  std::string text;                // as given: "fabric.mtu=9KiB"
  std::vector<std::string> path;   // {"fabric", "mtu"}
  YAML::Node value;                // the parsed right-hand side
  std::string DottedPath() const;  // "fabric.mtu"
};

// Splits "KEY=VALUE" and parses VALUE as YAML. Errors (no '=', an empty key
// or key segment, VALUE that is not valid YAML) start with "--set <text>:".
Result<SetOverride> ParseSetOverride(const std::string& text);

// Writes `ov.value` at `ov.path` inside `root`, creating missing maps on the
// way (and `root` itself if it is null). Errors: a list index that is not a
// number or is out of range, or a path that descends into a scalar; messages
// start with "--set <text>:".
Status ApplySetOverride(YAML::Node& root, const SetOverride& ov);

}  // namespace aifabric
