// Helpers shared by the server's tests (test-only): a server on an
// ephemeral loopback port over a fresh store, a client for it, small
// scenarios, waiting for a run to reach a status, and reading an event
// stream.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>

#include <nlohmann/json.hpp>

#include "server/api_server.h"

namespace aifabric::serve_testing {

// Four hosts under two leaves and two spines, a 256 KiB permutation: done
// in well under a second at packet level.
inline constexpr const char* kSmallScenario =
    "name: small\n"                                                      // 1
    "seed: 7\n"                                                          // 2
    "cluster: {servers: 4, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"  // 3
    "fabric:\n"                                                          // 4
    "  topology: {type: leaf_spine, hosts_per_leaf: 2, spines: 2}\n"     // 5
    "  switch: 32x100G\n"                                                // 6
    "  link: {latency: 1us}\n"                                           // 7
    "workload:\n"                                                        // 8
    "  - permutation: {size: 256KiB}\n"                                  // 9
    "simulation: {until: 10ms}\n";                                       // 10

// The same fabric with 16 hosts sending 96 MiB each and a 12-to-1 incast
// (4.5 M events, about 1.5 s of wall time at packet level): long enough to
// watch and cancel.
inline constexpr const char* kLongScenario =
    "name: long\n"
    "seed: 7\n"
    "cluster: {servers: 16, gpus_per_server: 1, nic: {rate: 100Gbps}}\n"
    "fabric:\n"
    "  topology: {type: leaf_spine, hosts_per_leaf: 8, spines: 2}\n"
    "  switch: 32x100G\n"
    "  link: {latency: 1us}\n"
    "workload:\n"
    "  - permutation: {size: 96MiB}\n"
    "  - incast: {senders: 12, receiver: 0, size: 16MiB}\n"
    "simulation: {until: 200ms}\n";

// One event of a text/event-stream body.
struct StreamEvent {
  uint64_t id = 0;
  std::string type;
  nlohmann::json data;
};

// Reads a text/event-stream body into its events.
inline std::vector<StreamEvent> ParseEvents(const std::string& stream) {
  std::vector<StreamEvent> out;
  size_t at = 0;
  while (at < stream.size()) {
    size_t end = stream.find("\n\n", at);
    if (end == std::string::npos) end = stream.size();
    const std::string block = stream.substr(at, end - at);
    at = end + 2;
    if (block.empty() || block[0] == ':') continue;  // a comment (keep-alive)
    StreamEvent e;
    size_t line_at = 0;
    while (line_at < block.size()) {
      size_t nl = block.find('\n', line_at);
      if (nl == std::string::npos) nl = block.size();
      const std::string line = block.substr(line_at, nl - line_at);
      line_at = nl + 1;
      if (line.rfind("id: ", 0) == 0) e.id = std::stoull(line.substr(4));
      if (line.rfind("event: ", 0) == 0) e.type = line.substr(7);
      if (line.rfind("data: ", 0) == 0) e.data = nlohmann::json::parse(line.substr(6));
    }
    out.push_back(std::move(e));
  }
  return out;
}

inline std::string FreshDir(const std::string& tag) {
  static std::atomic<int> next{0};
  const std::string dir = ::testing::TempDir() + "/serve_" + tag + "_" + std::to_string(::getpid()) + "_" +
                          std::to_string(next++);
  std::filesystem::remove_all(dir);
  return dir;
}

// A server over its own store, stopped and its store removed at the end.
class TestServer {
 public:
  explicit TestServer(ServeOptions options = {}, std::string store = "") {
    options.port = 0;
    options.store_dir = store.empty() ? FreshDir("store") : store;
    owns_store_ = store.empty();
    store_dir_ = options.store_dir;
    Result<std::unique_ptr<ApiServer>> started = ApiServer::Start(options);
    EXPECT_TRUE(started.ok()) << (started.ok() ? "" : started.error().message);
    if (started.ok()) server_ = std::move(started).value();
  }
  ~TestServer() {
    server_.reset();
    if (owns_store_) std::filesystem::remove_all(store_dir_);
  }
  ApiServer& server() { return *server_; }
  const std::string& store_dir() const { return store_dir_; }
  httplib::Client Client() const {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_read_timeout(20, 0);
    return c;
  }
  // POST /api/runs with `query` ("kind=run&..."); the response.
  httplib::Result Post(const std::string& query, const std::string& body, const httplib::Headers& headers = {}) const {
    return Client().Post(("/api/runs?" + query).c_str(), headers, body, "application/yaml");
  }
  // The id of a run started with `query`; "" (and a test failure) if refused.
  std::string Start(const std::string& query, const std::string& body) const {
    httplib::Result r = Post(query, body);
    EXPECT_TRUE(r) << "no answer";
    if (!r) return "";
    EXPECT_EQ(r->status, 201) << r->body;
    if (r->status != 201) return "";
    return nlohmann::json::parse(r->body).at("id").get<std::string>();
  }
  nlohmann::json Run(const std::string& id) const {
    httplib::Result r = Client().Get(("/api/runs/" + id).c_str());
    if (!r || r->status != 200) return nlohmann::json();
    return nlohmann::json::parse(r->body);
  }
  // Polls GET /api/runs/{id} until its status is `status` (or a final
  // one), at most `timeout`; the last record.
  nlohmann::json WaitFor(const std::string& id, const std::string& status,
                         std::chrono::seconds timeout = std::chrono::seconds(30)) const {
    const auto until = std::chrono::steady_clock::now() + timeout;
    nlohmann::json run;
    while (std::chrono::steady_clock::now() < until) {
      run = Run(id);
      const std::string s = run.is_object() ? run.value("status", "") : "";
      if (s == status || s == "done" || s == "failed" || s == "cancelled") return run;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return run;
  }

 private:
  std::unique_ptr<ApiServer> server_;
  std::string store_dir_;
  bool owns_store_ = true;
};

}  // namespace aifabric::serve_testing
