// ApiServer is `aifabric serve`: the REST API over HTTP (cpp-httplib) on
// --bind:--port, the run store under --store, and the runs on --workers
// threads (server/run_manager.h). docs/serve.md is the API's reference:
//   POST   /api/runs?kind=run|collective|schedule|plan   201 {"id": ...}
//   POST   /api/runs?kind=observe                         attach a real fabric (server/attach_request.h)
//   POST   /api/runs/{id}/whatif                          a what-if beside an attached fabric (server/whatif_request.h)
//   GET    /api/runs[?limit=&offset=]                     newest first
//   GET    /api/runs/{id}                                 status, progress, summary, error
//   GET    /api/runs/{id}/files/{name}                    a file of the run's folder
//   DELETE /api/runs/{id}                                 cancel a queued or running run
//   GET    /api/runs/{id}/events                          server-sent events
//   GET    /api/runs/{id}/topology                        the run's fabric (server/topology_json.h)
//   GET    /api/examples                                  the examples the dashboard offers
//   GET    /api/info                                      whether changes need the token, the workers
//   GET    /metrics                                       the server's own Prometheus metrics
//   GET    /, /dashboard/{file}                           the dashboard (server/dashboard_assets.h)
// Errors are JSON {"error": "..."}: 400 bad input or a refused limit, 401
// without the token (POST and DELETE, when --token is set), 404, 409
// (cancel of a finished run), 413 (body over --max-body-bytes).
// Slow clients are cut off by the read, write and keep-alive timeouts;
// beyond max_connections open at once the oldest are cut, and Stop cuts
// every client first, so none holds the process at exit
// (telemetry/connection_watchdog.h).
// Start returns once it listens; Stop (or destruction) stops the runs
// (server/run_manager.h Shutdown) and then the listener. Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/result.h"
#include "server/run_manager.h"
#include "server/run_store.h"
#include "server/server_metrics.h"
#include "telemetry/connection_watchdog.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace aifabric {

struct ServeOptions {
  std::string bind = "127.0.0.1";   // loopback unless asked otherwise
  int port = 8080;                  // 0: any free port
  std::string store_dir = "aifabric-store";
  std::string token;                // "": no token needed
  int workers = 2;                  // runs at once
  ServeLimits limits;
  int http_threads = 16;            // connections served at once (event streams hold one each)
  std::chrono::milliseconds publish_every{250};
  std::chrono::milliseconds diagnose_every{1000};  // least wall time between live diagnoses of a run
  int read_timeout_s = 5;           // a request stalled this long is dropped
  int write_timeout_s = 5;          // a client not reading for this long is dropped
  int keep_alive_timeout_s = 5;     // an idle keep-alive connection is closed
  int max_connections = 64;         // open at once; the oldest beyond are cut (0: no bound)
  int max_attachments = 2;          // attached fabrics at once (each on a thread of its own, not a worker)
  std::vector<std::string> attach_files;  // attach documents to attach at start (--attach FILE)
};

class ApiServer {
 public:
  // Opens the store (runs a restart cut short become failed), attaches
  // the fabrics of options.attach_files, binds and listens. Errors name
  // the store, the attach file (and line, field) or the address.
  [[nodiscard]] static Result<std::unique_ptr<ApiServer>> Start(const ServeOptions& options);
  ~ApiServer();
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  int port() const { return port_; }
  // Runs the store found cut short by a restart when it opened.
  size_t interrupted_runs() const { return store_->interrupted(); }
  // Fails queued runs, cancels running ones (failed "server stopped"),
  // stops listening and joins. Idempotent.
  void Stop();

 private:
  explicit ApiServer(const ServeOptions& options);
  void Routes();
  bool Authorized(const httplib::Request& request) const;
  void PostRun(const httplib::Request& request, httplib::Response& response);
  void PostWhatIf(const httplib::Request& request, httplib::Response& response);
  // Submits a parsed run and answers 201 (503 while stopping, 400 a refused limit).
  void Submit(ParsedRun parsed, httplib::Response& response);
  void ListRuns(const httplib::Request& request, httplib::Response& response);
  void GetRun(const httplib::Request& request, httplib::Response& response);
  void DeleteRun(const httplib::Request& request, httplib::Response& response);
  void GetFile(const httplib::Request& request, httplib::Response& response);
  void StreamEvents(const httplib::Request& request, httplib::Response& response);
  void GetTopology(const httplib::Request& request, httplib::Response& response);
  static void ListExamples(httplib::Response& response);
  static void ServeDashboardFile(const std::string& name, httplib::Response& response);

  const ServeOptions options_;
  std::unique_ptr<RunStore> store_;
  std::unique_ptr<RunManager> manager_;
  std::unique_ptr<httplib::Server> http_;
  ServerMetrics metrics_;
  std::thread listener_;
  std::unique_ptr<ConnectionWatchdog> watchdog_;  // set once Start has bound the port
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> listener_returned_{false};
};

}  // namespace aifabric
