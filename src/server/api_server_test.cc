#include "server/api_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "core/text_file.h"
#include "server/serve_test_util.h"

namespace aifabric {
namespace {

using serve_testing::kLongScenario;
using serve_testing::kSmallScenario;
using serve_testing::TestServer;

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string ErrorOf(const httplib::Result& r) {
  if (!r) return "(no answer)";
  const nlohmann::json body = nlohmann::json::parse(r->body, nullptr, false);
  return body.is_object() && body.contains("error") ? body["error"].get<std::string>() : "(not a JSON error: " + r->body + ")";
}

TEST(ApiServer, RunsAScenarioAndServesItsSummaryAndFiles) {
  TestServer t;
  const std::string id = t.Start("kind=run", kSmallScenario);
  ASSERT_FALSE(id.empty());
  const nlohmann::json run = t.WaitFor(id, "done");
  ASSERT_EQ(run.value("status", ""), "done") << run.dump();
  EXPECT_EQ(run["kind"], "run");
  EXPECT_DOUBLE_EQ(run["progress"].get<double>(), 1.0);
  EXPECT_GT(run["finished_ms"].get<int64_t>(), 0);
  // A permutation of 4 hosts is 4 flows of 256 KiB.
  EXPECT_EQ(run["summary"]["flows"]["count"], 4);
  EXPECT_EQ(run["summary"]["scenario"], "small");
  // The summary served is the summary.json of the run's folder, and the
  // file endpoint serves that file byte for byte.
  Result<std::string> file = ReadTextFile(t.store_dir() + "/runs/" + id + "/summary.json");
  ASSERT_TRUE(file.ok());
  EXPECT_EQ(run["summary"], nlohmann::json::parse(*file));
  httplib::Result served = t.Client().Get(("/api/runs/" + id + "/files/summary.json").c_str());
  ASSERT_TRUE(served);
  EXPECT_EQ(served->status, 200);
  EXPECT_EQ(served->body, *file);
  EXPECT_EQ(served->get_header_value("Content-Type"), "application/json");
  // The scenario as posted is kept beside the outputs.
  served = t.Client().Get(("/api/runs/" + id + "/files/input/scenario.yaml").c_str());
  ASSERT_TRUE(served);
  EXPECT_EQ(served->body, kSmallScenario);
  // The scenario hash is SHA-256 of the body (64 hex digits).
  EXPECT_EQ(run["scenario_sha256"].get<std::string>().size(), 64u);
}

TEST(ApiServer, FilesOutsideTheRunFolderAreNotServed) {
  TestServer t;
  const std::string id = t.Start("kind=run", kSmallScenario);
  ASSERT_EQ(t.WaitFor(id, "done").value("status", ""), "done");
  for (const std::string name : {"../../runs.sqlite", "..%2F..%2Fruns.sqlite", "%2E%2E/%2E%2E/runs.sqlite",
                                  "no_such_file.csv", "input"}) {
    httplib::Result r = t.Client().Get(("/api/runs/" + id + "/files/" + name).c_str());
    ASSERT_TRUE(r) << name;
    EXPECT_EQ(r->status, 404) << name << ": " << r->body;
  }
}

TEST(ApiServer, BadScenarioIs400WithTheFieldNamed) {
  TestServer t;
  // Line 3 holds cluster.servers (see kSmallScenario).
  httplib::Result r = t.Post("kind=run", Replace(kSmallScenario, "servers: 4", "servers: 0"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("scenario.yaml:3"), std::string::npos) << ErrorOf(r);
  EXPECT_NE(ErrorOf(r).find("cluster.servers"), std::string::npos) << ErrorOf(r);
  // The origin is the `name` parameter when given.
  r = t.Post("kind=run&name=mine.yaml", Replace(kSmallScenario, "latency: 1us", "latency: 5parsecs"));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("mine.yaml:7"), std::string::npos) << ErrorOf(r);
  EXPECT_NE(ErrorOf(r).find("fabric.link.latency"), std::string::npos) << ErrorOf(r);
  // A --set for an unknown field, as the CLI words it.
  r = t.Post("kind=run&set=fabric.color%3Dblue", kSmallScenario);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("fabric.color"), std::string::npos) << ErrorOf(r);
  // Nothing was queued.
  r = t.Client().Get("/api/runs");
  ASSERT_TRUE(r);
  EXPECT_EQ(nlohmann::json::parse(r->body)["total"], 0);
}

TEST(ApiServer, UnknownKindsAndParametersAre400) {
  TestServer t;
  for (const std::string query : {"kind=simulate", "", "kind=run&colour=red", "kind=collective&f=two"}) {
    httplib::Result r = t.Post(query, kSmallScenario);
    ASSERT_TRUE(r) << query;
    EXPECT_EQ(r->status, 400) << query;
  }
  EXPECT_NE(ErrorOf(t.Post("kind=simulate", kSmallScenario)).find("kind"), std::string::npos);
  EXPECT_NE(ErrorOf(t.Post("kind=run&colour=red", kSmallScenario)).find("colour"), std::string::npos);
  // The collective's flags are checked as the CLI checks them.
  EXPECT_NE(ErrorOf(t.Post("kind=collective&op=all_mix", "")).find("--op"), std::string::npos);
}

TEST(ApiServer, OverridesApply) {
  TestServer t;
  const std::string id = t.Start("kind=run&model=flow&set=seed%3D9", kSmallScenario);
  const nlohmann::json run = t.WaitFor(id, "done");
  ASSERT_EQ(run.value("status", ""), "done") << run.dump();
  EXPECT_EQ(run["summary"]["model"], "flow");
  EXPECT_EQ(run["summary"]["seed"], 9);
}

TEST(ApiServer, TokenGuardsEveryChangeButNotReads) {
  ServeOptions options;
  options.token = "s3cret";
  TestServer t(options);
  httplib::Result r = t.Post("kind=run", kSmallScenario);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  EXPECT_NE(ErrorOf(r).find("Authorization"), std::string::npos);
  r = t.Post("kind=run", kSmallScenario, {{"Authorization", "Bearer wrong!"}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  r = t.Post("kind=run", kSmallScenario, {{"Authorization", "Bearer s3cret"}});
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 201) << r->body;
  const std::string id = nlohmann::json::parse(r->body)["id"];
  r = t.Client().Delete(("/api/runs/" + id).c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 401);
  r = t.Client().Get(("/api/runs/" + id).c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(t.WaitFor(id, "done").value("status", ""), "done");
}

TEST(ApiServer, UnknownIdsAre404) {
  TestServer t;
  httplib::Client c = t.Client();
  for (const std::string path : {"/api/runs/nope", "/api/runs/nope/events", "/api/runs/nope/files/summary.json",
                                  "/api/nothing"}) {
    httplib::Result r = c.Get(path.c_str());
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path;
    EXPECT_FALSE(ErrorOf(r).empty());
  }
  httplib::Result r = c.Delete("/api/runs/nope");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
}

TEST(ApiServer, BodyOverTheCapIs413) {
  ServeOptions options;
  options.limits.max_body_bytes = 1024;
  TestServer t(options);
  const std::string big = std::string(kSmallScenario) + "# " + std::string(2000, 'x') + "\n";
  httplib::Result r = t.Post("kind=run", big);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(ErrorOf(r).find("--max-body-bytes 1024"), std::string::npos) << r->body;
  // Under the cap it is taken.
  EXPECT_FALSE(t.Start("kind=run", kSmallScenario).empty());
}

TEST(ApiServer, LimitsAreRefusedBeforeAnythingStarts) {
  ServeOptions options;
  options.limits.max_hosts = 3;
  options.limits.max_sim_time = Time::FromMs(5);
  TestServer t(options);
  // 4 servers x 1 NIC = 4 hosts.
  httplib::Result r = t.Post("kind=run", kSmallScenario);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("4 hosts"), std::string::npos) << ErrorOf(r);
  EXPECT_NE(ErrorOf(r).find("--max-hosts 3"), std::string::npos) << ErrorOf(r);
  // 2 servers fit, but until: 10ms is over --max-sim-time.
  const std::string two = Replace(kSmallScenario, "servers: 4", "servers: 2");
  r = t.Post("kind=run", two);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("--max-sim-time 5 ms"), std::string::npos) << ErrorOf(r);
  r = t.Post("kind=run", Replace(two, "simulation: {until: 10ms}\n", ""));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("simulation.until is not set"), std::string::npos) << ErrorOf(r);
  r = t.Client().Get("/api/runs");
  ASSERT_TRUE(r);
  EXPECT_EQ(nlohmann::json::parse(r->body)["total"], 0);
  EXPECT_TRUE(std::filesystem::is_empty(t.store_dir() + "/runs"));
}

