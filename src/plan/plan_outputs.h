// The files and the terminal summary of a plan: plan.json (the contract in
// docs/plan.md: designs best first with their costs and workloads, the
// recommendation), plan.csv (a row per design), plan.html (plan_html.h),
// designs/<name>.yaml (each design's scenario, to re-run alone) and the
// ranked table printed on the terminal. Pure functions of the ranked plan, so the same plan gives the
// same bytes; nothing measured on the wall clock goes in a file.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "plan/plan_ranking.h"
#include "plan/plan_requirements.h"
#include "report/output_folder.h"

namespace aifabric {

nlohmann::ordered_json PlanJson(const PlanRequirements& requirements, const RankedPlan& plan);
std::string PlanCsv(const PlanRequirements& requirements, const RankedPlan& plan);
// The recommendation and a table, at most `rows` designs (the rest counted).
std::string PlanText(const PlanRequirements& requirements, const RankedPlan& plan, size_t rows);

// Writes plan.json, plan.csv, plan.html (plan_html.h) and designs/*.yaml into
// `out` (not committed).
Status WritePlanFiles(const PlanRequirements& requirements, const RankedPlan& plan, OutputFolder& out);

}  // namespace aifabric
