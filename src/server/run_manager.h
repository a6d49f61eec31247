// RunManager runs the server's runs: Submit records a parsed request as a
// queued run (server/run_store.h) with a live feed (server/live_feed.h),
// and `workers` threads take the queue in order, each running one RunTask
// at a time into STORE/runs/<id>/ with RunHooks that feed its progress,
// telemetry snapshots (report/live_snapshot.h), its diagnosis findings at
// the end and the end itself. A run ends done, failed (its error; a
// ServeLimits::max_events overrun; "server stopped") or cancelled; only a
// done run keeps its folder, so a cancelled run leaves no half-written
// outputs. A task that runs until stopped (an attached fabric,
// RunTask::RunsUntilStopped) starts at once on a thread of its own, not a
// worker, at most `max_attachments` at a time, and ends done when
// cancelled or when the server stops, keeping its files. Thread-safe;
// destruction shuts down (see Shutdown).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "server/live_feed.h"
#include "server/run_id.h"
#include "server/run_request.h"
#include "server/run_store.h"
#include "server/serve_limits.h"

namespace aifabric {

struct RunManagerOptions {
  int workers = 2;  // runs at once; REQUIRES: >= 1
  ServeLimits limits;
  std::chrono::milliseconds publish_every{250};  // least wall time between snapshots, and between progress events
  // Least wall time between two diagnoses of a running simulation's
  // telemetry so far (live findings; each costs a pass over its series).
  std::chrono::milliseconds diagnose_every{1000};
  int max_attachments = 2;  // attached fabrics at once (each on its own thread)
};

// Unix time in milliseconds.
int64_t UnixMs();

class RunManager {
 public:
  static constexpr const char* kStoppedError = "server stopped";

  RunManager(RunStore& store, RunManagerOptions options);
  ~RunManager();
  RunManager(const RunManager&) = delete;
  RunManager& operator=(const RunManager&) = delete;

  // Queues the run (or starts an attachment); its record as stored. An
  // Error when the server is stopping, or when max_attachments are
  // attached already ("limit: ...").
  Result<RunRecord> Submit(ParsedRun run);

  enum class CancelOutcome { kCancelled, kNotFound, kAlreadyFinished };
  // A queued run is cancelled at once; a running one is asked to stop
  // (at its simulation's next heartbeat) and ends cancelled.
  Result<CancelOutcome> Cancel(const std::string& id);

  // The feed of a queued or running run; null once it has ended and its
  // last client let go of it (the record then says how it ended).
  std::shared_ptr<LiveFeed> Feed(const std::string& id);

  size_t queued() const;
  size_t running() const;
  size_t attached() const;
  int workers() const { return options_.workers; }
  int max_attachments() const { return options_.max_attachments; }

  // Stops taking runs: queued ones fail ("server stopped"), running ones
  // are cancelled and fail the same way, attachments end done; joins the
  // workers and the attachments' threads. Idempotent.
  void Shutdown();

 private:
  enum class StopReason { kNone, kUser, kEventLimit, kShutdown };
  struct Active {
    RunRecord record;
    std::unique_ptr<RunTask> task;
    std::shared_ptr<LiveFeed> feed;
    std::atomic<bool> cancel{false};
    std::atomic<StopReason> why{StopReason::kNone};
    double progress = 0;  // worker thread only
  };

  void Work();
  void Execute(Active& run);
  // The end of a run that runs until stopped: done with its summary.
  void FinishAttachment(Active& run, const std::string& dir, Result<std::string> summary);
  // Writes the final record, ends the feed, forgets the run.
  void Finish(Active& run, RunStatus status, std::string error, std::string summary);
  void PushFindings(Active& run, const std::string& dir);

  RunStore& store_;
  const RunManagerOptions options_;
  RunIdGenerator ids_;

  mutable std::mutex mutex_;
  std::condition_variable work_;
  std::map<std::string, std::shared_ptr<Active>> active_;  // queued and running; guarded by mutex_
  std::deque<std::shared_ptr<Active>> queue_;              // guarded by mutex_
  size_t running_ = 0;                                     // guarded by mutex_
  size_t attached_ = 0;                                    // attachments not yet ended; guarded by mutex_
  bool stopping_ = false;                                  // guarded by mutex_
  std::vector<std::thread> threads_;
  struct AttachmentThread {
    std::shared_ptr<std::atomic<bool>> ended;  // set as the thread's last act
    std::thread thread;
  };
  // Joins the attachments' threads that have ended. REQUIRES: mutex_ held.
  void ReapAttachments();
  std::vector<AttachmentThread> attachment_threads_;       // guarded by mutex_ until Shutdown joins them
};

}  // namespace aifabric
