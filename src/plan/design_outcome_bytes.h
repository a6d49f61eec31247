// A design's outcome as bytes, for the processes of one plan to exchange
// (plan_processes.h): every field of DesignOutcome but the Design itself,
// which each process enumerates alike and the receiver supplies. Numbers
// travel as their exact bits, so a plan gathered from many processes is
// byte-for-byte the plan of one. Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "plan/design_evaluation.h"

namespace aifabric {

std::string EncodeDesignOutcome(const DesignOutcome& outcome);

// The outcome `bytes` encode, for `design`; an error if they are cut short
// or carry more than one outcome.
Result<DesignOutcome> DecodeDesignOutcome(std::string_view bytes, const Design& design);

// One slot per design of a plan, by index; empty for the designs another
// process (or nobody, after an error) evaluated.
using DesignResults = std::vector<std::optional<Result<DesignOutcome>>>;

// The slots that hold a result, each with its index: an outcome, or the
// error's message.
std::string EncodeDesignResults(const DesignResults& results);

// Fills `into` (one slot per design) from what EncodeDesignResults wrote;
// an error if the bytes are corrupt or name a design twice or not at all.
Status DecodeDesignResults(std::string_view bytes, const std::vector<Design>& designs, DesignResults& into);

}  // namespace aifabric
