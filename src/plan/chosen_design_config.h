// The switch configuration of a plan's chosen design (its first ranked
// design), for `aifabric plan --config DIR`: the design's scenario loaded
// again and its fabric built, then plan/switch_config.h's files, with each
// link's cable the catalog's cheapest medium at its rate that reaches the
// plan's cable length for its tier — the same medium the bill of
// materials counts. Thread-safe.
#pragma once

#include <string>

#include "core/result.h"
#include "fabric/catalog.h"
#include "plan/plan_ranking.h"
#include "plan/plan_requirements.h"

namespace aifabric {

// Errors when the plan has no design, or the files cannot be written.
Status WriteChosenDesignConfig(const PlanRequirements& requirements, const RankedPlan& plan, const Catalog& catalog,
                               const std::string& dir);

}  // namespace aifabric
