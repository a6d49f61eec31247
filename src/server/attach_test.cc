// A real fabric attached to the server (POST /api/runs?kind=observe and
// --attach) against a loopback stand-in for Prometheus, and a what-if
// beside it (POST /api/runs/{id}/whatif).
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/text_file.h"
#include "report/output_folder.h"
#include "server/fake_prometheus.h"
#include "server/serve_test_util.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using serve_testing::StreamEvent;
using serve_testing::FakePrometheus;
using serve_testing::FreshDir;
using serve_testing::kSmallScenario;
using serve_testing::ParseEvents;
using serve_testing::PromMatrix;
using serve_testing::TestServer;

// An HPCC topology.txt: hosts h0, h1, h2 on switch sw3, 100 Gbps each.
constexpr const char* kTopology =
    "4 1 3\n"
    "3\n"
    "0 3 100Gbps 0.001ms 0\n"
    "1 3 100Gbps 0.001ms 0\n"
    "2 3 100Gbps 0.001ms 0\n";

// The what-if template: the same fabric, h1 and h2 writing 1 MiB to h0.
constexpr const char* kWhatIf =
    "name: whatif\n"
    "seed: 1\n"
    "fabric:\n"
    "  kind: roce\n"
    "  topology: {format: hpcc, file: topology.txt}\n"
    "  switch: 32x100G\n"
    "workload:\n"
    "  - flows:\n"
    "      - {src: 1, dst: 0, size: 1MiB}\n"
    "      - {src: 2, dst: 0, size: 1MiB}\n"
    "simulation: {until: 10ms}\n";

// Our own exporter's counters over the default 30 s window, scraped at
// t = 100, 101, 102 s, the simulation's clock at 0.01, 0.02, 0.03 s (a
// span of 0.02 s). By hand, at 100 Gbps:
//   sw3 -> h0: 0, 1.1875e8, 2.375e8 B: 2.375e8 x 8 / (1e11 x 0.02) = 0.95,
//              at least the saturated_link rule's 0.9: the top finding;
//              10 -> 17 discards: 7 drops; 0 -> 40 ECN marks;
//   h1 -> sw3: 0, 5e7, 1e8 B: 1e8 x 8 / (1e11 x 0.02) = 0.4.
std::map<std::string, std::string> HotSpotCounters() {
  std::map<std::string, std::string> a;
  a["aifabric_sim_time_seconds[30s]"] = PromMatrix(
      R"({"metric":{"__name__":"aifabric_sim_time_seconds"},"values":[[100,"0.01"],[101,"0.02"],[102,"0.03"]]})");
  a["aifabric_port_transmit_bytes_total[30s]"] = PromMatrix(
      R"({"metric":{"node":"sw3","port":"h0"},"values":[[100,"0"],[101,"1.1875e8"],[102,"2.375e8"]]},
         {"metric":{"node":"h1","port":"sw3"},"values":[[100,"0"],[101,"5e7"],[102,"1e8"]]})");
  a["aifabric_port_transmit_discards_total[30s]"] =
      PromMatrix(R"({"metric":{"node":"sw3","port":"h0"},"values":[[100,"10"],[102,"17"]]})");
  a["aifabric_queue_ecn_marked_packets_total[30s]"] =
      PromMatrix(R"({"metric":{"node":"sw3","port":"h0","priority":"3"},"values":[[100,"0"],[102,"40"]]})");
  return a;
}

// A folder with topology.txt and whatif.yaml, removed at the end.
struct FabricFiles {
  FabricFiles() : dir(FreshDir("fabric")) {
    std::filesystem::create_directories(dir);
    EXPECT_TRUE(WriteFileAtomically(dir + "/topology.txt", kTopology).ok());
    EXPECT_TRUE(WriteFileAtomically(dir + "/whatif.yaml", kWhatIf).ok());
  }
  ~FabricFiles() { std::filesystem::remove_all(dir); }
  std::string Attach(const std::string& url, const std::string& extra = "") const {
    return "name: pod-a\n"
           "prometheus: " + url + "\n"
           "topology: {format: hpcc, file: " + dir + "/topology.txt}\n"
           "interval: 1s\n"
           "timeout: 1s\n"
           "scenario: {file: " + dir + "/whatif.yaml}\n" + extra;
  }
  const std::string dir;
};

// The events of run `id` until `enough` says so (or the stream ends).
std::vector<StreamEvent> EventsUntil(const TestServer& t, const std::string& id,
                               const std::function<bool(const std::vector<StreamEvent>&)>& enough) {
  std::string body;
  std::vector<StreamEvent> events;
  t.Client().Get(("/api/runs/" + id + "/events").c_str(), [&](const char* data, size_t n) {
    body.append(data, n);
    const size_t complete = body.rfind("\n\n");
    events = ParseEvents(complete == std::string::npos ? "" : body.substr(0, complete + 2));
    return !enough(events);
  });
  return events;
}

