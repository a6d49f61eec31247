// PrometheusAnswer is what Prometheus's HTTP query API answered
// (`/api/v1/query`, `/api/v1/query_range`): the result type and its series,
// each with its labels and samples. ParsePrometheusAnswer reads the JSON
// envelope ({"status": "success"|"error", "data": {"resultType", "result"}},
// prometheus.io/docs/prometheus/latest/querying/api/) and turns an error
// answer, a body that is not JSON or a result of an unexpected shape into
// an Error naming `origin` (the query's URL). Pure; thread-safe.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace aifabric {

using PromLabels = std::map<std::string, std::string>;  // includes __name__ when Prometheus gives it

struct PromSample {
  double time_s = 0;  // Unix time, seconds (Prometheus gives milliseconds as a fraction)
  double value = 0;   // "NaN", "+Inf", "-Inf" read as such
};

struct PromSeries {
  PromLabels labels;
  std::vector<PromSample> samples;  // one for a vector or scalar result, in time order for a matrix
};

enum class PromResultType { kVector, kMatrix, kScalar };

struct PrometheusAnswer {
  PromResultType type = PromResultType::kVector;
  std::vector<PromSeries> series;  // a scalar result is one series without labels
  std::vector<std::string> warnings;
};

// `body` is the answer's text, `http_status` its HTTP status (Prometheus
// answers 400, 422 and 503 with an error envelope; other statuses without
// one are reported by number).
Result<PrometheusAnswer> ParsePrometheusAnswer(std::string_view body, int http_status, const std::string& origin);

// `{name="value",...}` of a series, for messages (labels in name order,
// __name__ printed first, without braces when it is alone).
std::string FormatSeries(const PromLabels& labels);

}  // namespace aifabric
