// The files and terminal text of `aifabric plan --existing`: plan.json
// ({"existing", "scenario", "threshold", "models": [...],
// "recommendation"}; docs/plan.md) and a table of the models. Pure
// functions; deterministic (numbers rounded to 9 significant digits).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "plan/existing_cluster.h"
#include "report/output_folder.h"

namespace aifabric {

nlohmann::ordered_json ExistingPlanJson(const ExistingPlan& plan);
std::string ExistingPlanText(const ExistingPlan& plan);
// Writes plan.json into `out` (not committed).
Status WriteExistingPlanFiles(const ExistingPlan& plan, OutputFolder& out);

}  // namespace aifabric