size_t Count(const std::vector<StreamEvent>& events, const std::string& type) {
  size_t n = 0;
  for (const StreamEvent& e : events) n += e.type == type;
  return n;
}

const nlohmann::json* PortOf(const nlohmann::json& snapshot, const std::string& node, const std::string& peer) {
  for (const nlohmann::json& p : snapshot["ports"]) {
    if (p["node"] == node && p["port"] == peer) return &p;
  }
  return nullptr;
}

TEST(Attach, PublishesEachPassAsARunsEventsUntilDetached) {
  FakePrometheus prometheus(HotSpotCounters());
  FabricFiles files;
  TestServer t;
  httplib::Result posted = t.Post("kind=observe", files.Attach(prometheus.url()));
  ASSERT_TRUE(posted);
  ASSERT_EQ(posted->status, 201) << posted->body;
  const std::string id = nlohmann::json::parse(posted->body)["id"];

  // Two passes, one interval (1 s) apart, each a snapshot and then its one finding.
  const std::vector<StreamEvent> events =
      EventsUntil(t, id, [](const std::vector<StreamEvent>& e) { return Count(e, "finding") >= 2; });
  ASSERT_EQ(Count(events, "snapshot"), 2u);
  std::vector<nlohmann::json> snapshots, findings, passes;
  for (const StreamEvent& e : events) {
    if (e.type == "snapshot") snapshots.push_back(e.data);
    if (e.type == "finding") findings.push_back(e.data);
    if (e.type == "progress" && e.data.contains("pass")) passes.push_back(e.data);
  }
  EXPECT_EQ(events.front().type, "progress");
  ASSERT_GE(passes.size(), 2u);
  EXPECT_EQ(passes[0]["pass"], 1);
  EXPECT_EQ(passes[1]["pass"], 2);
  EXPECT_FALSE(passes[0].contains("error")) << passes[0].dump();
  for (size_t i = 0; i < 2; ++i) {
    const nlohmann::json& s = snapshots[i];
    EXPECT_EQ(s["pass"], static_cast<int>(i + 1));
    EXPECT_EQ(s["ports_total"], 2);  // the two ports the series name
    const nlohmann::json* hot = PortOf(s, "sw3", "h0");
    const nlohmann::json* up = PortOf(s, "h1", "sw3");
    ASSERT_TRUE(hot != nullptr && up != nullptr) << s.dump();
    EXPECT_NEAR((*hot)["util"].get<double>(), 0.95, 1e-9);
    EXPECT_NEAR((*up)["util"].get<double>(), 0.4, 1e-9);
    EXPECT_DOUBLE_EQ((*hot)["drops"].get<double>(), 7.0);
    EXPECT_DOUBLE_EQ((*hot)["ecn_marks"].get<double>(), 40.0);
    EXPECT_NEAR(s["max_util"].get<double>(), 0.95, 1e-9);
  }
  // The second snapshot is about one interval after the first.
  EXPECT_GE(snapshots[1]["sim_time_ns"].get<int64_t>() - snapshots[0]["sim_time_ns"].get<int64_t>(), 900000000);
  // Each pass names the hot spot first.
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0]["kind"], "saturated_link");
  EXPECT_EQ(findings[0]["node"], "sw3");
  EXPECT_EQ(findings[0]["port_peer"], "h0");
  EXPECT_EQ(findings[1], findings[0]);  // the counters did not change

  // A run like the others: in the list, its topology and files served.
  const nlohmann::json record = t.Run(id);
  EXPECT_EQ(record["kind"], "observe");
  EXPECT_EQ(record["status"], "running");
  EXPECT_EQ(record["name"], "pod-a");
  httplib::Result topology = t.Client().Get(("/api/runs/" + id + "/topology").c_str());
  ASSERT_TRUE(topology);
  ASSERT_EQ(topology->status, 200);
  const nlohmann::json graph = nlohmann::json::parse(topology->body);
  EXPECT_EQ(graph["nodes"].size(), 4u);
  EXPECT_EQ(graph["links"].size(), 3u);
  httplib::Result diagnosis = t.Client().Get(("/api/runs/" + id + "/files/diagnosis.json").c_str());
  ASSERT_TRUE(diagnosis);
  ASSERT_EQ(diagnosis->status, 200);
  EXPECT_EQ(nlohmann::json::parse(diagnosis->body)["findings"][0]["node"], "sw3");
  httplib::Result observation = t.Client().Get(("/api/runs/" + id + "/files/observation.json").c_str());
  ASSERT_TRUE(observation);
  EXPECT_EQ(observation->status, 200);

  // Detached: done, its files kept, its summary the last pass's.
  httplib::Result detached = t.Client().Delete(("/api/runs/" + id).c_str());
  ASSERT_TRUE(detached);
  EXPECT_EQ(detached->status, 202);
  const nlohmann::json ended = t.WaitFor(id, "done");
  EXPECT_EQ(ended["status"], "done");
  EXPECT_GE(ended["summary"]["passes"].get<int>(), 2);
  EXPECT_EQ(ended["summary"]["failed_passes"], 0);
  EXPECT_EQ(ended["summary"]["top_finding"]["port_peer"], "h0");
  diagnosis = t.Client().Get(("/api/runs/" + id + "/files/diagnosis.json").c_str());
  ASSERT_TRUE(diagnosis);
  EXPECT_EQ(diagnosis->status, 200);
  EXPECT_GE(prometheus.queries(), 2 * 6);  // the clock and five counters, each pass
}

