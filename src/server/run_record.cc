#include "server/run_record.h"

namespace aifabric {

const char* RunStatusName(RunStatus status) {
  switch (status) {
    case RunStatus::kQueued: return "queued";
    case RunStatus::kRunning: return "running";
    case RunStatus::kDone: return "done";
    case RunStatus::kFailed: return "failed";
    case RunStatus::kCancelled: return "cancelled";
  }
  return "failed";
}

std::optional<RunStatus> ParseRunStatus(std::string_view name) {
  for (RunStatus s : kAllRunStatuses) {
    if (name == RunStatusName(s)) return s;
  }
  return std::nullopt;
}

}  // namespace aifabric
