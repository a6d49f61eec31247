// RankDesigns orders the evaluated designs and says in words what to buy.
// The measure is useful GPU-hours per dollar: GPUs x hours x effective GPU
// utilization over the plan's years, divided by the cluster's cost of
// ownership (GPUs and network, capital and energy). Designs within the
// constraints (budget, power) come first, best first; ties go to the
// cheaper network, then the name. The Pareto front is over network cost
// (lower is better) and effective GPU utilization (higher is better). Pure
// function; thread-safe; deterministic (numbers in the text are rounded).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/design_evaluation.h"
#include "plan/design_space.h"
#include "plan/packet_check.h"
#include "plan/plan_requirements.h"

namespace aifabric {

struct RankedDesign {
  DesignOutcome outcome;
  bool within_constraints = true;
  std::string constraint_missed;  // "budget: ...", "" when within
  bool pareto = false;
  // The packet-level check on a scaled copy (the best few designs only).
  std::optional<PacketCheck> packet_check;
};

struct RankedPlan {
  std::vector<RankedDesign> designs;     // built, best first
  std::vector<RejectedDesign> rejected;  // not built, and why
  std::string recommendation;            // a few sentences
};

RankedPlan RankDesigns(const PlanRequirements& requirements, std::vector<DesignOutcome> outcomes,
                       std::vector<RejectedDesign> rejected);

// "$1.23M", "$456k", "$789".
std::string FormatUsd(double usd);

}  // namespace aifabric