TEST(Attach, AWhatIfSimulatesTheSameFabricLinkedToTheAttachment) {
  FakePrometheus prometheus(HotSpotCounters());
  FabricFiles files;
  TestServer t;
  const std::string id = t.Start("kind=observe", files.Attach(prometheus.url()));
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(t.WaitFor(id, "running")["status"], "running");
  // The topology is written as the attachment starts; wait for it.
  for (int i = 0; i < 500 && !std::filesystem::exists(t.store_dir() + "/runs/" + id + "/topology.json"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  httplib::Result r = t.Client().Post(("/api/runs/" + id + "/whatif?set=fabric.mtu%3D1KiB").c_str(), "",
                                      "application/yaml");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 201) << r->body;
  const std::string whatif = nlohmann::json::parse(r->body)["id"];
  const nlohmann::json done = t.WaitFor(whatif, "done");
  EXPECT_EQ(done["status"], "done") << done.dump();
  EXPECT_EQ(done["kind"], "run");
  EXPECT_EQ(done["whatif_of"], id);
  // Two 1 MiB flows into h0.
  EXPECT_EQ(done["summary"]["flows"]["count"], 2);
  // It is listed with its link.
  httplib::Result list = t.Client().Get("/api/runs");
  ASSERT_TRUE(list);
  bool listed = false;
  const nlohmann::json runs = nlohmann::json::parse(list->body);
  for (const nlohmann::json& run : runs["runs"]) {
    if (run["id"] == whatif) listed = run["whatif_of"] == id;
  }
  EXPECT_TRUE(listed) << list->body;

  // A scenario of another fabric is refused, naming what differs.
  r = t.Client().Post(("/api/runs/" + id + "/whatif?name=other.yaml").c_str(), kSmallScenario, "application/yaml");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_THAT(r->body, HasSubstr("other.yaml: the what-if must simulate the attached fabric"));
  // A what-if needs an attached fabric, and a known run.
  r = t.Client().Post(("/api/runs/" + whatif + "/whatif").c_str(), "", "application/yaml");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_THAT(r->body, HasSubstr("a what-if goes beside an attached fabric"));
  r = t.Client().Post("/api/runs/000000000000-00000000/whatif", "", "application/yaml");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 404);
  r = t.Client().Post(("/api/runs/" + id + "/whatif?policy=x").c_str(), "", "application/yaml");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_THAT(r->body, HasSubstr("query parameter policy is not one a what-if takes"));
}

TEST(Attach, BadAttachmentsAreRefusedWithTheFieldNamed) {
  FabricFiles files;
  ServeOptions options;
  options.max_attachments = 1;
  TestServer t(options);
  struct Case {
    std::string body, error;
  };
  const std::string url = "http://127.0.0.1:9";  // never asked: each is refused first
  const std::vector<Case> cases = {
      {files.Attach(url, "window: 10s\n") + "interval: 2s\n", "interval"},  // repeated key
      {"prometheus: " + url + "\ntopology: {format: hpcc, file: " + files.dir + "/topology.txt}\ninterval: 500ms\n",
       "attach.yaml:3:11: interval: expected at least 1s"},
      {"prometheus: https://127.0.0.1:9090\ntopology: {format: hpcc, file: " + files.dir + "/topology.txt}\n",
       "attach.yaml:1:13: prometheus: "},
      {"prometheus: " + url + "\n", "attach.yaml:1:1: topology: required, missing"},
      {"prometheus: " + url + "\ntopology: {format: hpcc, file: " + files.dir + "/nothing.txt}\n",
       "topology.file: file not found"},
      {"prometheus: " + url + "\ntopology: {format: hpcc, text: \"2 1 1\\n1\\n0 7 100Gbps 0.001ms 0\\n\"}\n",
       "topology.text"},
      {"prometheus: " + url + "\ntopology: {format: hpcc, file: " + files.dir + "/topology.txt}\nexporter: snmp\n",
       "attach.yaml:3:11: exporter: "},
  };
  for (const Case& c : cases) {
    httplib::Result r = t.Post("kind=observe", c.body);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400) << c.body;
    EXPECT_THAT(r->body, HasSubstr(c.error)) << c.body;
  }
  // At most --max-attachments at once; /metrics counts the attached.
  EXPECT_THAT(t.Client().Get("/metrics")->body, HasSubstr("\naifabric_server_attachments 0\n"));
  FakePrometheus prometheus(HotSpotCounters());
  const std::string first = t.Start("kind=observe", files.Attach(prometheus.url()));
  ASSERT_FALSE(first.empty());
  const std::string metrics = t.Client().Get("/metrics")->body;
  EXPECT_THAT(metrics, HasSubstr("\naifabric_server_attachments 1\n"));
  EXPECT_THAT(metrics, HasSubstr("\naifabric_server_max_attachments 1\n"));
  httplib::Result second = t.Post("kind=observe", files.Attach(prometheus.url()));
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 400);
  EXPECT_THAT(second->body, HasSubstr("limit: the server attaches at most 1 fabrics at once"));
  // Detaching frees the place.
  ASSERT_TRUE(t.Client().Delete(("/api/runs/" + first).c_str()));
  ASSERT_EQ(t.WaitFor(first, "done")["status"], "done");
  std::string again;
  for (int i = 0; i < 200 && again.empty(); ++i) {
    httplib::Result r = t.Post("kind=observe", files.Attach(prometheus.url()));
    if (r && r->status == 201) again = nlohmann::json::parse(r->body)["id"];
    else std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(again.empty());
}

