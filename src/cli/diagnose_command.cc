#include <cstdio>

#include "report/diagnosis_report.h"
#include "cli/commands.h"

namespace aifabric {

int DiagnoseCommand(const std::string& out_dir) {
  Result<std::string> report = DiagnosisReport(out_dir);
  if (!report.ok()) return ReportBadInput(report.error());
  std::fputs(report->c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
