// The observability files as a user gets them from `aifabric run`: written
// by default and not with --no-telemetry, a job's trace.json that the
// trace viewers accept (slices nest on every track), `aifabric diagnose`,
// and --metrics-port's errors. promtool and headless Chromium check real
// runs' files too (tests/CMakeLists.txt).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

const char* const kFiles[] = {"timeseries.csv", "metrics.prom", "trace.json", "diagnosis.json", "report.html"};
const std::string kExamples = std::string(AIFABRIC_SOURCE_DIR) + "/examples/";

TEST(ObservabilityCli, EveryRunWritesTheFilesAndNoTelemetryWritesNone) {
  TempDir dir;
  const std::string scenario = kExamples + "roce_incast.yaml";
  CommandResult r = RunAifabric("run " + scenario + " --quiet --out " + dir.path() + "/on");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : kFiles) EXPECT_TRUE(Exists(dir.path() + "/on/" + f)) << f;
  EXPECT_EQ(ReadFile(dir.path() + "/on/timeseries.csv").substr(0, 39), "time_ns,node,port,priority,metric,value");
  const auto diagnosis = nlohmann::json::parse(ReadFile(dir.path() + "/on/diagnosis.json"));
  ASSERT_FALSE(diagnosis["findings"].empty());
  EXPECT_EQ(diagnosis["findings"][0]["node"], "leaf0");
  EXPECT_EQ(diagnosis["findings"][0]["port_peer"], "h0");

  r = RunAifabric("run " + scenario + " --quiet --no-telemetry --out " + dir.path() + "/off");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Exists(dir.path() + "/off/summary.json"));
  for (const char* f : kFiles) EXPECT_FALSE(Exists(dir.path() + "/off/" + f)) << f;
}

// Perfetto and chrome://tracing draw "X" slices of one (pid, tid) as a
// stack: each must end before the slice it started inside ends.
TEST(ObservabilityCli, JobTraceHasEveryRankAndSlicesNestOnEachTrack) {
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExamples + "training/llama3_8b_16gpu.yaml --model flow --quiet --out " +
                                dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto trace = nlohmann::json::parse(ReadFile(dir.path() + "/trace.json"));
  // (pid, tid) -> (start, end) in whole ns (the trace's µs have 3 decimals).
  std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> slices;
  std::map<int, std::string> process_names;
  std::map<std::pair<int, int>, std::string> thread_names;
  size_t collectives = 0;
  for (const auto& e : trace["traceEvents"]) {
    const int pid = e["pid"];
    if (e["ph"] == "M" && e["name"] == "process_name") process_names[pid] = e["args"]["name"];
    if (e["ph"] == "M" && e["name"] == "thread_name") thread_names[{pid, e["tid"]}] = e["args"]["name"];
    if (e["ph"] != "X") continue;
    const int64_t ts = std::llround(e["ts"].get<double>() * 1000);
    const int64_t dur = std::llround(e["dur"].get<double>() * 1000);
    slices[{pid, e["tid"]}].emplace_back(ts, ts + dur);
    collectives += e["cat"] == "collective";
  }
  int ranks = 0;
  for (const auto& [pid, name] : process_names) ranks += name.rfind("rank ", 0) == 0;
  EXPECT_EQ(ranks, 16);  // 2 servers x 8 GPUs, all traced (<= 64)
  EXPECT_GT(collectives, 0u);
  for (auto& [track, list] : slices) {
    EXPECT_TRUE(thread_names.count(track)) << "unnamed track " << track.first << "/" << track.second;
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first < b.first || (a.first == b.first && a.second > b.second);
    });
    std::vector<int64_t> open;  // ends of the enclosing slices
    for (const auto& [start, end] : list) {
      while (!open.empty() && open.back() <= start) open.pop_back();
      if (!open.empty()) {
        ASSERT_LE(end, open.back()) << "track " << track.first << "/" << track.second;
      }
      open.push_back(end);
    }
  }
}

TEST(ObservabilityCli, DiagnosePrintsASavedRunAndNamesAMissingOne) {
  TempDir dir;
  ASSERT_EQ(RunAifabric("run " + kExamples + "roce_incast.yaml --quiet --out " + dir.path()).exit_code, 0);
  CommandResult r = RunAifabric("diagnose " + dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("incast     leaf0   h0"));
  r = RunAifabric("diagnose " + dir.path() + "/nowhere");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("nowhere/diagnosis.json: cannot read it"));
  dir.Write("bad/diagnosis.json", "{\"findings\": 3}");
  r = RunAifabric("diagnose " + dir.path() + "/bad");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("expected an object with a \"findings\" list"));
}

TEST(ObservabilityCli, MetricsPortInUseIsBadInput) {
  // Hold a port on 127.0.0.1, then ask aifabric to serve on it.
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(fd, 1), 0);
  socklen_t len = sizeof addr;
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
  const int port = ntohs(addr.sin_port);
  TempDir dir;
  CommandResult r = RunAifabric("run " + kExamples + "roce_incast.yaml --quiet --metrics-port " +
                                std::to_string(port) + " --out " + dir.path());
  close(fd);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("--metrics-port"));
  EXPECT_THAT(r.err, ::testing::HasSubstr(std::to_string(port)));
  EXPECT_FALSE(Exists(dir.path() + "/summary.json"));
  r = RunAifabric("run " + kExamples + "roce_incast.yaml --quiet --no-telemetry --metrics-port 9 --out " + dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, ::testing::HasSubstr("--metrics-port needs telemetry"));
}

}  // namespace
}  // namespace aifabric::testing
