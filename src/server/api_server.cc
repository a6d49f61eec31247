#include "server/api_server.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <httplib.h>
#include <sys/socket.h>

#include <nlohmann/json.hpp>

#include "core/text_file.h"
#include "server/attach_request.h"
#include "server/dashboard_assets.h"
#include "server/topology_json.h"
#include "server/whatif_request.h"

namespace aifabric {
namespace {

constexpr const char* kJson = "application/json";

void JsonError(httplib::Response& response, int status, const std::string& message) {
  response.status = status;
  response.set_content(nlohmann::json{{"error", message}}.dump() + "\n", kJson);
}

nlohmann::ordered_json RunJson(const RunRecord& r, bool with_summary) {
  nlohmann::ordered_json j;
  j["id"] = r.id;
  j["kind"] = r.kind;
  j["status"] = RunStatusName(r.status);
  j["progress"] = r.progress;
  j["scenario_sha256"] = r.scenario_sha256;
  j["created_ms"] = r.created_ms;
  j["started_ms"] = r.started_ms;
  j["finished_ms"] = r.finished_ms;
  j["error"] = r.error;
  j["name"] = r.name;
  j["whatif_of"] = r.whatif_of;
  if (with_summary) {
    j["summary"] = r.summary.empty() ? nlohmann::ordered_json()
                                     : nlohmann::ordered_json::parse(r.summary, nullptr, /*allow_exceptions=*/false);
  }
  return j;
}

// A non-negative integer query parameter, or `fallback` when absent.
Result<size_t> Count(const httplib::Request& request, const char* key, size_t fallback) {
  if (!request.has_param(key)) return fallback;
  const std::string text = request.get_param_value(key);
  size_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
    return Error{std::string("query parameter ") + key + ": expected a non-negative integer, got '" + text + "'"};
  }
  return value;
}

const char* ContentTypeOf(const std::string& name) {
  auto ends = [&](const char* ext) {
    const std::string e(ext);
    return name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0;
  };
  if (ends(".json")) return "application/json";
  if (ends(".csv")) return "text/csv; charset=utf-8";
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".yaml") || ends(".yml")) return "application/yaml";
  if (ends(".prom")) return "text/plain; version=0.0.4; charset=utf-8";
  if (ends(".txt") || ends(".dot") || ends(".conf")) return "text/plain; charset=utf-8";
  return "application/octet-stream";
}

// The file `name` of the folder `dir`, or "" when the name leaves the
// folder (.., an absolute path, a link out) or is not a regular file.
std::string FileInside(const std::string& dir, const std::string& name) {
  namespace fs = std::filesystem;
  if (name.empty() || name.front() == '/' || name.find('\0') != std::string::npos) return "";
  for (const fs::path& part : fs::path(name)) {
    if (part == "..") return "";
  }
  std::error_code ec;
  const fs::path root = fs::canonical(dir, ec);
  if (ec) return "";
  const fs::path file = fs::canonical(root / name, ec);
  if (ec) return "";
  const std::string r = root.string() + "/", f = file.string();
  if (f.compare(0, r.size(), r) != 0 || !fs::is_regular_file(file, ec)) return "";
  return f;
}

}  // namespace

ApiServer::ApiServer(const ServeOptions& options) : options_(options), http_(std::make_unique<httplib::Server>()) {}

