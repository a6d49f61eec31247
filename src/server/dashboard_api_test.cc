// The dashboard's endpoints over loopback: the page and its files as the
// repository holds them, nothing else under /dashboard/, the examples as
// their files and each accepted by POST /api/runs, and a run's topology.
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/text_file.h"
#include "server/serve_test_util.h"
#include "test_paths.h"

namespace aifabric {
namespace {

using serve_testing::kSmallScenario;
using serve_testing::TestServer;

std::string RepoFile(const std::string& path) {
  Result<std::string> text = ReadTextFile(std::string(AIFABRIC_SOURCE_DIR) + "/" + path);
  EXPECT_TRUE(text.ok()) << path;
  return text.ok() ? *text : "";
}

TEST(DashboardApi, ServesThePageAndItsFilesAsTheRepositoryHoldsThem) {
  TestServer t;
  struct Served {
    std::string url, repo_path, content_type;
  };
  const std::vector<Served> files = {
      {"/", "web/dashboard/index.html", "text/html; charset=utf-8"},
      {"/dashboard/index.html", "web/dashboard/index.html", "text/html; charset=utf-8"},
      {"/dashboard/dashboard.css", "web/dashboard/dashboard.css", "text/css; charset=utf-8"},
      {"/dashboard/dashboard.js", "web/dashboard/dashboard.js", "text/javascript; charset=utf-8"},
      {"/dashboard/dashboard_live.js", "web/dashboard/dashboard_live.js", "text/javascript; charset=utf-8"},
      {"/dashboard/dashboard_views.js", "web/dashboard/dashboard_views.js", "text/javascript; charset=utf-8"},
      {"/dashboard/echarts.min.js", "web/report/node_modules/echarts/dist/echarts.min.js",
       "text/javascript; charset=utf-8"},
  };
  for (const Served& f : files) {
    httplib::Result r = t.Client().Get(f.url.c_str());
    ASSERT_TRUE(r) << f.url;
    EXPECT_EQ(r->status, 200) << f.url;
    EXPECT_EQ(r->get_header_value("Content-Type"), f.content_type) << f.url;
    EXPECT_EQ(r->body, RepoFile(f.repo_path)) << f.url;
    // The page may load and ask for nothing but this server.
    const std::string csp = r->get_header_value("Content-Security-Policy");
    EXPECT_NE(csp.find("default-src 'none'"), std::string::npos) << f.url << ": " << csp;
    EXPECT_NE(csp.find("connect-src 'self'"), std::string::npos) << f.url << ": " << csp;
    EXPECT_EQ(r->get_header_value("X-Content-Type-Options"), "nosniff") << f.url;
  }
  // Every script and style the page names is one of those files.
  const std::string page = RepoFile("web/dashboard/index.html");
  for (const char* ref : {"/dashboard/echarts.min.js", "/dashboard/dashboard.js", "/dashboard/dashboard_live.js",
                          "/dashboard/dashboard_views.js", "/dashboard/dashboard.css"}) {
    EXPECT_NE(page.find(std::string("\"") + ref + "\""), std::string::npos) << ref;
  }
}

TEST(DashboardApi, NothingElseIsReachable) {
  TestServer t;
  for (const std::string url :
       {"/dashboard/nope.js", "/dashboard/", "/dashboard/..%2FCMakeLists.txt", "/dashboard/%2E%2E%2F%2E%2E%2FREADME.md",
        "/dashboard/../../README.md", "/index.html", "/web/dashboard/index.html", "/dashboard/check_dashboard.mjs",
        "/dashboard/dashboard.js/x"}) {
    httplib::Result r = t.Client().Get(url.c_str());
    ASSERT_TRUE(r) << url;
    EXPECT_EQ(r->status, 404) << url << ": " << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json") << url;
  }
}

TEST(DashboardApi, ExamplesAreTheRepositoryFilesQuickstartFirstAndEachStarts) {
  ServeOptions options;
  options.workers = 1;
  TestServer t(options);
  httplib::Result r = t.Client().Get("/api/examples");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  const nlohmann::json examples = nlohmann::json::parse(r->body).at("examples");
  ASSERT_GE(examples.size(), 2u);
  EXPECT_EQ(examples[0]["name"], "quickstart");
  EXPECT_EQ(examples[0]["file"], "examples/quickstart.yaml");
  std::set<std::string> names;
  std::vector<std::string> ids;
  for (const nlohmann::json& e : examples) {
    const std::string file = e.at("file");
    EXPECT_TRUE(names.insert(e.at("name").get<std::string>()).second) << "two examples named " << e["name"];
    EXPECT_EQ(e.at("body").get<std::string>(), RepoFile(file)) << file;
    // Posted as the page posts it: its kind, its query, its body.
    const std::string kind = e.at("kind"), extra = e.at("query");
    std::string query = "kind=";
    query.append(kind);
    if (!extra.empty()) query.append("&").append(extra);
    httplib::Result posted = t.Post(query, e.at("body").get<std::string>());
    ASSERT_TRUE(posted) << file;
    EXPECT_EQ(posted->status, 201) << file << ": " << posted->body;
    if (posted->status == 201) ids.push_back(nlohmann::json::parse(posted->body).at("id"));
  }
  // Cancelled (or already done) rather than run to the end.
  for (const std::string& id : ids) {
    httplib::Result d = t.Client().Delete(("/api/runs/" + id).c_str());
    ASSERT_TRUE(d);
    EXPECT_TRUE(d->status == 202 || d->status == 409) << d->status << " " << d->body;
  }
}

TEST(DashboardApi, InfoSaysWhetherChangesNeedTheToken) {
  for (const std::string token : {"", "s3cret"}) {
    ServeOptions options;
    options.token = token;
    options.workers = 3;
    TestServer t(options);
    httplib::Result r = t.Client().Get("/api/info");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200);
    const nlohmann::json info = nlohmann::json::parse(r->body);
    EXPECT_EQ(info["token_required"], !token.empty()) << token;
    EXPECT_EQ(info["workers"], 3);
  }
}

TEST(DashboardApi, TopologyOfARunIsItsFabricLinkForLinkAsLinksCsv) {
  TestServer t;
  const std::string id = t.Start("kind=run", kSmallScenario);
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(t.WaitFor(id, "done").value("status", ""), "done");
  httplib::Result r = t.Client().Get(("/api/runs/" + id + "/topology").c_str());
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  const nlohmann::json topology = nlohmann::json::parse(r->body);
  // 4 hosts, 2 per leaf: 2 leaves; 2 spines, each leaf with 2 uplinks at
  // oversubscription 1, one to each spine (fabric/leaf_spine_builder.h):
  // 4 + 2 + 2 nodes, 4 host links + 2 * 2 leaf-spine links.
  ASSERT_EQ(topology["nodes"].size(), 8u);
  ASSERT_EQ(topology["links"].size(), 8u);
  int hosts = 0, switches = 0;
  for (const nlohmann::json& n : topology["nodes"]) {
    (n["kind"] == "host" ? hosts : switches)++;
    EXPECT_EQ(n["tier"].get<int>(), n["kind"] == "host" ? 0 : (n["name"].get<std::string>().rfind("leaf", 0) == 0 ? 1 : 2))
        << n.dump();
  }
  EXPECT_EQ(hosts, 4);
  EXPECT_EQ(switches, 4);
  // links.csv has a row per direction: link i is rows 2i (a->b) and 2i+1 (b->a).
  httplib::Result csv = t.Client().Get(("/api/runs/" + id + "/files/links.csv").c_str());
  ASSERT_TRUE(csv);
  std::vector<std::vector<std::string>> rows;
  size_t at = csv->body.find('\n') + 1;
  while (at < csv->body.size()) {
    const size_t end = csv->body.find('\n', at);
    std::vector<std::string> cells;
    std::string line = csv->body.substr(at, end - at);
    for (size_t c = 0; c != std::string::npos;) {
      const size_t next = line.find(',', c);
      cells.push_back(line.substr(c, next == std::string::npos ? std::string::npos : next - c));
      c = next == std::string::npos ? next : next + 1;
    }
    rows.push_back(cells);
    at = end == std::string::npos ? csv->body.size() : end + 1;
  }
  ASSERT_EQ(rows.size(), 2 * topology["links"].size());
  for (size_t i = 0; i < topology["links"].size(); ++i) {
    const nlohmann::json& l = topology["links"][i];
    EXPECT_EQ(l["id"], i);
    EXPECT_EQ(rows[2 * i][1], l["a"]) << i;
    EXPECT_EQ(rows[2 * i][2], l["b"]) << i;
    EXPECT_EQ(rows[2 * i + 1][1], l["b"]) << i;
    EXPECT_EQ(rows[2 * i + 1][2], l["a"]) << i;
    EXPECT_DOUBLE_EQ(l["rate_gbps"].get<double>(), 100.0);  // 32x100G, 100Gbps NICs
    EXPECT_EQ(l["latency_ns"], 1000);                          // link: {latency: 1us}
  }
}

TEST(DashboardApi, TopologyOfAnUnknownOrUnstartedRunIs404) {
  TestServer t;
  httplib::Result r = t.Client().Get("/api/runs/000000000000-00000000/topology");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  EXPECT_NE(r->body.find("no run"), std::string::npos) << r->body;
  // One worker, busy with a long run: the next waits, and has no folder yet.
  ServeOptions options;
  options.workers = 1;
  TestServer busy(options);
  const std::string running = busy.Start("kind=run", serve_testing::kLongScenario);
  const std::string queued = busy.Start("kind=run", kSmallScenario);
  ASSERT_FALSE(queued.empty());
  ASSERT_EQ(busy.Run(queued).value("status", ""), "queued");
  r = busy.Client().Get(("/api/runs/" + queued + "/topology").c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404) << r->body;
  EXPECT_NE(r->body.find("has no topology"), std::string::npos) << r->body;
  for (const std::string& id : {queued, running}) busy.Client().Delete(("/api/runs/" + id).c_str());
}

}  // namespace
}  // namespace aifabric
