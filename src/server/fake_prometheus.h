// A stand-in Prometheus for the server's tests (test-only): an HTTP server
// on an ephemeral loopback port answering GET /api/v1/query?query=PROMQL
// from a table set up front (PromQL -> the JSON body), an empty matrix for
// any other query. Counts the queries it was asked. Thread-safe once
// started; `answers` must not change after.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include <httplib.h>

namespace aifabric::serve_testing {

// A matrix answer holding `series` (comma-separated JSON objects).
inline std::string PromMatrix(const std::string& series) {
  return R"({"status":"success","data":{"resultType":"matrix","result":[)" + series + "]}}";
}

class FakePrometheus {
 public:
  explicit FakePrometheus(std::map<std::string, std::string> answers) : answers_(std::move(answers)) {
    http_.Get("/api/v1/query", [this](const httplib::Request& q, httplib::Response& r) {
      ++queries_;
      const auto it = answers_.find(q.get_param_value("query"));
      r.set_content(it == answers_.end() ? PromMatrix("") : it->second, "application/json");
    });
    port_ = http_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { http_.listen_after_bind(); });
    while (!http_.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakePrometheus() {
    http_.stop();
    thread_.join();
  }
  FakePrometheus(const FakePrometheus&) = delete;
  FakePrometheus& operator=(const FakePrometheus&) = delete;

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int queries() const { return queries_; }

 private:
  const std::map<std::string, std::string> answers_;
  httplib::Server http_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<int> queries_{0};
};

}  // namespace aifabric::serve_testing