Result<std::unique_ptr<ApiServer>> ApiServer::Start(const ServeOptions& options) {
  if (options.port < 0 || options.port > 65535) {
    return Error{"--port " + std::to_string(options.port) + " is outside 0..65535"};
  }
  if (options.workers < 1) return Error{"--workers must be at least 1"};
  std::unique_ptr<ApiServer> self(new ApiServer(options));
  Result<std::unique_ptr<RunStore>> store = RunStore::Open(options.store_dir);
  if (!store.ok()) return Error{"--store: " + store.error().message};
  self->store_ = std::move(store).value();
  RunManagerOptions manager;
  manager.workers = options.workers;
  manager.limits = options.limits;
  manager.publish_every = options.publish_every;
  manager.diagnose_every = options.diagnose_every;
  manager.max_attachments = options.max_attachments;
  // The attachments are read and checked before anything starts, and
  // attached once the server listens.
  if (options.attach_files.size() > static_cast<size_t>(options.max_attachments)) {
    return Error{"--attach: " + std::to_string(options.attach_files.size()) + " fabrics, more than --max-attachments " +
                 std::to_string(options.max_attachments)};
  }
  std::vector<ParsedRun> attachments;
  for (const std::string& file : options.attach_files) {
    Result<std::string> text = ReadTextFile(file);
    if (!text.ok()) return Error{"--attach " + text.error().message};
    Result<ParsedRun> parsed = ParseAttachRequest(*text, file, std::filesystem::path(file).parent_path().string());
    if (!parsed.ok()) return Error{"--attach " + parsed.error().message};
    attachments.push_back(std::move(parsed).value());
  }
  self->manager_ = std::make_unique<RunManager>(*self->store_, manager);
  self->Routes();

  httplib::Server& http = *self->http_;
  int bound = options.port;
  if (options.port == 0) {
    bound = http.bind_to_any_port(options.bind);
  } else if (!http.bind_to_port(options.bind, options.port)) {
    bound = -1;
  }
  if (bound <= 0) {
    return Error{"cannot listen on " + options.bind + ":" + std::to_string(options.port) +
                 " (address in use, not an address of this machine, or not permitted)"};
  }
  self->port_ = bound;
  self->watchdog_ = std::make_unique<ConnectionWatchdog>(
      bound, ConnectionWatchdog::Limits{std::chrono::milliseconds(0), options.max_connections});
  ApiServer* raw = self.get();
  self->listener_ = std::thread([raw] {
    raw->http_->listen_after_bind();
    raw->listener_returned_ = true;
  });
  while (!http.is_running() && !raw->listener_returned_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (ParsedRun& attachment : attachments) {
    Result<RunRecord> run = self->manager_->Submit(std::move(attachment));
    if (!run.ok()) return Error{"--attach: " + run.error().message};
  }
  return self;
}

ApiServer::~ApiServer() { Stop(); }

void ApiServer::Stop() {
  if (stopping_.exchange(true)) return;
  if (manager_) manager_->Shutdown();
  // Cut every client (a stalled request, an event stream) so the pool's
  // join is prompt; the watchdog cuts what still connects until the
  // listener closes.
  if (watchdog_) watchdog_->ShutDownAll();
  http_->stop();
  if (listener_.joinable()) listener_.join();
  watchdog_.reset();
}

bool ApiServer::Authorized(const httplib::Request& request) const {
  if (options_.token.empty()) return true;
  if (request.method != "POST" && request.method != "DELETE") return true;
  const std::string expected = "Bearer " + options_.token;
  const std::string given = request.get_header_value("Authorization");
  // Compared in time independent of where they first differ.
  if (given.size() != expected.size()) return false;
  unsigned char diff = 0;
  for (size_t i = 0; i < given.size(); ++i) diff |= static_cast<unsigned char>(given[i] ^ expected[i]);
  return diff == 0;
}

void ApiServer::Routes() {
  httplib::Server& http = *http_;
  // Only SO_REUSEADDR: cpp-httplib's default SO_REUSEPORT would let a
  // second server bind the same port and split the requests.
  http.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  // Headers and body go out as separate writes: without TCP_NODELAY,
  // Nagle's algorithm holds the second until the client's delayed ACK.
  http.set_tcp_nodelay(true);
  const int threads = options_.http_threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<size_t>(threads)); };
  http.set_keep_alive_timeout(options_.keep_alive_timeout_s);
  http.set_read_timeout(options_.read_timeout_s, 0);
  http.set_write_timeout(options_.write_timeout_s, 0);
  http.set_payload_max_length(options_.limits.max_body_bytes);
  http.set_logger([this](const httplib::Request&, const httplib::Response& response) {
    metrics_.CountRequest(response.status);
  });
  http.set_pre_routing_handler([this](const httplib::Request& request, httplib::Response& response) {
    if (Authorized(request)) return httplib::Server::HandlerResponse::Unhandled;
    response.set_header("WWW-Authenticate", "Bearer");
    JsonError(response, 401, "this request needs the header Authorization: Bearer <the server's --token>");
    return httplib::Server::HandlerResponse::Handled;
  });
  const size_t max_body = options_.limits.max_body_bytes;
  http.set_error_handler(httplib::Server::HandlerWithResponse([max_body](const httplib::Request& request,
                                                                         httplib::Response& response) {
    if (!response.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (response.status == 413) {
      JsonError(response, 413, "the request body is larger than the server's --max-body-bytes " +
                                   std::to_string(max_body));
    } else if (response.status == 404) {
      JsonError(response, 404, "no such endpoint: " + request.method + " " + request.path);
    } else {
      JsonError(response, response.status, "bad request");
    }
    return httplib::Server::HandlerResponse::Handled;
  }));

  http.Post("/api/runs", [this](const httplib::Request& q, httplib::Response& r) { PostRun(q, r); });
  http.Post(R"(/api/runs/([^/]+)/whatif)",
            [this](const httplib::Request& q, httplib::Response& r) { PostWhatIf(q, r); });
  http.Get("/api/runs", [this](const httplib::Request& q, httplib::Response& r) { ListRuns(q, r); });
  http.Get(R"(/api/runs/([^/]+))", [this](const httplib::Request& q, httplib::Response& r) { GetRun(q, r); });
  http.Delete(R"(/api/runs/([^/]+))", [this](const httplib::Request& q, httplib::Response& r) { DeleteRun(q, r); });
  http.Get(R"(/api/runs/([^/]+)/events)",
           [this](const httplib::Request& q, httplib::Response& r) { StreamEvents(q, r); });
  http.Get(R"(/api/runs/([^/]+)/files/(.+))",
           [this](const httplib::Request& q, httplib::Response& r) { GetFile(q, r); });
  http.Get("/metrics", [this](const httplib::Request&, httplib::Response& r) {
    ServerGauges g;
    Result<std::vector<std::pair<RunStatus, int64_t>>> counts = store_->CountByStatus();
    if (counts.ok()) g.runs_by_status = std::move(counts).value();
    g.queue_length = manager_->queued();
    g.running = manager_->running();
    g.workers = manager_->workers();
    g.attachments = manager_->attached();
    g.max_attachments = manager_->max_attachments();
    r.set_content(metrics_.Exposition(g), "text/plain; version=0.0.4; charset=utf-8");
  });
  http.Get(R"(/api/runs/([^/]+)/topology)",
           [this](const httplib::Request& q, httplib::Response& r) { GetTopology(q, r); });
  http.Get("/api/examples", [](const httplib::Request&, httplib::Response& r) { ListExamples(r); });
  http.Get("/api/info", [this](const httplib::Request&, httplib::Response& r) {
    r.set_content(nlohmann::ordered_json{{"token_required", !options_.token.empty()},
                                         {"workers", options_.workers},
                                         {"max_attachments", options_.max_attachments}}.dump() + "\n",
                  kJson);
  });
  // The dashboard: its page at /, its other files under /dashboard/, all
  // from the binary (server/dashboard_assets.h).
  http.Get("/", [](const httplib::Request&, httplib::Response& r) { ServeDashboardFile("index.html", r); });
  http.Get(R"(/dashboard/([^/]+))",
           [](const httplib::Request& q, httplib::Response& r) { ServeDashboardFile(q.matches[1], r); });
}

