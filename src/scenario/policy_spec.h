// A policy spec names how `aifabric schedule` schedules a trace: a placement
// policy (one of PlacementPolicyNames(), sched/placement_policy.h) and the
// communication scheduling on top of it, written NAME[+crux][+cassini]
// ("topology", "network_aware+crux+cassini"). Options may come in either
// order, each once; the spec's name always writes crux before cassini.
// Plain values and pure functions; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace aifabric {

struct PolicySpec {
  std::string policy = "first_fit";  // a PlacementPolicyNames() name
  bool crux = false;                 // priorities by GPU intensity and path selection
  bool cassini = false;              // time-shifting of communication phases

  // "first_fit", "topology+crux", "network_aware+crux+cassini".
  std::string Name() const;
  // The communication scheduling alone, as ReplayResult::comm spells it:
  // "none", "crux", "cassini" or "crux+cassini".
  std::string Comm() const;
  bool operator==(const PolicySpec&) const = default;
};

// Parses one spec (no spaces). Errors name what is wrong and list the accepted names:
// "unknown policy 'best' (expected one of: first_fit, random, ...)",
// "unknown option '+fast' in 'topology+fast' (expected +crux or +cassini)".
Result<PolicySpec> ParsePolicySpec(std::string_view text);

// Parses a comma-separated list of specs (spaces around each ignored), as
// `--compare` takes it. Errors: an empty list or item, a bad spec, or the
// same spec twice (by Name(), so "a+cassini+crux" repeats "a+crux+cassini").
Result<std::vector<PolicySpec>> ParsePolicySpecList(std::string_view text);

}  // namespace aifabric