TEST(ApiServer, EstimatedEventsOverTheLimitAreRefusedBeforeQueuing) {
  // The long scenario: 16 x 96 MiB and 12 x 16 MiB in 442,368 packets of
  // 4 KiB, over at most 4 links (two leaves, two spines) x 3 events =
  // 5.3e6 events (the engine's: 4.5 M), over 50,000.
  ServeOptions options;
  options.limits.max_events = 50'000;
  TestServer t(options);
  httplib::Result r = t.Post("kind=run", kLongScenario);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(ErrorOf(r),
            "limit: workload: estimated 5.3e+06 events in one simulation at packet level (the costliest workload.0: "
            "16 flows of 1.6e+09 bytes in all), over the server's --max-events 50000");
  // A collective sweep is held to it too: the built-in cluster's 32 MiB
  // all-reduce.
  r = t.Post("kind=collective", "");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("limit: collective: estimated"), std::string::npos) << ErrorOf(r);
  r = t.Client().Get("/api/runs");
  ASSERT_TRUE(r);
  EXPECT_EQ(nlohmann::json::parse(r->body)["total"], 0);
}

TEST(ApiServer, EventLimitFailsTheRunWhileItGoes) {
  // The estimate counts each byte once; packet spraying with go-back-N
  // resends most of them (reordered packets read as losses), so the long
  // scenario sprayed passes the estimate (5.3e6 events, under 8e6) and the
  // engine's heartbeat cuts it off (it would run 14.9 M).
  ServeOptions options;
  options.limits.max_events = 8'000'000;
  TestServer t(options);
  const std::string sprayed =
      Replace(kLongScenario, "  link: {latency: 1us}\n", "  link: {latency: 1us}\n  load_balancing: spray\n");
  ASSERT_NE(sprayed, kLongScenario);
  const std::string id = t.Start("kind=run", sprayed);
  const nlohmann::json run = t.WaitFor(id, "failed");
  EXPECT_EQ(run.value("status", ""), "failed") << run.dump();
  EXPECT_NE(run.value("error", "").find("--max-events 8000000"), std::string::npos) << run.dump();
  EXPECT_FALSE(std::filesystem::exists(t.store_dir() + "/runs/" + id));
}

