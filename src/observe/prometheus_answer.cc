#include "observe/prometheus_answer.h"

#include <cstdlib>
#include <limits>

#include <nlohmann/json.hpp>

namespace aifabric {
namespace {

using json = nlohmann::json;

Error Bad(const std::string& origin, const std::string& what) { return Error{origin + ": " + what}; }

// A sample is [<unix time>, "<value>"]: the value is a string so that NaN
// and the infinities survive JSON.
bool ReadSample(const json& pair, PromSample& out) {
  if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_string()) return false;
  out.time_s = pair[0].get<double>();
  const std::string& text = pair[1].get_ref<const std::string&>();
  if (text == "NaN") {
    out.value = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (text == "+Inf" || text == "-Inf") {
    out.value = text[0] == '+' ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
    return true;
  }
  char* end = nullptr;
  out.value = std::strtod(text.c_str(), &end);
  return !text.empty() && end == text.c_str() + text.size();
}

bool ReadLabels(const json& metric, PromLabels& out) {
  if (!metric.is_object()) return false;
  for (const auto& [name, value] : metric.items()) {
    if (!value.is_string()) return false;
    out[name] = value.get<std::string>();
  }
  return true;
}

}  // namespace

Result<PrometheusAnswer> ParsePrometheusAnswer(std::string_view body, int http_status, const std::string& origin) {
  const json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Bad(origin, "the answer (HTTP " + std::to_string(http_status) +
                           ") is not a JSON object; is this Prometheus's HTTP API?");
  }
  const auto status = doc.find("status");
  if (status == doc.end() || !status->is_string()) {
    return Bad(origin, "the answer (HTTP " + std::to_string(http_status) + ") has no \"status\"");
  }
  if (*status != "success") {
    const auto type = doc.find("errorType");
    const auto error = doc.find("error");
    return Bad(origin, "Prometheus answered " + status->get<std::string>() + " (HTTP " + std::to_string(http_status) +
                           ", " + (type != doc.end() && type->is_string() ? type->get<std::string>() : "no type") +
                           "): " + (error != doc.end() && error->is_string() ? error->get<std::string>() : "no message"));
  }
  if (http_status != 200) return Bad(origin, "HTTP status " + std::to_string(http_status) + " with a success answer");
  const auto data = doc.find("data");
  if (data == doc.end() || !data->is_object() || !data->contains("resultType") || !data->contains("result")) {
    return Bad(origin, "the answer has no data.resultType and data.result");
  }
  const json& type = (*data)["resultType"];
  const json& result = (*data)["result"];
  PrometheusAnswer answer;
  if (const auto warnings = doc.find("warnings"); warnings != doc.end() && warnings->is_array()) {
    for (const json& w : *warnings) {
      if (w.is_string()) answer.warnings.push_back(w.get<std::string>());
    }
  }
  if (type == "scalar") {
    PromSeries s;
    s.samples.emplace_back();
    if (!ReadSample(result, s.samples.back())) return Bad(origin, "a scalar result is not [time, \"value\"]");
    answer.type = PromResultType::kScalar;
    answer.series.push_back(std::move(s));
    return answer;
  }
  if (type != "vector" && type != "matrix") {
    return Bad(origin, "expected a vector, matrix or scalar result, got resultType " + type.dump());
  }
  answer.type = type == "vector" ? PromResultType::kVector : PromResultType::kMatrix;
  if (!result.is_array()) return Bad(origin, "data.result is not a list");
  for (size_t i = 0; i < result.size(); ++i) {
    const json& item = result[i];
    const std::string where = "data.result[" + std::to_string(i) + "]";
    PromSeries s;
    if (!item.is_object() || !item.contains("metric") || !ReadLabels(item["metric"], s.labels)) {
      return Bad(origin, where + ": expected {\"metric\": {label: \"value\", ...}, ...}");
    }
    if (answer.type == PromResultType::kVector) {
      s.samples.emplace_back();
      if (!item.contains("value") || !ReadSample(item["value"], s.samples.back())) {
        return Bad(origin, where + " " + FormatSeries(s.labels) + ": \"value\" is not [time, \"value\"]");
      }
    } else {
      const auto values = item.find("values");
      if (values == item.end() || !values->is_array()) {
        return Bad(origin, where + " " + FormatSeries(s.labels) + ": \"values\" is not a list");
      }
      for (const json& pair : *values) {
        PromSample sample;
        if (!ReadSample(pair, sample)) {
          return Bad(origin, where + " " + FormatSeries(s.labels) + ": a value is not [time, \"value\"]");
        }
        s.samples.push_back(sample);
      }
    }
    answer.series.push_back(std::move(s));
  }
  return answer;
}

std::string FormatSeries(const PromLabels& labels) {
  std::string out;
  const auto name = labels.find("__name__");
  if (name != labels.end()) out = name->second;
  std::string inner;
  for (const auto& [key, value] : labels) {
    if (key == "__name__") continue;
    inner += (inner.empty() ? "" : ",") + key + "=\"" + value + "\"";
  }
  if (!inner.empty() || out.empty()) out += "{" + inner + "}";
  return out;
}

}  // namespace aifabric