void ApiServer::ServeDashboardFile(const std::string& name, httplib::Response& response) {
  const DashboardFile* file = FindDashboardFile(name);
  if (file == nullptr) return JsonError(response, 404, "the dashboard has no file " + name);
  response.set_header("X-Content-Type-Options", "nosniff");
  // Nothing the page loads or asks for may leave this server.
  response.set_header("Content-Security-Policy",
                      "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; connect-src 'self'; "
                      "img-src 'self' data:; base-uri 'none'; form-action 'none'");
  response.set_header("Cache-Control", "no-cache");
  response.set_content(std::string(file->text), DashboardContentType(file->name));
}

void ApiServer::ListExamples(httplib::Response& response) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const DashboardExample& e : DashboardExamples()) {
    list.push_back(nlohmann::ordered_json{{"name", e.name}, {"kind", e.kind}, {"query", e.query},
                                          {"file", e.file}, {"body", e.text}});
  }
  response.set_content(nlohmann::ordered_json{{"examples", std::move(list)}}.dump() + "\n", kJson);
}

void ApiServer::GetTopology(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  Result<std::optional<RunRecord>> run = store_->Get(id);
  if (!run.ok()) return JsonError(response, 500, run.error().message);
  if (!run->has_value()) return JsonError(response, 404, "no run " + id);
  const std::string path = FileInside(store_->RunDir(id), kRunTopologyFile);
  Result<std::string> text = path.empty() ? Result<std::string>(Error{""}) : ReadTextFile(path);
  if (!text.ok()) {
    return JsonError(response, 404, "run " + id + " has no topology (yet: it is written when the run starts; " +
                                        "a plan has none)");
  }
  response.set_content(*text, kJson);
}

