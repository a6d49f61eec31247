// The live feed over HTTP (GET /api/runs/{id}/events) and the store across
// a restart.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "server/run_store.h"
#include "server/serve_test_util.h"

namespace aifabric {
namespace {

using serve_testing::FreshDir;
using serve_testing::kLongScenario;
using serve_testing::kSmallScenario;
using serve_testing::StreamEvent;
using serve_testing::ParseEvents;
using serve_testing::TestServer;

std::vector<StreamEvent> Stream(const TestServer& t, const std::string& id) {
  std::string body;
  httplib::Result r = t.Client().Get(("/api/runs/" + id + "/events").c_str(), [&](const char* data, size_t n) {
    body.append(data, n);
    return true;
  });
  EXPECT_TRUE(r);
  if (r) {
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->get_header_value("Content-Type"), "text/event-stream");
  }
  return ParseEvents(body);
}

TEST(ApiEvents, StreamDeliversProgressSnapshotsFindingsAndTheEndInOrder) {
  TestServer t;
  const std::string id = t.Start("kind=run", kLongScenario);
  ASSERT_FALSE(id.empty());
  const std::vector<StreamEvent> events = Stream(t, id);
  ASSERT_FALSE(events.empty());
  // In order of their ids, starting with progress and ending with the end.
  for (size_t i = 1; i < events.size(); ++i) EXPECT_LT(events[i - 1].id, events[i].id);
  EXPECT_EQ(events.front().type, "progress");
  EXPECT_EQ(events.back().type, "end");
  EXPECT_EQ(events.back().data["status"], "done");
  EXPECT_EQ(events.back().data["id"], id);
  size_t snapshots = 0, progresses = 0, findings = 0;
  std::vector<nlohmann::json> finding_events;
  double last_progress = -1;
  int64_t last_sim_ns = -1;
  for (const StreamEvent& e : events) {
    if (e.type == "progress") {
      ++progresses;
      const double p = e.data["progress"].get<double>();
      EXPECT_GE(p, last_progress);  // never goes back
      EXPECT_LE(p, 1.0);
      last_progress = p;
    } else if (e.type == "snapshot") {
      ++snapshots;
      EXPECT_EQ(findings, 0u) << "a snapshot after the findings";
      const int64_t sim_ns = e.data["sim_time_ns"].get<int64_t>();
      EXPECT_GE(sim_ns, last_sim_ns);
      last_sim_ns = sim_ns;
      // 16 hosts, 8 per leaf; each non-blocking leaf has 8 uplinks, 4 to
      // each spine: 16 host links + 16 leaf-spine links, two ports each.
      EXPECT_EQ(e.data["ports_total"], 64);
      // A packet's bytes count when it starts on the wire, so one sampling
      // interval (10 us, doubled by each downsampling) can read at most one
      // full frame over line rate: (4096 + 82) * 8 / (100 Gb/s * 10 us).
      const double one_frame = (4096 + 82) * 8 / (100e9 * 10e-6);
      for (const nlohmann::json& p : e.data["ports"]) {
        EXPECT_GE(p["util"].get<double>(), 0.0);
        EXPECT_LE(p["util"].get<double>(), 1.0 + one_frame);
        EXPECT_TRUE(p.contains("queue_bytes") && p.contains("drops") && p.contains("pfc_pause_ns") &&
                    p.contains("ecn_marks") && p.contains("queue_delay_ns"));
      }
    } else if (e.type == "finding" && e.data.value("live", false)) {
      EXPECT_EQ(findings, 0u) << "a live finding after the final ones";
    } else if (e.type == "finding") {
      ++findings;
      finding_events.push_back(e.data);
    }
  }
  EXPECT_GE(progresses, 2u);
  EXPECT_GE(snapshots, 2u);
  EXPECT_DOUBLE_EQ(last_progress, 1.0);
  // Every finding of the final diagnosis.json came as an event.
  httplib::Result file = t.Client().Get(("/api/runs/" + id + "/files/diagnosis.json").c_str());
  ASSERT_TRUE(file);
  ASSERT_EQ(file->status, 200);
  const nlohmann::json diagnosis = nlohmann::json::parse(file->body);
  ASSERT_EQ(findings, diagnosis["findings"].size());
  EXPECT_GE(findings, 1u);  // the 12-to-1 incast on h0
  for (size_t i = 0; i < findings; ++i) EXPECT_EQ(finding_events[i], diagnosis["findings"][i]) << i;
  // Connecting after the end: the end at once.
  const std::vector<StreamEvent> late = Stream(t, id);
  ASSERT_EQ(late.size(), 1u);
  EXPECT_EQ(late[0].type, "end");
  EXPECT_EQ(late[0].data["status"], "done");
}

// Three senders into h0 with PFC and no congestion control: the ToR's
// port to h0 is the root of a pause tree (the final diagnosis's top
// finding), which counters show while the run goes. (kLongScenario's
// incast needs the flows, which only the final diagnosis has.)
constexpr const char* kPauseRootScenario =
    "name: pause_root\n"
    "seed: 3\n"
    "cluster: {servers: 4, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
    "fabric:\n"
    "  kind: roce\n"
    "  topology: {type: leaf_spine, hosts_per_leaf: 4, spines: 1}\n"
    "  switch: 32x100G\n"
    "  link: {latency: 1us}\n"
    "  roce: {cc: none}\n"
    "workload:\n"
    "  - flows:\n"
    "      - {src: 1, dst: 0, size: 160MiB}\n"
    "      - {src: 2, dst: 0, size: 160MiB}\n"
    "      - {src: 3, dst: 0, size: 160MiB}\n"
    "simulation: {until: 200ms}\n";

TEST(ApiEvents, AHotSpotIsALiveFindingBeforeTheEnd) {
  // A diagnosis at every snapshot of what was sampled so far names the
  // final diagnosis's top port (kind, node, peer) before the run ends.
  ServeOptions options;
  options.publish_every = std::chrono::milliseconds(10);
  options.diagnose_every = std::chrono::milliseconds(0);
  TestServer t(options);
  const std::string id = t.Start("kind=run", kPauseRootScenario);
  ASSERT_FALSE(id.empty());
  const std::vector<StreamEvent> events = Stream(t, id);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.back().type, "end");
  httplib::Result file = t.Client().Get(("/api/runs/" + id + "/files/diagnosis.json").c_str());
  ASSERT_TRUE(file);
  ASSERT_EQ(file->status, 200);
  const nlohmann::json diagnosis = nlohmann::json::parse(file->body);
  ASSERT_GE(diagnosis["findings"].size(), 1u);
  const nlohmann::json& top = diagnosis["findings"][0];
  // Live findings come before the final progress (1.0), each only once.
  std::set<std::string> keys;
  bool named_top = false, final_seen = false;
  for (const StreamEvent& e : events) {
    if (e.type == "progress" && e.data["progress"] == 1.0) final_seen = true;
    if (e.type != "finding" || !e.data.value("live", false)) continue;
    EXPECT_FALSE(final_seen) << "a live finding after the run finished";
    EXPECT_TRUE(keys.insert(e.data["kind"].dump() + e.data["node"].dump() + e.data["port_peer"].dump()).second)
        << "published twice: " << e.data.dump();
    if (e.data["kind"] == top["kind"] && e.data["node"] == top["node"] && e.data["port_peer"] == top["port_peer"]) {
      named_top = true;
    }
  }
  EXPECT_EQ(top["kind"], "pfc_pause_root");
  EXPECT_EQ(top["node"], "leaf0");
  EXPECT_EQ(top["port_peer"], "h0");
  EXPECT_TRUE(named_top) << "no live finding named " << top["kind"] << " " << top["node"] << " -> " << top["port_peer"];
}

