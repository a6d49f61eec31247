// The policy specs `aifabric schedule` replays, from its --policy and
// --compare options as written (the CLI's flags, the server's query
// parameters `policy` and `compare`): --compare's list, else --policy's
// one spec, else the scenario's scheduling.policy. Errors name the flag.
// A pure function.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"
#include "scenario/policy_spec.h"
#include "scenario/scenario.h"

namespace aifabric {

Result<std::vector<PolicySpec>> PolicySpecsFromFlags(const std::string& policy, const std::string& compare,
                                                     const Scenario& scenario);

}  // namespace aifabric
