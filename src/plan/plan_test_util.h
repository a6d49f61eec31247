// Helpers shared by the plan tests (test-only; not part of the library).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "plan/plan_requirements.h"

namespace aifabric::plan_testing {

// The requirements file `text` (read as "req.yaml" in "."), or empty ones
// after failing the test if it does not read.
inline PlanRequirements ReadRequirements(const std::string& text) {
  Result<PlanRequirements> r = ReadPlanRequirements(text, "req.yaml", ".");
  EXPECT_TRUE(r.ok()) << r.error().message;
  return r.ok() ? *r : PlanRequirements{};
}

}  // namespace aifabric::plan_testing
