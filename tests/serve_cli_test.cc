// The server against the CLI: the same scenario, options and inputs give
// the same summary through POST /api/runs as through `aifabric run`,
// `collective`, `schedule` and `plan` (but for the wall-clock figures, which
// differ between any two runs, and the trace's path as each was given it).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "cli_harness.h"
#include "server/serve_test_util.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using serve_testing::kSmallScenario;
using serve_testing::TestServer;

// `json` without the keys that hold wall-clock figures, at any depth.
nlohmann::json WithoutWallClock(nlohmann::json json) {
  if (json.is_object()) {
    for (const char* key : {"wall_s", "events_per_s", "wall_seconds", "peak_memory_mib", "trace"}) json.erase(key);
    for (auto& [key, value] : json.items()) value = WithoutWallClock(value);
  } else if (json.is_array()) {
    for (auto& value : json) value = WithoutWallClock(value);
  }
  return json;
}

nlohmann::json ServedSummary(TestServer& t, const std::string& id) {
  const nlohmann::json run = t.WaitFor(id, "done", std::chrono::seconds(60));
  EXPECT_EQ(run.value("status", ""), "done") << run.dump();
  return run.value("summary", nlohmann::json());
}

TEST(ServeCli, ARunServedHasTheCliSummary) {
  TempDir dir;
  const std::string scenario = dir.Write("small.yaml", kSmallScenario);
  CommandResult r = RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json cli = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  TestServer t;
  const std::string id = t.Start("kind=run&name=small.yaml", kSmallScenario);
  const nlohmann::json served = ServedSummary(t, id);
  ASSERT_TRUE(cli.contains("wall_s") && served.contains("wall_s"));
  EXPECT_EQ(WithoutWallClock(served), WithoutWallClock(cli));
  // The files that hold no wall-clock figure are the same bytes.
  for (const char* file : {"flows.csv", "links.csv", "fct.txt", "diagnosis.json", "timeseries.csv"}) {
    httplib::Result f = t.Client().Get(("/api/runs/" + id + "/files/" + file).c_str());
    ASSERT_TRUE(f) << file;
    EXPECT_EQ(f->body, ReadFile(dir.path() + "/out/" + file)) << file;
  }
}

TEST(ServeCli, ACollectiveServedHasTheCliJson) {
  TempDir dir;
  CommandResult r = RunAifabric("collective --model flow -b 1M -e 4M -J " + dir.path() + "/c.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json cli = nlohmann::json::parse(ReadFile(dir.path() + "/c.json"));
  TestServer t;
  const nlohmann::json served = ServedSummary(t, t.Start("kind=collective&model=flow&b=1M&e=4M", ""));
  EXPECT_EQ(WithoutWallClock(served), WithoutWallClock(cli));
}

TEST(ServeCli, AScheduleServedHasTheCliSummary) {
  const std::string cluster =
      "name: tiny\n"
      "seed: 3\n"
      "cluster: {servers: 4, gpus_per_server: 8, nic: {rate: 100Gbps}}\n"
      "fabric:\n"
      "  topology: {type: leaf_spine, hosts_per_leaf: 16, spines: 2}\n"
      "  switch: 32x100G\n"
      "scheduling: {policy: topology, max_phases_per_job: 8}\n";
  const std::string trace =
      "job_id,submit_s,gpus,model,iterations\n"
      "a,0,8,llama3-8b,4\n"
      "b,2,16,llama3-8b,3\n"
      "c,0.5,4,llama3-8b,5\n";
  TempDir dir;
  CommandResult r = RunAifabric("schedule --cluster " + dir.Write("tiny.yaml", cluster) + " --trace " +
                                dir.Write("trace.csv", trace) + " --quiet --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json cli = nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json"));
  TestServer t;
  httplib::MultipartFormDataItems parts = {{"scenario", cluster, "tiny.yaml", "application/yaml"},
                                           {"trace", trace, "trace.csv", "text/csv"}};
  httplib::Result posted = t.Client().Post("/api/runs?kind=schedule&name=tiny.yaml", parts);
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 201) << posted->body;
  const std::string id = nlohmann::json::parse(posted->body)["id"];
  const nlohmann::json served = ServedSummary(t, id);
  EXPECT_EQ(WithoutWallClock(served), WithoutWallClock(cli));
  httplib::Result jobs = t.Client().Get(("/api/runs/" + id + "/files/jobs.csv").c_str());
  ASSERT_TRUE(jobs);
  EXPECT_EQ(jobs->body, ReadFile(dir.path() + "/out/jobs.csv"));
  // Without the trace part it is refused, saying what it needs.
  posted = t.Post("kind=schedule", cluster);
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 400);
  EXPECT_NE(posted->body.find("trace"), std::string::npos);
}

