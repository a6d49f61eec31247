// The one way a YAML text becomes a tree: yaml-cpp's parse, with a syntax
// error recorded in Diagnostics at its line and column as
// "<origin>:<line>:<col>: invalid YAML: <what>" (scenario/yaml_reader.h).
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "core/result.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

// The parsed tree of `text`, or d's error for a syntax error.
Result<YAML::Node> ParseYamlText(const std::string& text, Diagnostics& d);

}  // namespace aifabric