TEST(ApiEvents, SnapshotsComeAtMostEveryPublishInterval) {
  ServeOptions options;
  options.publish_every = std::chrono::milliseconds(250);
  TestServer t(options);
  const std::string id = t.Start("kind=run", kLongScenario);
  std::string body;
  httplib::Result r = t.Client().Get(("/api/runs/" + id + "/events").c_str(), [&](const char* data, size_t n) {
    body.append(data, n);
    return true;
  });
  ASSERT_TRUE(r);
  // The feed stamps nothing with wall time, so check the run's own
  // throttle: snapshots, less the last (published at the end), cannot
  // outnumber the wall time of the run over 250 ms, plus one.
  const nlohmann::json run = t.Run(id);
  const double wall_ms = static_cast<double>(run["finished_ms"].get<int64_t>() - run["started_ms"].get<int64_t>());
  size_t snapshots = 0;
  for (const StreamEvent& e : ParseEvents(body)) snapshots += e.type == "snapshot";
  EXPECT_GE(snapshots, 1u);
  EXPECT_LE(static_cast<double>(snapshots), wall_ms / 250.0 + 2) << wall_ms << " ms";
}

TEST(ApiEvents, RestartKeepsFinishedRunsAndFailsInterruptedOnes) {
  const std::string store = FreshDir("restart");
  std::string done_id;
  {
    TestServer t({}, store);
    done_id = t.Start("kind=run&model=flow", kSmallScenario);
    ASSERT_EQ(t.WaitFor(done_id, "done").value("status", ""), "done");
  }
  // A run the restart cut short: in the table as running, as a killed
  // server would leave it.
  {
    Result<std::unique_ptr<RunStore>> s = RunStore::Open(store);
    ASSERT_TRUE(s.ok());
    RunRecord cut;
    cut.id = "000000000001-deadbeef";
    cut.kind = "run";
    cut.scenario_sha256 = std::string(64, '0');
    cut.created_ms = 1;
    cut.started_ms = 2;
    cut.status = RunStatus::kRunning;
    ASSERT_TRUE((*s)->Insert(cut).ok());
  }
  TestServer t({}, store);
  EXPECT_EQ(t.server().interrupted_runs(), 1u);
  httplib::Result r = t.Client().Get("/api/runs");
  ASSERT_TRUE(r);
  const nlohmann::json list = nlohmann::json::parse(r->body);
  ASSERT_EQ(list["total"], 2);
  EXPECT_EQ(list["runs"][0]["id"], done_id);
  EXPECT_EQ(list["runs"][0]["status"], "done");
  EXPECT_EQ(list["runs"][1]["status"], "failed");
  EXPECT_EQ(list["runs"][1]["error"], "server restarted");
  const nlohmann::json done = t.Run(done_id);
  EXPECT_EQ(done["summary"]["flows"]["count"], 4);
  // Its files are still served.
  r = t.Client().Get(("/api/runs/" + done_id + "/files/flows.csv").c_str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  std::filesystem::remove_all(store);
}

TEST(ApiEvents, StoppingTheServerFailsTheRunsItCutsShort) {
  const std::string store = FreshDir("stop");
  std::string running, queued;
  {
    ServeOptions options;
    options.workers = 1;
    TestServer t(options, store);
    running = t.Start("kind=run", kLongScenario);
    queued = t.Start("kind=run", kSmallScenario);
    ASSERT_EQ(t.WaitFor(running, "running").value("status", ""), "running");
    const auto before = std::chrono::steady_clock::now();
    t.server().Stop();
    // Promptly: the run stops at its next heartbeat (the status below says
    // it did not finish); the bound leaves room for a loaded machine.
    EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(5));
  }
  Result<std::unique_ptr<RunStore>> s = RunStore::Open(store);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ((*s)->interrupted(), 0u);
  for (const std::string& id : std::vector<std::string>{running, queued}) {
    Result<std::optional<RunRecord>> r = (*s)->Get(id);
    ASSERT_TRUE(r.ok() && r->has_value());
    EXPECT_EQ((*r)->status, RunStatus::kFailed);
    EXPECT_EQ((*r)->error, "server stopped");
  }
  EXPECT_FALSE(std::filesystem::exists(store + "/runs/" + running));
  std::filesystem::remove_all(store);
}

}  // namespace
}  // namespace aifabric
