#include "server/run_manager.h"

#include <exception>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "core/text_file.h"
#include "report/live_snapshot.h"
#include "server/live_findings.h"

namespace aifabric {
namespace {

std::string EndJson(const RunRecord& r) {
  return nlohmann::json{{"id", r.id}, {"status", RunStatusName(r.status)}, {"error", r.error}}.dump();
}

}  // namespace

int64_t UnixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RunManager::RunManager(RunStore& store, RunManagerOptions options) : store_(store), options_(options) {
  threads_.reserve(static_cast<size_t>(options_.workers));
  for (int i = 0; i < options_.workers; ++i) threads_.emplace_back([this] { Work(); });
}

RunManager::~RunManager() { Shutdown(); }

Result<RunRecord> RunManager::Submit(ParsedRun parsed) {
  auto run = std::make_shared<Active>();
  run->record.kind = parsed.kind;
  run->record.name = std::move(parsed.name);
  run->record.whatif_of = std::move(parsed.whatif_of);
  run->record.scenario_sha256 = parsed.input_sha256;
  run->record.created_ms = UnixMs();
  run->record.id = ids_.Next(run->record.created_ms);
  run->record.status = RunStatus::kQueued;
  run->task = std::move(parsed.task);
  run->feed = std::make_shared<LiveFeed>();
  const bool attachment = run->task->RunsUntilStopped();
  std::lock_guard lock(mutex_);
  if (stopping_) return Error{kStoppedError};
  if (attachment && attached_ >= static_cast<size_t>(options_.max_attachments)) {
    return Error{"limit: the server attaches at most " + std::to_string(options_.max_attachments) +
                 " fabrics at once (--max-attachments); detach one (DELETE /api/runs/ID) first"};
  }
  if (Status s = store_.Insert(run->record); !s.ok()) return s.error();
  active_[run->record.id] = run;
  if (attachment) {
    ReapAttachments();
    ++attached_;
    auto ended = std::make_shared<std::atomic<bool>>(false);
    attachment_threads_.push_back(AttachmentThread{ended, std::thread([this, run, ended] {
      Execute(*run);
      {
        std::lock_guard done(mutex_);
        --attached_;
      }
      *ended = true;
    })});
  } else {
    queue_.push_back(run);
    work_.notify_one();
  }
  return run->record;
}

Result<RunManager::CancelOutcome> RunManager::Cancel(const std::string& id) {
  std::shared_ptr<Active> run;
  {
    std::lock_guard lock(mutex_);
    auto it = active_.find(id);
    if (it != active_.end()) {
      bool was_queued = false;
      for (auto q = queue_.begin(); q != queue_.end(); ++q) {
        if (*q == it->second) {
          queue_.erase(q);
          was_queued = true;
          break;
        }
      }
      if (!was_queued) {
        // Running: the worker ends it at the next heartbeat.
        StopReason none = StopReason::kNone;
        it->second->why.compare_exchange_strong(none, StopReason::kUser);
        it->second->cancel = true;
        return CancelOutcome::kCancelled;
      }
      run = it->second;
      run->why = StopReason::kUser;
    }
  }
  if (run) {
    Finish(*run, RunStatus::kCancelled, "cancelled", "");
    return CancelOutcome::kCancelled;
  }
  Result<std::optional<RunRecord>> record = store_.Get(id);
  if (!record.ok()) return record.error();
  return record->has_value() ? CancelOutcome::kAlreadyFinished : CancelOutcome::kNotFound;
}

std::shared_ptr<LiveFeed> RunManager::Feed(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = active_.find(id);
  return it == active_.end() ? nullptr : it->second->feed;
}

size_t RunManager::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

size_t RunManager::running() const {
  std::lock_guard lock(mutex_);
  return running_;
}

void RunManager::ReapAttachments() {
  std::erase_if(attachment_threads_, [](AttachmentThread& t) {
    if (!*t.ended) return false;
    t.thread.join();  // prompt: the thread has nothing left to do
    return true;
  });
}

size_t RunManager::attached() const {
  std::lock_guard lock(mutex_);
  return attached_;
}

void RunManager::Shutdown() {
  std::deque<std::shared_ptr<Active>> queued;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    queued.swap(queue_);
    for (auto& [id, run] : active_) {
      if (run->why == StopReason::kNone) {
        run->why = StopReason::kShutdown;
        run->cancel = true;
      }
    }
  }
  work_.notify_all();
  for (auto& run : queued) Finish(*run, RunStatus::kFailed, kStoppedError, "");
  for (std::thread& t : threads_) t.join();
  threads_.clear();
  // No attachment starts once stopping_ is set, so the list is complete.
  std::vector<AttachmentThread> attachments;
  {
    std::lock_guard lock(mutex_);
    attachments.swap(attachment_threads_);
  }
  for (AttachmentThread& t : attachments) t.thread.join();
}

