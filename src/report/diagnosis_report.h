// DiagnosisReport reads a run's diagnosis.json back and formats its
// findings as a table (`aifabric diagnose OUTDIR`): a saved run can be
// diagnosed again without re-running it.
#pragma once

#include <string>

#include "core/result.h"

namespace aifabric {

// An Error names the file and what is wrong with it (missing, not JSON,
// no "findings" list).
Result<std::string> DiagnosisReport(const std::string& out_dir);

}  // namespace aifabric
