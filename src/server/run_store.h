// RunStore keeps the server's runs in SQLite (STORE/runs.sqlite, one row
// per run: server/run_record.h) beside their output folders
// (STORE/runs/<id>/). Opening a store marks every run a restart cut short
// (queued or running in the table) failed, with the error "server
// restarted", so after a restart each run is either finished or gone
// through that. A store from before the columns name and whatif_of gains
// them (empty) when opened. Thread-safe: one connection behind a mutex.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "server/run_record.h"

struct sqlite3;

namespace aifabric {

class RunStore {
 public:
  static constexpr const char* kRestartedError = "server restarted";

  // Creates DIR, DIR/runs and the table if missing. Errors name the file
  // and SQLite's reason.
  static Result<std::unique_ptr<RunStore>> Open(const std::string& dir);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // Runs Open found queued or running, now failed.
  size_t interrupted() const { return interrupted_; }
  // The folder of run `id`'s files (not created here).
  std::string RunDir(const std::string& id) const { return dir_ + "/runs/" + id; }

  Status Insert(const RunRecord& run);
  // Writes every field of the row with run.id.
  Status Update(const RunRecord& run);
  Status SetProgress(const std::string& id, double progress);
  // nullopt: no such run.
  Result<std::optional<RunRecord>> Get(const std::string& id);
  // Newest first (created_ms, then id, descending).
  Result<std::vector<RunRecord>> List(size_t limit, size_t offset);
  // The number of runs in each status, in kAllRunStatuses order.
  Result<std::vector<std::pair<RunStatus, int64_t>>> CountByStatus();

 private:
  RunStore(std::string dir, sqlite3* db) : dir_(std::move(dir)), db_(db) {}
  Status Exec(const char* sql);
  // Adds the columns later versions brought to a table made before them.
  Status AddMissingColumns();
  Error SqlError(const std::string& what) const;

  const std::string dir_;
  std::mutex mutex_;
  sqlite3* db_;  // guarded by mutex_
  size_t interrupted_ = 0;
};

}  // namespace aifabric