TEST(ApiServer, CancelsQueuedAndRunningRunsLeavingNoOutputs) {
  ServeOptions options;
  options.workers = 1;
  TestServer t(options);
  const std::string running = t.Start("kind=run", kLongScenario);
  const std::string queued = t.Start("kind=run", kSmallScenario);
  ASSERT_EQ(t.WaitFor(running, "running").value("status", ""), "running");
  EXPECT_EQ(t.Run(queued).value("status", ""), "queued");  // one worker, busy
  httplib::Result r = t.Client().Delete(("/api/runs/" + queued).c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202);
  EXPECT_EQ(t.Run(queued).value("status", ""), "cancelled");
  r = t.Client().Delete(("/api/runs/" + running).c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 202);
  const nlohmann::json ended = t.WaitFor(running, "cancelled", std::chrono::seconds(10));
  EXPECT_EQ(ended.value("status", ""), "cancelled") << ended.dump();
  EXPECT_TRUE(ended["summary"].is_null());
  EXPECT_FALSE(std::filesystem::exists(t.store_dir() + "/runs/" + running));
  EXPECT_FALSE(std::filesystem::exists(t.store_dir() + "/runs/" + queued));
  // A finished run cannot be cancelled.
  r = t.Client().Delete(("/api/runs/" + running).c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 409);
}