void RunManager::Work() {
  for (;;) {
    std::shared_ptr<Active> run;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      run = queue_.front();
      queue_.pop_front();
      ++running_;
    }
    Execute(*run);
    std::lock_guard lock(mutex_);
    --running_;
  }
}

void RunManager::Execute(Active& run) {
  run.record.status = RunStatus::kRunning;
  run.record.started_ms = UnixMs();
  (void)store_.Update(run.record);
  run.feed->Push("progress", nlohmann::json{{"progress", 0.0}, {"sim_time_ns", 0}, {"events", 0}}.dump());

  RunHooks hooks;
  hooks.cancel = &run.cancel;
  hooks.publish_every = options_.publish_every;
  // Each finding of the diagnosis of what was sampled so far, the first
  // time it appears (server/live_findings.h), marked live.
  LiveFindings live(options_.diagnose_every);
  hooks.publish = [&run, &live](const LiveSample& sample) {
    run.feed->Push("snapshot", LiveSnapshotJson(sample).dump());
    for (nlohmann::ordered_json& f : live.Update(sample)) {
      f["live"] = true;
      f["sim_time_ns"] = sample.store.times()[sample.store.points() - 1].ns();
      run.feed->Push("finding", f.dump());
    }
  };
  const uint64_t max_events = options_.limits.max_events;
  hooks.on_progress = [this, &run, max_events](const RunProgress& p) {
    if (max_events > 0 && p.events > max_events) {
      StopReason none = StopReason::kNone;
      run.why.compare_exchange_strong(none, StopReason::kEventLimit);
      run.cancel = true;
      return;
    }
    if (p.fraction >= 0) run.progress = p.fraction;
    (void)store_.SetProgress(run.record.id, run.progress);
    run.feed->Push("progress", nlohmann::json{{"progress", run.progress},
                                              {"sim_time_ns", p.sim_time.ns()},
                                              {"events", p.events}}.dump());
  };

  const std::string dir = store_.RunDir(run.record.id);
  Result<std::string> summary = Error{"not run"};
  try {
    // An attachment detached before it began still ends done, after no pass.
    if (!run.cancel || run.task->RunsUntilStopped()) summary = run.task->Execute(dir, hooks, *run.feed);
  } catch (const std::exception& e) {
    summary = Error{std::string("internal error: ") + e.what()};
  }
  if (run.task->RunsUntilStopped()) return FinishAttachment(run, dir, std::move(summary));
  run.task.reset();
  std::error_code ec;
  switch (run.cancel ? run.why.load() : StopReason::kNone) {
    case StopReason::kUser:
      std::filesystem::remove_all(dir, ec);
      return Finish(run, RunStatus::kCancelled, "cancelled", "");
    case StopReason::kEventLimit:
      std::filesystem::remove_all(dir, ec);
      return Finish(run, RunStatus::kFailed,
                    "limit: a simulation passed the server's --max-events " + std::to_string(max_events), "");
    case StopReason::kShutdown:
      std::filesystem::remove_all(dir, ec);
      return Finish(run, RunStatus::kFailed, kStoppedError, "");
    case StopReason::kNone: break;
  }
  if (!summary.ok()) {
    std::filesystem::remove_all(dir, ec);
    return Finish(run, RunStatus::kFailed, summary.error().message, "");
  }
  run.progress = 1;
  run.feed->Push("progress", nlohmann::json{{"progress", 1.0}}.dump());
  PushFindings(run, dir);
  Finish(run, RunStatus::kDone, "", std::move(summary).value());
}

void RunManager::FinishAttachment(Active& run, const std::string& dir, Result<std::string> summary) {
  run.task.reset();
  if (!summary.ok()) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return Finish(run, RunStatus::kFailed, summary.error().message, "");
  }
  Finish(run, RunStatus::kDone, "", std::move(summary).value());
}

void RunManager::PushFindings(Active& run, const std::string& dir) {
  const std::string path = dir + "/diagnosis.json";
  if (!std::filesystem::exists(path)) return;
  Result<std::string> text = ReadTextFile(path);
  if (!text.ok()) return;
  const nlohmann::json diagnosis = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!diagnosis.is_object() || !diagnosis.contains("findings") || !diagnosis["findings"].is_array()) return;
  for (const nlohmann::json& finding : diagnosis["findings"]) run.feed->Push("finding", finding.dump());
}

void RunManager::Finish(Active& run, RunStatus status, std::string error, std::string summary) {
  run.record.status = status;
  run.record.error = std::move(error);
  run.record.summary = std::move(summary);
  run.record.finished_ms = UnixMs();
  if (status == RunStatus::kDone) run.record.progress = 1;
  else run.record.progress = run.progress;
  (void)store_.Update(run.record);
  run.feed->End(EndJson(run.record));
  std::lock_guard lock(mutex_);
  active_.erase(run.record.id);
}

}  // namespace aifabric
