#include "observe/prometheus_client.h"

#include <algorithm>
#include <cctype>

#include <httplib.h>

namespace aifabric {
namespace {

struct ParsedUrl {
  std::string scheme_host_port;  // http://host:port
  std::string prefix;            // "" or "/prefix" (no trailing '/')
};

Result<ParsedUrl> ParseUrl(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind("https://", 0) == 0) {
    return Error{"--prometheus " + url + ": https is not supported (use http://, e.g. through a local proxy)"};
  }
  if (url.rfind(scheme, 0) != 0) return Error{"--prometheus " + url + ": expected http://HOST[:PORT][/PREFIX]"};
  const size_t host_start = scheme.size();
  const size_t slash = url.find('/', host_start);
  ParsedUrl out;
  out.scheme_host_port = url.substr(0, slash);
  if (out.scheme_host_port.size() == host_start) return Error{"--prometheus " + url + ": no host"};
  if (slash != std::string::npos) out.prefix = url.substr(slash);
  while (!out.prefix.empty() && out.prefix.back() == '/') out.prefix.pop_back();
  return out;
}

}  // namespace

std::string UrlEncode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

Result<PrometheusFetch> HttpFetch(const PrometheusSource& source) {
  Result<ParsedUrl> url = ParseUrl(source.url);
  if (!url.ok()) return url.error();
  auto client = std::make_shared<httplib::Client>(url->scheme_host_port);
  if (!client->is_valid()) return Error{"--prometheus " + source.url + ": not a valid http URL"};
  const int64_t timeout_us = std::max<int64_t>(1, source.timeout.ps() / 1000000);
  client->set_connection_timeout(static_cast<time_t>(timeout_us / 1000000), static_cast<time_t>(timeout_us % 1000000));
  client->set_read_timeout(static_cast<time_t>(timeout_us / 1000000), static_cast<time_t>(timeout_us % 1000000));
  const std::string prefix = url->prefix;
  const std::string base = url->scheme_host_port;
  const uint64_t cap = source.max_answer_bytes;
  return PrometheusFetch([client, prefix, base, cap](const std::string& path_and_query) -> Result<HttpAnswer> {
    HttpAnswer answer;
    bool too_long = false;
    httplib::Result r = client->Get(
        prefix + path_and_query,
        [&](const httplib::Response& response) {
          answer.status = response.status;
          return true;
        },
        [&](const char* data, size_t length) {
          if (answer.body.size() + length > cap) {
            too_long = true;
            return false;
          }
          answer.body.append(data, length);
          return true;
        });
    const std::string where = base + prefix + path_and_query;
    if (too_long) {
      return Error{where + ": the answer is longer than " + std::to_string(cap) +
                   " bytes; narrow the query (fewer ports or a shorter --window)"};
    }
    if (!r) {
      const httplib::Error e = r.error();
      std::string why = httplib::to_string(e);
      if (e == httplib::Error::Read) why += " (no answer within the timeout?)";
      return Error{where + ": no answer from Prometheus: " + why};
    }
    return answer;
  });
}

Result<PrometheusAnswer> PrometheusClient::Query(const std::string& promql) const {
  const std::string path = "/api/v1/query?query=" + UrlEncode(promql);
  Result<HttpAnswer> answer = fetch_(path);
  if (!answer.ok()) return answer.error();
  return ParsePrometheusAnswer(answer->body, answer->status, base_url_ + path + " (" + promql + ")");
}

}  // namespace aifabric
