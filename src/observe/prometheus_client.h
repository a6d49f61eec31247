// PrometheusClient asks a Prometheus server's HTTP query API
// (`GET <url>/api/v1/query?query=<PromQL>`) and hands back its parsed
// answer. The transport is injected (PrometheusFetch), so tests answer
// from memory; HttpFetch is the real one, over cpp-httplib's client with a
// connection and read timeout and a cap on the answer's size. A client
// holds no state between queries; one instance is not to be shared
// between threads (the HTTP connection is not), separate ones may run at
// once.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/result.h"
#include "core/time.h"
#include "observe/prometheus_answer.h"

namespace aifabric {

// Where the counters are and how long to wait for them.
struct PrometheusSource {
  std::string url;                        // http://host:port[/prefix], e.g. http://127.0.0.1:9090
  Time timeout = Time::FromSeconds(10);   // connect, and each read of the answer
  uint64_t max_answer_bytes = 64u << 20;  // a longer answer is refused
};

// One HTTP answer: its status and body.
struct HttpAnswer {
  int status = 0;
  std::string body;
};

// GETs `path_and_query` (starting with '/', below the source's prefix);
// an Error when nothing answered (naming the URL and why: refused,
// timeout, too long).
using PrometheusFetch = std::function<Result<HttpAnswer>(const std::string& path_and_query)>;

// The cpp-httplib transport for `source`. An Error when the URL is not
// http://HOST[:PORT][/PREFIX] (https is not built in).
Result<PrometheusFetch> HttpFetch(const PrometheusSource& source);

class PrometheusClient {
 public:
  // `base_url` only names the server in messages.
  PrometheusClient(std::string base_url, PrometheusFetch fetch) : base_url_(std::move(base_url)), fetch_(std::move(fetch)) {}

  // An instant query at the server's current time (`/api/v1/query`).
  // Errors name the full URL of the query.
  Result<PrometheusAnswer> Query(const std::string& promql) const;

  const std::string& base_url() const { return base_url_; }

 private:
  const std::string base_url_;
  const PrometheusFetch fetch_;
};

// `text` percent-encoded for a URL's query string (RFC 3986 unreserved
// characters kept).
std::string UrlEncode(const std::string& text);

}  // namespace aifabric