void ApiServer::PostRun(const httplib::Request& request, httplib::Response& response) {
  // cpp-httplib reads a form-encoded body as parameters: refuse it rather
  // than mistake a scenario for options (curl's -d sends this type).
  if (request.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0) {
    return JsonError(response, 400,
                     "send the scenario as the body with Content-Type: application/yaml or application/json "
                     "(curl: --data-binary @FILE -H 'Content-Type: application/yaml')");
  }
  QueryParams params(request.params.begin(), request.params.end());
  RequestBody body;
  if (request.is_multipart_form_data()) {
    for (const auto& [name, part] : request.files) body.parts.emplace_back(name, part.content);
  } else {
    body.text = request.body;
  }
  Result<ParsedRun> parsed = ParseRunRequest(params, body, options_.limits);
  if (!parsed.ok()) return JsonError(response, 400, parsed.error().message);
  Submit(std::move(parsed).value(), response);
}

void ApiServer::PostWhatIf(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  Result<std::optional<RunRecord>> run = store_->Get(id);
  if (!run.ok()) return JsonError(response, 500, run.error().message);
  if (!run->has_value()) return JsonError(response, 404, "no run " + id);
  if ((*run)->kind != "observe") {
    return JsonError(response, 400, "run " + id + " is a " + (*run)->kind + " run: a what-if goes beside an attached "
                                    "fabric (kind=observe)");
  }
  if (request.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0) {
    return JsonError(response, 400,
                     "send the scenario as the body with Content-Type: application/yaml or application/json, or "
                     "no body for the attachment's template");
  }
  const QueryParams params(request.params.begin(), request.params.end());
  Result<ParsedRun> parsed = ParseWhatIfRequest(id, store_->RunDir(id), params, request.body, options_.limits);
  if (!parsed.ok()) return JsonError(response, 400, parsed.error().message);
  Submit(std::move(parsed).value(), response);
}

void ApiServer::Submit(ParsedRun parsed, httplib::Response& response) {
  Result<RunRecord> run = manager_->Submit(std::move(parsed));
  if (!run.ok()) return JsonError(response, stopping_ ? 503 : 400, run.error().message);
  response.status = 201;
  response.set_header("Location", "/api/runs/" + run->id);
  response.set_content(nlohmann::ordered_json{{"id", run->id}, {"status", RunStatusName(run->status)}}.dump() + "\n",
                       kJson);
}

void ApiServer::ListRuns(const httplib::Request& request, httplib::Response& response) {
  Result<size_t> limit = Count(request, "limit", 50), offset = Count(request, "offset", 0);
  if (!limit.ok()) return JsonError(response, 400, limit.error().message);
  if (!offset.ok()) return JsonError(response, 400, offset.error().message);
  if (*limit > 1000) return JsonError(response, 400, "query parameter limit: at most 1000, got " + std::to_string(*limit));
  Result<std::vector<RunRecord>> runs = store_->List(*limit, *offset);
  Result<std::vector<std::pair<RunStatus, int64_t>>> counts = store_->CountByStatus();
  if (!runs.ok()) return JsonError(response, 500, runs.error().message);
  if (!counts.ok()) return JsonError(response, 500, counts.error().message);
  int64_t total = 0;
  for (const auto& [status, n] : *counts) total += n;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const RunRecord& r : *runs) list.push_back(RunJson(r, false));
  response.set_content(
      nlohmann::ordered_json{{"runs", std::move(list)}, {"limit", *limit}, {"offset", *offset}, {"total", total}}.dump() +
          "\n",
      kJson);
}