TEST(ServeCli, APlanServedHasTheCliPlan) {
  // 32 H100s on InfiniBand at 400G, rail-optimized: one design per IB
  // switch of the catalog (QM9700, QM9790), two.
  const std::string requirements =
      "name: small_plan\n"
      "cluster: {gpus: 32, gpu: H100}\n"
      "workloads:\n"
      "  - training: {model: llama3-8b, tp: 8, global_batch: 16}\n"
      "design_space:\n"
      "  fabric_kind: [ib]\n"
      "  link_gbps: [400]\n"
      "  topology: [rail_optimized]\n";
  TempDir dir;
  CommandResult r = RunAifabric("plan " + dir.Write("req.yaml", requirements) + " -q --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json cli = nlohmann::json::parse(ReadFile(dir.path() + "/out/plan.json"));
  TestServer t;
  const nlohmann::json served = ServedSummary(t, t.Start("kind=plan&name=req.yaml", requirements));
  ASSERT_EQ(served["designs"].size(), 2u);
  EXPECT_EQ(WithoutWallClock(served), WithoutWallClock(cli));
  // A bad requirements file: the CLI's message (file, line, field).
  httplib::Result bad = t.Post("kind=plan", "name: p\ncluster: {gpus: -1, gpu: H100}\n");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 400);
  EXPECT_NE(bad->body.find("requirements.yaml:2"), std::string::npos) << bad->body;
  EXPECT_NE(bad->body.find("cluster.gpus"), std::string::npos) << bad->body;
}

// DELETE of a running plan or schedule run: it stops (a plan between two
// designs, a replay at its next event), ends `cancelled` with no summary,
// and leaves no folder in the store. The shipped examples take seconds
// (the 32-GPU plan evaluates 8 designs; the trace replays 5,000 jobs), so
// each is still running when the DELETE comes.
TEST(ServeCli, RunningPlanAndScheduleRunsCancel) {
  const std::string source = AIFABRIC_SOURCE_DIR;
  TestServer t;
  const std::string plan =
      t.Start("kind=plan&name=cluster_32gpu.yaml", ReadFile(source + "/examples/plan/cluster_32gpu.yaml"));
  httplib::MultipartFormDataItems parts = {
      {"scenario", ReadFile(source + "/examples/scheduling/cluster.yaml"), "cluster.yaml", "application/yaml"},
      {"trace", ReadFile(source + "/examples/scheduling/trace.csv"), "trace.csv", "text/csv"}};
  httplib::Result posted = t.Client().Post("/api/runs?kind=schedule&name=cluster.yaml", parts);
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 201) << posted->body;
  const std::string schedule = nlohmann::json::parse(posted->body)["id"];
  for (const std::string& id : {plan, schedule}) {
    ASSERT_EQ(t.WaitFor(id, "running").value("status", ""), "running") << id;
    httplib::Result r = t.Client().Delete(("/api/runs/" + id).c_str());
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 202) << id;
  }
  for (const std::string& id : {plan, schedule}) {
    const nlohmann::json ended = t.WaitFor(id, "cancelled", std::chrono::seconds(20));
    EXPECT_EQ(ended.value("status", ""), "cancelled") << ended.dump();
    EXPECT_TRUE(ended["summary"].is_null()) << id;
    // It stopped before its work was done, not after.
    EXPECT_LT(ended.value("progress", 1.0), 1.0) << ended.dump();
    EXPECT_FALSE(std::filesystem::exists(t.store_dir() + "/runs/" + id)) << id;
  }
}

}  // namespace
}  // namespace aifabric::testing
