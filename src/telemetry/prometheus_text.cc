#include "telemetry/prometheus_text.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <system_error>

#include "telemetry/number_text.h"

namespace aifabric {
namespace {

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
void AppendEscaped(TextSink& out, std::string_view text, bool escape_quote) {
  const std::string_view special = escape_quote ? std::string_view("\\\n\"") : std::string_view("\\\n");
  while (true) {
    const size_t at = text.find_first_of(special);
    out.Append(text.substr(0, at));
    if (at == std::string_view::npos) return;
    const char c = text[at];
    out.Append(c == '\\' ? "\\\\" : c == '\n' ? "\\n" : "\\\"");
    text.remove_prefix(at + 1);
  }
}

// A sample's value as Prometheus writes it: NaN, +Inf and -Inf by those
// names, any other value as AppendNumber does.
void AppendSampleValue(TextSink& out, double value) {
  if (std::isnan(value)) {
    out.Append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out.Append(value > 0 ? "+Inf" : "-Inf");
    return;
  }
  AppendNumber(out, value);
}

}  // namespace

void PrometheusTextWriter::Family(std::string_view name, std::string_view help, MetricKind kind) {
  assert(IsValidName(name, /*allow_colon=*/true) && "metric names come from the catalog");
  family_ = name;
  catalog_family_ = -1;
  out_.Append("# HELP ");
  out_.Append(name);
  out_.Append(' ');
  AppendEscaped(out_, help, /*escape_quote=*/false);
  out_.Append("\n# TYPE ");
  out_.Append(name);
  out_.Append(kind == MetricKind::kCounter ? " counter\n" : " gauge\n");
}

void PrometheusTextWriter::Sample(std::span<const PrometheusLabel> labels, double value) {
  assert(!family_.empty() && "a sample belongs to a family: begin one first");
  out_.Append(family_);
  if (!labels.empty()) {
    out_.Append('{');
    bool first = true;
    for (const PrometheusLabel& label : labels) {
      assert(IsValidName(label.name, /*allow_colon=*/false) && "label names come from code, not input");
      if (!first) out_.Append(',');
      first = false;
      out_.Append(label.name);
      out_.Append("=\"");
      AppendEscaped(out_, label.value, /*escape_quote=*/true);
      out_.Append('"');
    }
    out_.Append('}');
  }
  out_.Append(' ');
  AppendSampleValue(out_, value);
  out_.Append('\n');
}

void PrometheusTextWriter::Sample(Metric metric, std::span<const PrometheusLabel> labels, double recorded_value) {
  const MetricInfo& info = Info(metric);
  const int index = static_cast<int>(metric);
  if (index != catalog_family_) {
    assert(index < 64 && !(catalog_begun_ >> index & 1) && "a metric's samples come one after another");
    Family(info.prometheus_name, info.help, info.kind);
    catalog_family_ = index;
    catalog_begun_ |= uint64_t{1} << index;
  }
  Sample(labels, recorded_value * info.prometheus_scale);
}

std::string RenderPrometheusText(std::span<const MetricFamily> families) {
  StringSink out;
  PrometheusTextWriter writer(out);
  std::vector<PrometheusLabel> labels;
  for (const MetricFamily& family : families) {
    writer.Family(family.name, family.help, family.kind);
    for (const MetricSample& sample : family.samples) {
      labels.clear();
      for (const auto& [name, value] : sample.labels) labels.push_back(PrometheusLabel{name, value});
      writer.Sample(labels, sample.value);
    }
  }
  return out.Take();
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