TEST(ApiServer, ListsNewestFirstInPages) {
  TestServer t;
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) ids.push_back(t.Start("kind=run&model=flow", kSmallScenario));
  for (const std::string& id : ids) ASSERT_EQ(t.WaitFor(id, "done").value("status", ""), "done");
  httplib::Result r = t.Client().Get("/api/runs?limit=2");
  ASSERT_TRUE(r);
  nlohmann::json page = nlohmann::json::parse(r->body);
  EXPECT_EQ(page["total"], 3);
  ASSERT_EQ(page["runs"].size(), 2u);
  EXPECT_EQ(page["runs"][0]["id"], ids[2]);
  EXPECT_EQ(page["runs"][1]["id"], ids[1]);
  r = t.Client().Get("/api/runs?limit=2&offset=2");
  ASSERT_TRUE(r);
  page = nlohmann::json::parse(r->body);
  ASSERT_EQ(page["runs"].size(), 1u);
  EXPECT_EQ(page["runs"][0]["id"], ids[0]);
  r = t.Client().Get("/api/runs?limit=lots");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
}

TEST(ApiServer, MetricsCountRequestsAndRuns) {
  TestServer t;
  const std::string id = t.Start("kind=run&model=flow", kSmallScenario);
  ASSERT_EQ(t.WaitFor(id, "done").value("status", ""), "done");
  httplib::Client c = t.Client();
  ASSERT_TRUE(c.Get("/api/runs/nope"));
  ASSERT_TRUE(c.Get("/api/runs/nope2"));
  // A request is counted once its answer has been sent, so the client may
  // see the answer a moment before the count: poll (at most 2 s).
  const std::string second_404 = "aifabric_server_requests_total{code=\"404\"} 2\n";
  std::string text;
  for (int i = 0; i < 200 && text.find(second_404) == std::string::npos; ++i) {
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    httplib::Result r = c.Get("/metrics");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    text = r->body;
  }
  EXPECT_NE(text.find("# TYPE aifabric_server_requests_total counter"), std::string::npos) << text;
  // Two unknown ids, one POST.
  EXPECT_NE(text.find("aifabric_server_requests_total{code=\"404\"} 2\n"), std::string::npos) << text;
  EXPECT_NE(text.find("aifabric_server_requests_total{code=\"201\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("aifabric_server_runs{status=\"done\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("aifabric_server_queue_length 0\n"), std::string::npos) << text;
}

TEST(ApiServer, AStalledClientIsCutOff) {
  ServeOptions options;
  options.read_timeout_s = 1;
  options.keep_alive_timeout_s = 1;
  TestServer t(options);
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(t.server().port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  // Half a request line, then silence: the server closes the connection
  // after its read timeout (recv returns 0), well before this test's 10 s.
  const char partial[] = "GET /api/runs HTT";
  ASSERT_EQ(send(fd, partial, sizeof partial - 1, 0), static_cast<ssize_t>(sizeof partial - 1));
  timeval wait{10, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
  const auto before = std::chrono::steady_clock::now();
  char buffer[256];
  const ssize_t got = recv(fd, buffer, sizeof buffer, 0);
  const auto waited = std::chrono::steady_clock::now() - before;
  close(fd);
  EXPECT_LE(got, 0);
  EXPECT_LT(waited, std::chrono::seconds(5));
  // The server still answers others.
  httplib::Result r = t.Client().Get("/api/runs");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
}

TEST(ApiServer, AFormEncodedBodyIsRefusedNotReadAsParameters) {
  TestServer t;
  httplib::Result r = t.Client().Post("/api/runs?kind=run", kSmallScenario, "application/x-www-form-urlencoded");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_NE(ErrorOf(r).find("Content-Type: application/yaml"), std::string::npos) << r->body;
}

}  // namespace
}  // namespace aifabric