// A pass that fails (Prometheus answers no counters) is published and the
// attachment goes on.
TEST(Attach, AFailedPassIsReportedAndTheLoopGoesOn) {
  FakePrometheus empty({});
  FabricFiles files;
  TestServer t;
  const std::string id = t.Start("kind=observe", files.Attach(empty.url()));
  ASSERT_FALSE(id.empty());
  const std::vector<StreamEvent> events = EventsUntil(t, id, [](const std::vector<StreamEvent>& e) {
    size_t failed = 0;
    for (const StreamEvent& x : e) failed += x.type == "progress" && x.data.contains("error");
    return failed >= 2;
  });
  std::vector<std::string> errors;
  for (const StreamEvent& e : events) {
    if (e.type == "progress" && e.data.contains("error")) errors.push_back(e.data["error"]);
  }
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_THAT(errors[0], HasSubstr("aifabric_sim_time_seconds: expected one series (the exporter's clock), got 0"));
  EXPECT_EQ(t.Run(id)["status"], "running");
}

// --attach FILE attaches at every start; a stop ends the attachment done.
TEST(Attach, CommandLineAttachmentsAreAttachedAtEachStartAndEndDoneOnStop) {
  FakePrometheus prometheus(HotSpotCounters());
  FabricFiles files;
  const std::string attach = files.dir + "/pod-a.yaml";
  ASSERT_TRUE(WriteFileAtomically(attach, files.Attach(prometheus.url())).ok());
  const std::string store = FreshDir("attach_restart");
  ServeOptions options;
  options.attach_files = {attach};
  std::string first;
  {
    TestServer t(options, store);
    httplib::Result list = t.Client().Get("/api/runs");
    ASSERT_TRUE(list);
    const nlohmann::json runs = nlohmann::json::parse(list->body)["runs"];
    ASSERT_EQ(runs.size(), 1u);
    first = runs[0]["id"];
    EXPECT_EQ(runs[0]["kind"], "observe");
    EXPECT_EQ(runs[0]["name"], "pod-a");
    EXPECT_EQ(t.WaitFor(first, "running")["status"], "running");
  }
  TestServer t(options, store);
  EXPECT_EQ(t.server().interrupted_runs(), 0u);
  const nlohmann::json before = t.Run(first);
  EXPECT_EQ(before["status"], "done");
  EXPECT_EQ(before["error"], "");
  httplib::Result list = t.Client().Get("/api/runs");
  ASSERT_TRUE(list);
  const nlohmann::json runs = nlohmann::json::parse(list->body)["runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_NE(runs[0]["id"], first);
  EXPECT_EQ(runs[0]["name"], "pod-a");
  t.server().Stop();
  std::filesystem::remove_all(store);

  // A bad file stops the start, naming it.
  ASSERT_TRUE(WriteFileAtomically(attach, "prometheus: ftp://x\n").ok());
  ServeOptions bad;
  bad.port = 0;
  bad.store_dir = FreshDir("attach_bad");
  bad.attach_files = {attach};
  Result<std::unique_ptr<ApiServer>> refused = ApiServer::Start(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.error().message, HasSubstr("--attach " + attach + ":1:13: prometheus: "));
  std::filesystem::remove_all(bad.store_dir);
}

}  // namespace
}  // namespace aifabric
