// "A real Prometheus" (issue 16): Debian's prometheus scrapes a running
// simulation's --metrics-port endpoint every second; `aifabric observe
// --once` against that Prometheus must name the same top finding (kind,
// node and port) as the simulation's own diagnosis.json. The scenario
// (tests/data/observe_hot_spot/) plants a pause tree rooted at the ToR's
// port to h0 and lasts several seconds of wall time; Prometheus starts
// first and is scraping before the run starts. Then the bad inputs
// against the same server: a topology that lacks the series' ports, an
// unreachable server. Skipped, saying so, when prometheus is not installed.
// Without Prometheus: --metrics-linger serves the final counters after the
// outputs are written, and its bad uses.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

#include "cli_harness.h"
#include "test_paths.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;

const std::string kData = std::string(AIFABRIC_SOURCE_DIR) + "/tests/data/observe_hot_spot/";

std::string FindProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::filesystem::path candidate = std::filesystem::path(dirs.substr(start, end - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

// A port nothing listens on right now (bound to 0, read back, closed).
int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  close(fd);
  return ntohs(addr.sin_port);
}

// A child process with its output in `log`; stopped (SIGTERM) and reaped
// when the object goes, unless it was waited for.
class Child {
 public:
  Child(const std::vector<std::string>& argv, const std::string& log) {
    pid_ = fork();
    if (pid_ == 0) {
      const std::string out = log;
      if (freopen(out.c_str(), "w", stdout) == nullptr) _exit(126);
      dup2(fileno(stdout), fileno(stderr));
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
  }
  ~Child() {
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      waitpid(pid_, nullptr, 0);
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  bool Running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == 0) return true;
    exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    pid_ = -1;
    return false;
  }
  // Waits for the end; the exit code (-1 if killed by a signal).
  int Wait() {
    if (pid_ > 0) {
      int status = 0;
      waitpid(pid_, &status, 0);
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      pid_ = -1;
    }
    return exit_code_;
  }

 private:
  pid_t pid_ = -1;
  int exit_code_ = -1;
};

// How many scrapes of the simulation's clock Prometheus holds (0 when it
// does not answer yet).
int Scrapes(int prometheus_port) {
  httplib::Client client("127.0.0.1", prometheus_port);
  client.set_connection_timeout(1);
  client.set_read_timeout(2);
  auto r = client.Get("/api/v1/query?query=count_over_time(aifabric_sim_time_seconds%5B5m%5D)");
  if (!r || r->status != 200) return 0;
  const auto doc = nlohmann::json::parse(r->body, nullptr, false);
  if (doc.is_discarded() || doc["data"]["result"].empty()) return 0;
  return std::atoi(doc["data"]["result"][0]["value"][1].get<std::string>().c_str());
}

// Whether Prometheus has tried to scrape its one target yet (its health
// is "up" or "down", not "unknown"): it hands new targets to the scrape
// loop some seconds after it starts.
bool TriedTarget(int prometheus_port) {
  httplib::Client client("127.0.0.1", prometheus_port);
  client.set_connection_timeout(1);
  client.set_read_timeout(2);
  auto r = client.Get("/api/v1/targets?state=active");
  if (!r || r->status != 200) return false;
  const auto doc = nlohmann::json::parse(r->body, nullptr, false);
  if (doc.is_discarded() || !doc["data"]["activeTargets"].is_array() || doc["data"]["activeTargets"].empty()) {
    return false;
  }
  const auto& health = doc["data"]["activeTargets"][0]["health"];
  return health == "up" || health == "down";
}

TEST(ObserveRealPrometheus, NamesTheTopFindingTheSimulationNames) {
  const std::string prometheus = FindProgram("prometheus");
  if (prometheus.empty()) {
    GTEST_SKIP() << "prometheus is not installed (scripts/setup.sh test installs Debian's package); "
                    "the real-Prometheus check of aifabric observe did not run";
  }
  TempDir dir;
  const int metrics_port = FreePort();
  const int prometheus_port = FreePort();
  const std::string config = dir.Write("prometheus.yml",
                                       "global: {scrape_interval: 1s, scrape_timeout: 1s}\n"
                                       "scrape_configs:\n"
                                       "  - job_name: aifabric\n"
                                       "    static_configs: [{targets: ['127.0.0.1:" +
                                           std::to_string(metrics_port) + "']}]\n");
  Child server({prometheus, "--config.file=" + config, "--storage.tsdb.path=" + dir.path() + "/tsdb",
                "--web.listen-address=127.0.0.1:" + std::to_string(prometheus_port), "--log.level=warn"},
               dir.path() + "/prometheus.log");
  // Prometheus first, scraping (the endpoint that is not up yet), so its
  // start-up does not eat into the run's seconds.
  const auto ready_by = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!TriedTarget(prometheus_port)) {
    ASSERT_LT(std::chrono::steady_clock::now(), ready_by)
        << "prometheus has not scraped after 30 s: " << ReadFile(dir.path() + "/prometheus.log");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  // The run serves its final counters for 5 s after its end
  // (--metrics-linger), so the scrapes do not hang on how fast the machine
  // runs it (about 2 s idle, 8 s loaded).
  Child simulation({AIFABRIC_BINARY, "run", kData + "scenario.yaml", "--quiet", "--metrics-port",
                    std::to_string(metrics_port), "--metrics-linger", "5s", "--out", dir.path() + "/run"},
                   dir.path() + "/run.log");

  // Several scrapes of the run: up to five while it runs or lingers (a
  // loaded machine slows the run and the scrapes alike), at least three in
  // all; the samples stay in Prometheus after the run ends.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  while (simulation.Running() && Scrapes(prometheus_port) < 5) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline)
        << "the run still goes after 40 s; prometheus says: " << ReadFile(dir.path() + "/prometheus.log");
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  const int scrapes = Scrapes(prometheus_port);
  ASSERT_GE(scrapes, 3) << "the run was scraped " << scrapes << " times (too short?); it said: "
                        << ReadFile(dir.path() + "/run.log");
  const std::string url = "http://127.0.0.1:" + std::to_string(prometheus_port);
  CommandResult observed = RunAifabric("observe --prometheus " + url + " --topology " + kData +
                                       "topology.txt --format hpcc --window 300s --once --out " + dir.path() + "/observe");
  ASSERT_EQ(observed.exit_code, 0) << observed.err;
  EXPECT_THAT(observed.out, HasSubstr("observe pass 1: "));
  ASSERT_EQ(simulation.Wait(), 0) << ReadFile(dir.path() + "/run.log");

  const auto simulated = nlohmann::json::parse(ReadFile(dir.path() + "/run/diagnosis.json"));
  const auto seen = nlohmann::json::parse(ReadFile(dir.path() + "/observe/diagnosis.json"));
  ASSERT_FALSE(simulated["findings"].empty());
  ASSERT_FALSE(seen["findings"].empty()) << observed.out;
  const auto& want = simulated["findings"][0];
  const auto& got = seen["findings"][0];
  EXPECT_EQ(want["kind"], "pfc_pause_root");  // the planted hot spot: the ToR's port to h0
  EXPECT_EQ(want["node"], "sw6");
  EXPECT_EQ(want["port_peer"], "h0");
  EXPECT_EQ(got["kind"], want["kind"]) << observed.out;
  EXPECT_EQ(got["node"], want["node"]);
  EXPECT_EQ(got["port_peer"], want["port_peer"]);
  const auto observation = nlohmann::json::parse(ReadFile(dir.path() + "/observe/observation.json"));
  EXPECT_EQ(observation["clock"], "simulated");
  EXPECT_GT(observation["active_s"].get<double>(), 0);
  EXPECT_EQ(observation["top_finding"]["kind"], want["kind"]);

  // Bad input against the same server: a topology without these nodes.
  CommandResult stranger = RunAifabric("observe --prometheus " + url + " --topology " + AIFABRIC_SOURCE_DIR +
                                       "/examples/hpcc/topology.txt --once --out " + dir.path() + "/stranger");
  EXPECT_EQ(stranger.exit_code, 2);
  EXPECT_THAT(stranger.err, HasSubstr(url));
  EXPECT_THAT(stranger.err, HasSubstr("names no node of the topology"));
  EXPECT_FALSE(Exists(dir.path() + "/stranger/diagnosis.json"));
}

// The sample line of `family` in a Prometheus exposition ("" if none).
std::string SampleLine(const std::string& exposition, const std::string& family) {
  size_t at = 0;
  while ((at = exposition.find(family + " ", at)) != std::string::npos) {
    if (at == 0 || exposition[at - 1] == '\n') return exposition.substr(at, exposition.find('\n', at) - at);
    at += family.size();
  }
  return "";
}

TEST(MetricsLinger, TheFinalCountersAreServedAfterTheOutputsAreWritten) {
  // Without Prometheus: once the run's outputs are all there, /metrics
  // still answers, and its simulated time is the end's, as metrics.prom
  // (written from the same final sample) says.
  TempDir dir;
  const int port = FreePort();
  const std::string out = dir.path() + "/run";
  Child simulation({AIFABRIC_BINARY, "run", std::string(AIFABRIC_SOURCE_DIR) + "/examples/roce_incast.yaml", "--quiet",
                    "--metrics-port", std::to_string(port), "--metrics-linger", "20s", "--out", out},
                   dir.path() + "/run.log");
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!(Exists(out + "/summary.json") && Exists(out + "/metrics.prom") && Exists(out + "/report.html"))) {
    ASSERT_TRUE(simulation.Running()) << ReadFile(dir.path() + "/run.log");
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no outputs after 60 s";
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(2);
  client.set_read_timeout(5);
  auto served = client.Get("/metrics");
  ASSERT_TRUE(served) << "no answer on /metrics after the outputs were written";
  EXPECT_EQ(served->status, 200);
  const std::string written = SampleLine(ReadFile(out + "/metrics.prom"), "aifabric_sim_time_seconds");
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(SampleLine(served->body, "aifabric_sim_time_seconds"), written);
  EXPECT_TRUE(simulation.Running());  // lingering, not done
}

TEST(MetricsLinger, NeedsAMetricsPortAndADuration) {
  TempDir dir;
  const std::string scenario = std::string(AIFABRIC_SOURCE_DIR) + "/examples/roce_incast.yaml";
  CommandResult r = RunAifabric("run " + scenario + " --quiet --metrics-linger 5s --out " + dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--metrics-linger needs --metrics-port"));
  r = RunAifabric("run " + scenario + " --quiet --metrics-port 0 --metrics-linger soon --out " + dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--metrics-linger: "));
  EXPECT_THAT(r.err, HasSubstr("soon"));
  r = RunAifabric("run " + scenario + " --quiet --metrics-port 0 --metrics-linger 90000s --out " + dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("at most 1 day"));
  EXPECT_FALSE(Exists(dir.path() + "/summary.json"));
}

TEST(ObserveRealPrometheus, AnUnreachableServerIsBadInput) {
  TempDir dir;
  const std::string url = "http://127.0.0.1:" + std::to_string(FreePort());
  CommandResult r = RunAifabric("observe --prometheus " + url + " --topology " + kData +
                                "topology.txt --once --timeout 2s --out " + dir.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(url + "/api/v1/query?query="));
  EXPECT_THAT(r.err, HasSubstr("no answer from Prometheus"));
  CommandResult bad_format = RunAifabric("observe --prometheus " + url + " --topology " + kData +
                                         "topology.txt --format dot --once --out " + dir.path());
  EXPECT_EQ(bad_format.exit_code, 2);
  EXPECT_THAT(bad_format.err, HasSubstr("--format: expected hpcc, lingjun or ibnetdiscover, got 'dot'"));
}

}  // namespace
}  // namespace aifabric::testing
