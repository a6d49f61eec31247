#include "telemetry/metrics_server.h"

#include <chrono>
#include <utility>

#include <httplib.h>
#include <sys/socket.h>

namespace aifabric {
namespace {

constexpr const char* kHost = "127.0.0.1";
constexpr const char* kExpositionContentType = "text/plain; version=0.0.4; charset=utf-8";
constexpr const char* kTextContentType = "text/plain; charset=utf-8";
constexpr const char* kIndexPage = "aifabric metrics: GET /metrics (Prometheus text exposition format 0.0.4)\n";

}  // namespace

MetricsServer::MetricsServer()
    : server_(std::make_unique<httplib::Server>()), exposition_(std::make_shared<const std::string>()) {}

Result<std::unique_ptr<MetricsServer>> MetricsServer::Start(int port) {
  if (port < 0 || port > 65535) {
    return Error{"metrics port " + std::to_string(port) + " is outside 0..65535"};
  }
  std::unique_ptr<MetricsServer> self(new MetricsServer());
  MetricsServer* const raw = self.get();
  httplib::Server& server = *self->server_;

  // cpp-httplib's default also sets SO_REUSEPORT, which would let a second
  // run bind the same port and split the scrapes with this one; keep only
  // SO_REUSEADDR (rebinding over TIME_WAIT after a run ends). socket_t is
  // cpp-httplib's, declared at global scope.
  server.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkerThreads); };
  server.set_keep_alive_timeout(kIdleTimeoutSeconds);
  // One request per connection: a scraper reconnects (locally, cheaply) and
  // no connection outlives one answer, so the watchdog's lifetime bound
  // never cuts a healthy scraper between two scrapes.
  server.set_keep_alive_max_count(1);
  server.set_read_timeout(kReadWriteTimeoutSeconds, 0);
  server.set_write_timeout(kReadWriteTimeoutSeconds, 0);
  // Runs before routing for every well-formed request, so the count is
  // up to date before the client sees an answer.
  server.set_pre_routing_handler([raw](const httplib::Request&, httplib::Response&) {
    raw->requests_served_.fetch_add(1);
    return httplib::Server::HandlerResponse::Unhandled;
  });
  server.Get("/metrics", [raw](const httplib::Request&, httplib::Response& response) {
    const std::shared_ptr<const std::string> text = raw->Latest();
    response.set_content(*text, kExpositionContentType);
  });
  server.Get("/", [](const httplib::Request&, httplib::Response& response) {
    response.set_content(kIndexPage, kTextContentType);
  });
  server.set_error_handler([](const httplib::Request& request, httplib::Response& response) {
    if (response.status == 404) response.set_content("not found: " + request.path + "\n" + kIndexPage, kTextContentType);
  });

  int bound = port;
  if (port == 0) {
    bound = server.bind_to_any_port(kHost);
  } else if (!server.bind_to_port(kHost, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    return Error{"metrics server cannot listen on " + std::string(kHost) + ":" + std::to_string(port) +
                 " (port in use or not permitted); choose another --metrics-port, or 0 for any free port"};
  }
  self->port_ = bound;
  self->watchdog_ = std::make_unique<ConnectionWatchdog>(
      bound, ConnectionWatchdog::Limits{std::chrono::seconds(kMaxConnectionSeconds), kMaxConnections});

  self->listener_ = std::thread([raw] {
    raw->server_->listen_after_bind();
    raw->listener_returned_.store(true);
  });
  // stop() only takes effect once the listener is running: wait for that
  // (or for an early return) so the destructor never misses it.
  while (!server.is_running() && !raw->listener_returned_.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return self;
}

MetricsServer::~MetricsServer() {
  // Cut every client first, so the workers' blocked reads and writes return
  // and stop's join of the pool is prompt; the watchdog keeps cutting what
  // connects until the listener is closed.
  if (watchdog_) watchdog_->ShutDownAll();
  server_->stop();
  if (listener_.joinable()) listener_.join();
  watchdog_.reset();
}

void MetricsServer::Publish(std::string exposition) {
  auto text = std::make_shared<const std::string>(std::move(exposition));
  {
    std::lock_guard<std::mutex> lock(mutex_);
    exposition_.swap(text);
  }
  // The previous text is freed here, outside the lock (or by the last
  // request still sending it).
}

std::shared_ptr<const std::string> MetricsServer::Latest() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return exposition_;
}

}  // namespace aifabric