void ApiServer::GetRun(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  Result<std::optional<RunRecord>> run = store_->Get(id);
  if (!run.ok()) return JsonError(response, 500, run.error().message);
  if (!run->has_value()) return JsonError(response, 404, "no run " + id);
  response.set_content(RunJson(**run, true).dump() + "\n", kJson);
}

void ApiServer::DeleteRun(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  Result<RunManager::CancelOutcome> outcome = manager_->Cancel(id);
  if (!outcome.ok()) return JsonError(response, 500, outcome.error().message);
  switch (*outcome) {
    case RunManager::CancelOutcome::kNotFound: return JsonError(response, 404, "no run " + id);
    case RunManager::CancelOutcome::kAlreadyFinished:
      return JsonError(response, 409, "run " + id + " has already finished");
    case RunManager::CancelOutcome::kCancelled: break;
  }
  response.status = 202;
  response.set_content(nlohmann::ordered_json{{"id", id}, {"cancelling", true}}.dump() + "\n", kJson);
}

void ApiServer::GetFile(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1], name = request.matches[2];
  Result<std::optional<RunRecord>> run = store_->Get(id);
  if (!run.ok()) return JsonError(response, 500, run.error().message);
  if (!run->has_value()) return JsonError(response, 404, "no run " + id);
  const std::string path = FileInside(store_->RunDir(id), name);
  if (path.empty()) return JsonError(response, 404, "run " + id + " has no file " + name);
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return JsonError(response, 404, "run " + id + " has no file " + name);
  auto file = std::make_shared<std::ifstream>(path, std::ios::binary);
  response.set_content_provider(
      static_cast<size_t>(size), ContentTypeOf(name), [file](size_t offset, size_t length, httplib::DataSink& sink) {
        char buffer[64 * 1024];
        file->seekg(static_cast<std::streamoff>(offset));
        const size_t want = std::min(length, sizeof buffer);
        file->read(buffer, static_cast<std::streamsize>(want));
        const std::streamsize got = file->gcount();
        if (got <= 0) return false;
        return sink.write(buffer, static_cast<size_t>(got));
      });
}

void ApiServer::StreamEvents(const httplib::Request& request, httplib::Response& response) {
  const std::string id = request.matches[1];
  std::shared_ptr<LiveFeed> feed = manager_->Feed(id);
  // A run that has ended is answered from the store whether or not the
  // manager has forgotten its feed yet (the final record is written before
  // the feed ends), so a late client always gets the end alone.
  if (!feed || feed->ended()) {
    Result<std::optional<RunRecord>> run = store_->Get(id);
    if (!run.ok()) return JsonError(response, 500, run.error().message);
    if (!run->has_value()) return JsonError(response, 404, "no run " + id);
    // Over already: the end at once.
    const RunRecord& r = **run;
    const std::string end = nlohmann::json{{"id", r.id}, {"status", RunStatusName(r.status)}, {"error", r.error}}.dump();
    response.set_header("Cache-Control", "no-cache");
    response.set_content(FormatServerSentEvent(FeedEvent{1, "end", end}), "text/event-stream");
    return;
  }
  response.set_header("Cache-Control", "no-cache");
  metrics_.StreamOpened();
  auto last = std::make_shared<uint64_t>(0);
  response.set_chunked_content_provider(
      "text/event-stream",
      [this, feed, last](size_t /*offset*/, httplib::DataSink& sink) {
        bool ended = false;
        const std::vector<FeedEvent> events = feed->After(*last, std::chrono::milliseconds(500), &ended);
        for (const FeedEvent& e : events) {
          const std::string text = FormatServerSentEvent(e);
          if (!sink.write(text.data(), text.size())) return false;
          *last = e.seq;
        }
        if (ended) {
          sink.done();
        } else if (events.empty()) {
          // A comment line: finds a client that has gone, and keeps proxies from timing out.
          static constexpr char kKeepAlive[] = ": keep-alive\n\n";
          if (!sink.write(kKeepAlive, sizeof kKeepAlive - 1)) return false;
        }
        return !stopping_ || ended;
      },
      [this](bool /*success*/) { metrics_.StreamClosed(); });
}

}  // namespace aifabric
