// RunRecord is one row of the server's run store: what was asked (kind,
// the scenario's hash), when it was created, started and finished, where
// it stands (status, progress) and how it ended (summary, error). Plain
// data; RunStatus is its closed set of states.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace aifabric {

// queued -> running -> done | failed | cancelled; queued -> cancelled.
enum class RunStatus { kQueued, kRunning, kDone, kFailed, kCancelled };

inline constexpr RunStatus kAllRunStatuses[] = {RunStatus::kQueued, RunStatus::kRunning, RunStatus::kDone,
                                                 RunStatus::kFailed, RunStatus::kCancelled};

// "queued", "running", "done", "failed", "cancelled".
const char* RunStatusName(RunStatus status);
std::optional<RunStatus> ParseRunStatus(std::string_view name);
// done, failed and cancelled: nothing will change it again.
inline bool IsFinal(RunStatus s) { return s != RunStatus::kQueued && s != RunStatus::kRunning; }

struct RunRecord {
  std::string id;
  std::string kind;              // run | collective | schedule | plan | observe (an attached fabric)
  std::string name;              // an attached fabric's name; "" for other runs
  std::string whatif_of;         // a what-if run: the id of the attached fabric it changes; "" otherwise
  std::string scenario_sha256;   // of the request body as received
  int64_t created_ms = 0;        // Unix time in milliseconds
  int64_t started_ms = 0;        // 0: not started
  int64_t finished_ms = 0;       // 0: not finished
  RunStatus status = RunStatus::kQueued;
  double progress = 0;           // 0..1
  std::string summary;           // the run's summary.json text once done; "" before
  std::string error;             // why it failed or was cancelled; "" otherwise
};

}  // namespace aifabric
