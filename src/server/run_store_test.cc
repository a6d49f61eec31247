#include "server/run_store.h"

#include <sqlite3.h>

#include <filesystem>

#include <gtest/gtest.h>

#include "server/serve_test_util.h"

namespace aifabric {
namespace {

RunRecord Record(const std::string& id, int64_t created_ms, RunStatus status) {
  RunRecord r;
  r.id = id;
  r.kind = "run";
  r.scenario_sha256 = std::string(64, 'a');
  r.created_ms = created_ms;
  r.status = status;
  return r;
}

TEST(RunStore, KeepsRowsListsNewestFirstAndCountsByStatus) {
  const std::string dir = serve_testing::FreshDir("runstore");
  {
    Result<std::unique_ptr<RunStore>> store = RunStore::Open(dir);
    ASSERT_TRUE(store.ok()) << store.error().message;
    RunStore& s = **store;
    ASSERT_TRUE(s.Insert(Record("a", 10, RunStatus::kDone)).ok());
    ASSERT_TRUE(s.Insert(Record("b", 30, RunStatus::kQueued)).ok());
    ASSERT_TRUE(s.Insert(Record("c", 20, RunStatus::kRunning)).ok());
    EXPECT_FALSE(s.Insert(Record("a", 40, RunStatus::kDone)).ok());  // ids are unique
    RunRecord a = Record("a", 10, RunStatus::kDone);
    a.summary = "{\"x\": 1}";
    a.finished_ms = 15;
    ASSERT_TRUE(s.Update(a).ok());
    ASSERT_TRUE(s.SetProgress("c", 0.25).ok());
    Result<std::vector<RunRecord>> list = s.List(10, 0);
    ASSERT_TRUE(list.ok());
    ASSERT_EQ(list->size(), 3u);
    EXPECT_EQ((*list)[0].id, "b");
    EXPECT_EQ((*list)[1].id, "c");
    EXPECT_DOUBLE_EQ((*list)[1].progress, 0.25);
    EXPECT_EQ((*list)[2].summary, "{\"x\": 1}");
    EXPECT_EQ((*s.List(1, 1))[0].id, "c");
    Result<std::optional<RunRecord>> none = s.Get("zzz");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    const auto counts = *s.CountByStatus();
    EXPECT_EQ(counts[static_cast<size_t>(RunStatus::kDone)].second, 1);
    EXPECT_EQ(counts[static_cast<size_t>(RunStatus::kQueued)].second, 1);
    EXPECT_EQ(counts[static_cast<size_t>(RunStatus::kFailed)].second, 0);
  }
  // Reopened: the queued and the running run were cut short.
  Result<std::unique_ptr<RunStore>> store = RunStore::Open(dir);
  ASSERT_TRUE(store.ok());
  EXPECT_EQ((*store)->interrupted(), 2u);
  for (const char* id : {"b", "c"}) {
    const RunRecord r = *(*(*store)->Get(id));
    EXPECT_EQ(r.status, RunStatus::kFailed) << id;
    EXPECT_EQ(r.error, RunStore::kRestartedError) << id;
  }
  EXPECT_EQ((*(*store)->Get("a"))->status, RunStatus::kDone);
  std::filesystem::remove_all(dir);
}

TEST(RunStore, AnUnwritableFolderIsAnErrorNamingIt) {
  Result<std::unique_ptr<RunStore>> store = RunStore::Open("/proc/aifabric-no-such-store");
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.error().message.find("/proc/aifabric-no-such-store"), std::string::npos);
}

// A store made before the columns name and whatif_of: its rows read with
// them empty, and new rows keep them.
TEST(RunStore, AStoreFromBeforeTheNameAndWhatIfColumnsGainsThem) {
  const std::string dir = serve_testing::FreshDir("runstore_old");
  std::filesystem::create_directories(dir + "/runs");
  {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir + "/runs.sqlite").c_str(), &db), SQLITE_OK);
    const char* old_schema =
        "CREATE TABLE runs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, scenario_sha256 TEXT NOT NULL,"
        " created_ms INTEGER NOT NULL, started_ms INTEGER NOT NULL DEFAULT 0, finished_ms INTEGER NOT NULL DEFAULT 0,"
        " status TEXT NOT NULL, progress REAL NOT NULL DEFAULT 0, summary TEXT NOT NULL DEFAULT '',"
        " error TEXT NOT NULL DEFAULT '');"
        "INSERT INTO runs (id, kind, scenario_sha256, created_ms, status) VALUES ('old', 'run', 'x', 5, 'done');";
    ASSERT_EQ(sqlite3_exec(db, old_schema, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
  }
  Result<std::unique_ptr<RunStore>> store = RunStore::Open(dir);
  ASSERT_TRUE(store.ok()) << store.error().message;
  Result<std::optional<RunRecord>> old = (*store)->Get("old");
  ASSERT_TRUE(old.ok() && old->has_value());
  EXPECT_EQ((*old)->status, RunStatus::kDone);
  EXPECT_EQ((*old)->name, "");
  EXPECT_EQ((*old)->whatif_of, "");
  RunRecord linked = Record("new", 6, RunStatus::kQueued);
  linked.whatif_of = "old";
  linked.name = "pod-a";
  ASSERT_TRUE((*store)->Insert(linked).ok());
  Result<std::optional<RunRecord>> back = (*store)->Get("new");
  ASSERT_TRUE(back.ok() && back->has_value());
  EXPECT_EQ((*back)->whatif_of, "old");
  EXPECT_EQ((*back)->name, "pod-a");
  store->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace aifabric
