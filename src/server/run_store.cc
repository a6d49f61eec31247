#include "server/run_store.h"

#include <sqlite3.h>

#include <filesystem>
#include <set>
#include <utility>

namespace aifabric {
namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS runs ("
    " id TEXT PRIMARY KEY,"
    " kind TEXT NOT NULL,"
    " scenario_sha256 TEXT NOT NULL,"
    " created_ms INTEGER NOT NULL,"
    " started_ms INTEGER NOT NULL DEFAULT 0,"
    " finished_ms INTEGER NOT NULL DEFAULT 0,"
    " status TEXT NOT NULL,"
    " progress REAL NOT NULL DEFAULT 0,"
    " summary TEXT NOT NULL DEFAULT '',"
    " error TEXT NOT NULL DEFAULT '',"
    " name TEXT NOT NULL DEFAULT '',"
    " whatif_of TEXT NOT NULL DEFAULT '');"
    "CREATE INDEX IF NOT EXISTS runs_by_created ON runs (created_ms DESC, id DESC);";

constexpr const char* kColumns =
    "id, kind, scenario_sha256, created_ms, started_ms, finished_ms, status, progress, summary, error, name, "
    "whatif_of";

// Columns added after the first version of the table, each with its
// definition; a store made before gets them on opening.
constexpr std::pair<const char*, const char*> kLaterColumns[] = {
    {"name", "TEXT NOT NULL DEFAULT ''"},
    {"whatif_of", "TEXT NOT NULL DEFAULT ''"},
};

// A prepared statement, finalized when it goes.
class Statement {
 public:
  Statement(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  bool ok() const { return rc_ == SQLITE_OK; }
  sqlite3_stmt* get() { return stmt_; }
  void Bind(int i, const std::string& text) { sqlite3_bind_text(stmt_, i, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT); }
  void Bind(int i, int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void Bind(int i, double v) { sqlite3_bind_double(stmt_, i, v); }
  int Step() { return sqlite3_step(stmt_); }
  std::string Text(int i) {
    const unsigned char* t = sqlite3_column_text(stmt_, i);
    return t == nullptr ? "" : std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(stmt_, i)));
  }
  int64_t Int(int i) { return sqlite3_column_int64(stmt_, i); }
  double Real(int i) { return sqlite3_column_double(stmt_, i); }

 private:
  sqlite3_stmt* stmt_ = nullptr;
  int rc_;
};

RunRecord ReadRow(Statement& s) {
  RunRecord r;
  r.id = s.Text(0);
  r.kind = s.Text(1);
  r.scenario_sha256 = s.Text(2);
  r.created_ms = s.Int(3);
  r.started_ms = s.Int(4);
  r.finished_ms = s.Int(5);
  r.status = ParseRunStatus(s.Text(6)).value_or(RunStatus::kFailed);
  r.progress = s.Real(7);
  r.summary = s.Text(8);
  r.error = s.Text(9);
  r.name = s.Text(10);
  r.whatif_of = s.Text(11);
  return r;
}

}  // namespace

Result<std::unique_ptr<RunStore>> RunStore::Open(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir + "/runs", ec);
  if (ec) return Error{dir + ": cannot create the store folder: " + ec.message()};
  const std::string path = dir + "/runs.sqlite";
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                                 nullptr);
  if (rc != SQLITE_OK) {
    Error e{path + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc))};
    sqlite3_close(db);
    return e;
  }
  std::unique_ptr<RunStore> store(new RunStore(dir, db));
  sqlite3_busy_timeout(db, 2000);
  // Write-ahead logging with NORMAL sync: a commit (a run's progress, 4 a
  // second) appends to the log without waiting for the disk, so the reads
  // queued behind it are not held by an fsync; the table stays consistent
  // across a crash, losing at most the last commits.
  if (Status s = store->Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"); !s.ok()) return s.error();
  if (Status s = store->Exec(kSchema); !s.ok()) return s.error();
  if (Status s = store->AddMissingColumns(); !s.ok()) return s.error();
  {
    Statement mark(db,
                   "UPDATE runs SET status = 'failed', error = ?1, finished_ms = CASE WHEN finished_ms = 0 THEN "
                   "created_ms ELSE finished_ms END WHERE status IN ('queued', 'running')");
    if (!mark.ok()) return store->SqlError("mark interrupted runs");
    mark.Bind(1, std::string(kRestartedError));
    if (mark.Step() != SQLITE_DONE) return store->SqlError("mark interrupted runs");
    store->interrupted_ = static_cast<size_t>(sqlite3_changes(db));
  }
  return store;
}

RunStore::~RunStore() { sqlite3_close(db_); }

Error RunStore::SqlError(const std::string& what) const {
  return Error{dir_ + "/runs.sqlite: " + what + ": " + sqlite3_errmsg(db_)};
}

