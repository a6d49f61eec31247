// The scenario loader: turns a scenario file (YAML, or JSON, which yaml-cpp
// also parses) plus --set overrides into a validated Scenario, filling every
// default. It is the only place that reads scenario files; docs/scenario.md
// is the reference of the fields it accepts. Stateless and thread-safe.
//
// It never throws. Every error names its place and what was expected:
//   "<file>:<line>:<col>: <dotted.field>: <expected ..., got ...>"
//   "--set <dotted.field>: ..."   for a value that came from --set
//   "--set <KEY>=<VALUE>: ..."    for a malformed or inapplicable --set
#pragma once

#include <string>
#include <vector>

#include "scenario/scenario.h"
#include "core/result.h"
#include "fabric/catalog.h"

namespace aifabric {

// Loads the scenario file at `path`, applies `set_overrides` (each
// "dotted.path=value", in order), fills defaults and validates. Relative file
// paths inside the scenario resolve against the scenario file's folder.
// Uses Catalog::BuiltIn() for switch, NIC and GPU names.
Result<Scenario> LoadScenarioFile(const std::string& path, const std::vector<std::string>& set_overrides);

// Same from text: `origin` names it in messages (and gives the default
// scenario name, its file name without extension); relative file paths
// resolve against `base_dir`.
Result<Scenario> LoadScenarioText(const std::string& text, const std::string& origin,
                                  const std::string& base_dir, const std::vector<std::string>& set_overrides);

// Same with an explicit catalog (tests, or a user-supplied catalog).
Result<Scenario> LoadScenarioText(const std::string& text, const std::string& origin,
                                  const std::string& base_dir, const std::vector<std::string>& set_overrides,
                                  const Catalog& catalog);

}  // namespace aifabric
