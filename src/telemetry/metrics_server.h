// MetricsServer serves the latest Prometheus exposition over HTTP on
// 127.0.0.1 while a simulation runs (`--metrics-port PORT`). The simulation
// thread Publishes a rendered snapshot now and then; a background thread
// answers scrapers with whatever was published last:
//   GET /metrics  200, text/plain; version=0.0.4; charset=utf-8, the text
//                 last published (empty before the first Publish)
//   GET /         200, a one-line page pointing at /metrics
//   anything else 404
// The owner holds it in a unique_ptr; destruction stops and joins the
// threads. Publish, port and requests_served are safe from any thread.
//
// Cost bounds: Publish swaps a pointer under a mutex, so a scrape never
// holds the simulation thread for longer than that swap. Requests run on a
// pool of kWorkerThreads, one request per connection; a connection idle
// for kIdleTimeoutSeconds, or stalled mid-request or mid-response for
// kReadWriteTimeoutSeconds, is closed; a ConnectionWatchdog cuts one open
// for longer than kMaxConnectionSeconds however it trickles (a client
// sending its headers a byte at a time), cuts the oldest beyond
// kMaxConnections (a crowd of idle connections), and at destruction cuts
// every client, so destruction never waits for one. Headers are capped by
// cpp-httplib (8 KiB a line).
// cpp-httplib's server ignores SIGPIPE process-wide, so a scraper that
// hangs up mid-response cannot kill the run.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "core/result.h"
#include "telemetry/connection_watchdog.h"

namespace httplib {
class Server;
}

namespace aifabric {

class MetricsServer {
 public:
  static constexpr int kWorkerThreads = 8;
  static constexpr int kIdleTimeoutSeconds = 1;       // keep-alive wait for the next request
  static constexpr int kReadWriteTimeoutSeconds = 1;  // per blocked read or write of a request
  static constexpr int kMaxConnectionSeconds = 5;     // a connection's whole life, however it trickles
  static constexpr int kMaxConnections = 16;          // open at once; the oldest beyond are cut

  // Binds 127.0.0.1:port (port 0: any free port) and starts serving in a
  // background thread. An Error naming the port if it cannot be bound (in
  // use, privileged) or is outside 0..65535.
  [[nodiscard]] static Result<std::unique_ptr<MetricsServer>> Start(int port);

  // Cuts every client, stops listening and joins: prompt whatever the
  // clients do (about the watchdog's scan interval at worst).
  ~MetricsServer();

  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // The port bound (the one chosen when Start was given 0).
  int port() const { return port_; }

  // Replaces what GET /metrics returns from now on.
  void Publish(std::string exposition);

  // Requests answered so far (any path), counted before each answer is sent.
  uint64_t requests_served() const { return requests_served_.load(); }

 private:
  MetricsServer();
  std::shared_ptr<const std::string> Latest() const;

  // Fixed once Start returns.
  std::unique_ptr<httplib::Server> server_;
  std::thread listener_;
  std::unique_ptr<ConnectionWatchdog> watchdog_;
  int port_ = 0;

  mutable std::mutex mutex_;
  std::shared_ptr<const std::string> exposition_;  // guarded by mutex_; never null
  std::atomic<uint64_t> requests_served_{0};
  std::atomic<bool> listener_returned_{false};
};

}  // namespace aifabric
