#include "telemetry/prometheus_text.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <system_error>

namespace aifabric {
namespace {

// Every integer of magnitude up to 2^53 is exactly a double.
constexpr double kLargestExactInteger = 9007199254740992.0;

bool IsNameStart(char c, bool allow_colon) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (allow_colon && c == ':');
}

bool IsNameChar(char c, bool allow_colon) { return IsNameStart(c, allow_colon) || (c >= '0' && c <= '9'); }

// [a-zA-Z_:][a-zA-Z0-9_:]* for metric names, the same without ':' for labels.
[[maybe_unused]] bool IsValidName(std::string_view name, bool allow_colon) {
  if (name.empty() || !IsNameStart(name[0], allow_colon)) return false;
  for (char c : name) {
    if (!IsNameChar(c, allow_colon)) return false;
  }
  return true;
}

// HELP text escapes backslash and newline; label values also the quote.
void AppendEscaped(std::string& out, std::string_view text, bool escape_quote) {
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '"' && escape_quote) {
      out += "\\\"";
    } else {
      out += c;
    }
  }
}

void AppendValue(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
    return;
  }
  char buffer[32];  // the shortest round-trip form of a double needs at most 24
  std::to_chars_result result;
  if (std::trunc(value) == value && std::fabs(value) <= kLargestExactInteger) {
    result = std::to_chars(buffer, buffer + sizeof(buffer), static_cast<int64_t>(value));
  } else {
    result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  }
  assert(result.ec == std::errc());
  out.append(buffer, result.ptr);
}

void AppendSample(std::string& out, const std::string& name, const MetricSample& sample) {
  out += name;
  if (!sample.labels.empty()) {
    out += '{';
    bool first = true;
    for (const auto& [label, value] : sample.labels) {
      assert(IsValidName(label, /*allow_colon=*/false) && "label names come from code, not input");
      if (!first) out += ',';
      first = false;
      out += label;
      out += "=\"";
      AppendEscaped(out, value, /*escape_quote=*/true);
      out += '"';
    }
    out += '}';
  }
  out += ' ';
  AppendValue(out, sample.value);
  out += '\n';
}

}  // namespace

std::string RenderPrometheusText(std::span<const MetricFamily> families) {
  std::string out;
  for (const MetricFamily& family : families) {
    assert(IsValidName(family.name, /*allow_colon=*/true) && "metric names come from the catalog");
    out += "# HELP ";
    out += family.name;
    out += ' ';
    AppendEscaped(out, family.help, /*escape_quote=*/false);
    out += "\n# TYPE ";
    out += family.name;
    out += family.kind == MetricKind::kCounter ? " counter\n" : " gauge\n";
    for (const MetricSample& sample : family.samples) AppendSample(out, family.name, sample);
  }
  return out;
}

PrometheusSnapshotBuilder::PrometheusSnapshotBuilder() : samples_(AllMetrics().size()) {}

void PrometheusSnapshotBuilder::Add(Metric metric, MetricLabels labels, double recorded_value) {
  const size_t index = static_cast<size_t>(metric);
  assert(index < samples_.size());
  samples_[index].push_back(MetricSample{std::move(labels), recorded_value * Info(metric).prometheus_scale});
}

std::vector<MetricFamily> PrometheusSnapshotBuilder::Families() const {
  std::vector<MetricFamily> families;
  for (const MetricInfo& info : AllMetrics()) {
    const std::vector<MetricSample>& samples = samples_[static_cast<size_t>(info.metric)];
    if (samples.empty()) continue;
    families.push_back(
        MetricFamily{std::string(info.prometheus_name), std::string(info.help), info.kind, samples});
  }
  return families;
}

}  // namespace aifabric