Status RunStore::Exec(const char* sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
    Error e{dir_ + "/runs.sqlite: " + (message != nullptr ? message : "error")};
    sqlite3_free(message);
    return e;
  }
  return Status::Ok();
}

Status RunStore::AddMissingColumns() {
  std::set<std::string> have;
  {
    Statement info(db_, "PRAGMA table_info(runs)");
    if (!info.ok()) return SqlError("read the table's columns");
    while (info.Step() == SQLITE_ROW) have.insert(info.Text(1));
  }
  for (const auto& [column, definition] : kLaterColumns) {
    if (have.count(column) > 0) continue;
    const std::string sql = std::string("ALTER TABLE runs ADD COLUMN ") + column + " " + definition + ";";
    if (Status s = Exec(sql.c_str()); !s.ok()) return s;
  }
  return Status::Ok();
}

Status RunStore::Insert(const RunRecord& r) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string("INSERT INTO runs (") + kColumns +
                    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)").c_str());
  if (!s.ok()) return SqlError("insert");
  s.Bind(1, r.id);
  s.Bind(2, r.kind);
  s.Bind(3, r.scenario_sha256);
  s.Bind(4, r.created_ms);
  s.Bind(5, r.started_ms);
  s.Bind(6, r.finished_ms);
  s.Bind(7, std::string(RunStatusName(r.status)));
  s.Bind(8, r.progress);
  s.Bind(9, r.summary);
  s.Bind(10, r.error);
  s.Bind(11, r.name);
  s.Bind(12, r.whatif_of);
  if (s.Step() != SQLITE_DONE) return SqlError("insert run " + r.id);
  return Status::Ok();
}

Status RunStore::Update(const RunRecord& r) {
  std::lock_guard lock(mutex_);
  Statement s(db_,
              "UPDATE runs SET started_ms = ?2, finished_ms = ?3, status = ?4, progress = ?5, summary = ?6, "
              "error = ?7 WHERE id = ?1");
  if (!s.ok()) return SqlError("update");
  s.Bind(1, r.id);
  s.Bind(2, r.started_ms);
  s.Bind(3, r.finished_ms);
  s.Bind(4, std::string(RunStatusName(r.status)));
  s.Bind(5, r.progress);
  s.Bind(6, r.summary);
  s.Bind(7, r.error);
  if (s.Step() != SQLITE_DONE) return SqlError("update run " + r.id);
  return Status::Ok();
}

Status RunStore::SetProgress(const std::string& id, double progress) {
  std::lock_guard lock(mutex_);
  Statement s(db_, "UPDATE runs SET progress = ?2 WHERE id = ?1");
  if (!s.ok()) return SqlError("progress");
  s.Bind(1, id);
  s.Bind(2, progress);
  if (s.Step() != SQLITE_DONE) return SqlError("progress of run " + id);
  return Status::Ok();
}

Result<std::optional<RunRecord>> RunStore::Get(const std::string& id) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string("SELECT ") + kColumns + " FROM runs WHERE id = ?1").c_str());
  if (!s.ok()) return SqlError("get");
  s.Bind(1, id);
  const int rc = s.Step();
  if (rc == SQLITE_DONE) return std::optional<RunRecord>();
  if (rc != SQLITE_ROW) return SqlError("get run " + id);
  return std::optional<RunRecord>(ReadRow(s));
}

Result<std::vector<RunRecord>> RunStore::List(size_t limit, size_t offset) {
  std::lock_guard lock(mutex_);
  Statement s(db_, (std::string("SELECT ") + kColumns +
                    " FROM runs ORDER BY created_ms DESC, id DESC LIMIT ?1 OFFSET ?2").c_str());
  if (!s.ok()) return SqlError("list");
  s.Bind(1, static_cast<int64_t>(limit));
  s.Bind(2, static_cast<int64_t>(offset));
  std::vector<RunRecord> out;
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) out.push_back(ReadRow(s));
  if (rc != SQLITE_DONE) return SqlError("list runs");
  return out;
}

Result<std::vector<std::pair<RunStatus, int64_t>>> RunStore::CountByStatus() {
  std::lock_guard lock(mutex_);
  Statement s(db_, "SELECT status, COUNT(*) FROM runs GROUP BY status");
  if (!s.ok()) return SqlError("count");
  std::vector<std::pair<RunStatus, int64_t>> out;
  for (RunStatus st : kAllRunStatuses) out.emplace_back(st, 0);
  int rc;
  while ((rc = s.Step()) == SQLITE_ROW) {
    if (std::optional<RunStatus> st = ParseRunStatus(s.Text(0))) out[static_cast<size_t>(*st)].second = s.Int(1);
  }
  if (rc != SQLITE_DONE) return SqlError("count runs");
  return out;
}

}  // namespace aifabric
