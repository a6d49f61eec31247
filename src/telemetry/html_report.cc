#include "telemetry/html_report.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "telemetry/html_page.h"
#include "telemetry/report_assets.h"

namespace aifabric {
namespace {

using Json = nlohmann::ordered_json;

// ---- Schema checks: each returns the first problem, naming the field. ----

std::optional<Error> Problem(const std::string& path, const std::string& what) {
  return Error{"report data: " + path + ": " + what};
}

bool IsFiniteNumber(const Json& v) { return v.is_number() && std::isfinite(v.get<double>()); }

std::optional<Error> CheckNumbers(const Json& parent, const char* key, const std::string& path) {
  if (!parent.contains(key) || !parent[key].is_array()) return Problem(path + "." + key, "expected an array of numbers");
  const Json& values = parent[key];
  for (size_t i = 0; i < values.size(); ++i) {
    if (!IsFiniteNumber(values[i])) {
      return Problem(path + "." + key + "[" + std::to_string(i) + "]", "expected a finite number");
    }
  }
  return std::nullopt;
}

std::optional<Error> CheckString(const Json& parent, const char* key, const std::string& path, bool required) {
  if (!parent.contains(key)) return required ? Problem(path + "." + key, "missing") : std::nullopt;
  if (!parent[key].is_string()) return Problem(path + "." + key, "expected a string");
  return std::nullopt;
}

std::optional<Error> CheckSameLength(const Json& parent, const char* a, const char* b, const std::string& path) {
  if (parent[a].size() == parent[b].size()) return std::nullopt;
  return Problem(path, std::to_string(parent[b].size()) + " " + b + " for " + std::to_string(parent[a].size()) + " " + a);
}

std::optional<Error> CheckHeatmap(const Json& map, const std::string& path) {
  if (!map.is_object()) return Problem(path, "expected an object");
  if (auto e = CheckString(map, "tier", path, true)) return e;
  if (!map.contains("links") || !map["links"].is_array()) return Problem(path + ".links", "expected an array of names");
  for (size_t i = 0; i < map["links"].size(); ++i) {
    if (!map["links"][i].is_string()) return Problem(path + ".links[" + std::to_string(i) + "]", "expected a string");
  }
  if (auto e = CheckNumbers(map, "times_ns", path)) return e;
  if (!map.contains("util") || !map["util"].is_array()) return Problem(path + ".util", "expected an array of rows");
  const Json& util = map["util"];
  if (util.size() != map["links"].size()) {
    return Problem(path + ".util", std::to_string(util.size()) + " rows for " + std::to_string(map["links"].size()) +
                                       " links");
  }
  for (size_t i = 0; i < util.size(); ++i) {
    const std::string row_path = path + ".util[" + std::to_string(i) + "]";
    if (!util[i].is_array()) return Problem(row_path, "expected an array of numbers");
    for (size_t j = 0; j < util[i].size(); ++j) {
      if (!IsFiniteNumber(util[i][j])) return Problem(row_path + "[" + std::to_string(j) + "]", "expected a finite number");
    }
    if (util[i].size() != map["times_ns"].size()) {
      return Problem(row_path, std::to_string(util[i].size()) + " values for " +
                                   std::to_string(map["times_ns"].size()) + " times_ns");
    }
  }
  return std::nullopt;
}

std::optional<Error> CheckSeries(const Json& chart, const std::string& path) {
  if (!chart.is_object()) return Problem(path, "expected an object");
  if (auto e = CheckString(chart, "title", path, true)) return e;
  if (auto e = CheckString(chart, "unit", path, false)) return e;
  if (auto e = CheckString(chart, "note", path, false)) return e;
  if (!chart.contains("lines")) return std::nullopt;
  if (!chart["lines"].is_array()) return Problem(path + ".lines", "expected an array");
  for (size_t i = 0; i < chart["lines"].size(); ++i) {
    const Json& line = chart["lines"][i];
    const std::string line_path = path + ".lines[" + std::to_string(i) + "]";
    if (!line.is_object()) return Problem(line_path, "expected an object");
    if (auto e = CheckString(line, "name", line_path, true)) return e;
    if (auto e = CheckNumbers(line, "times_ns", line_path)) return e;
    if (auto e = CheckNumbers(line, "values", line_path)) return e;
    if (auto e = CheckSameLength(line, "times_ns", "values", line_path)) return e;
  }
  return std::nullopt;
}

std::optional<Error> CheckFctCdf(const Json& cdf) {
  if (!cdf.is_object()) return Problem("fct_cdf", "expected an object");
  if (auto e = CheckNumbers(cdf, "fct_ns", "fct_cdf")) return e;
  if (auto e = CheckNumbers(cdf, "cdf", "fct_cdf")) return e;
  if (auto e = CheckSameLength(cdf, "fct_ns", "cdf", "fct_cdf")) return e;
  const Json& fct = cdf["fct_ns"];
  for (size_t i = 1; i < fct.size(); ++i) {
    if (fct[i].get<double>() < fct[i - 1].get<double>()) {
      return Problem("fct_cdf.fct_ns[" + std::to_string(i) + "]", "smaller than the one before (must be sorted)");
    }
  }
  return std::nullopt;
}

std::optional<Error> CheckFinding(const Json& finding, const std::string& path) {
  if (!finding.is_object()) return Problem(path, "expected an object");
  if (auto e = CheckString(finding, "kind", path, true)) return e;
  if (auto e = CheckString(finding, "node", path, true)) return e;
  // A straggler names a GPU's NIC, not a port: its port_peer is null.
  const bool no_port = finding.contains("port_peer") && finding["port_peer"].is_null();
  if (auto e = no_port ? std::nullopt : CheckString(finding, "port_peer", path, false)) return e;
  if (!finding.contains("severity") || !IsFiniteNumber(finding["severity"])) {
    return Problem(path + ".severity", "expected a finite number");
  }
  if (finding.contains("evidence") && !finding["evidence"].is_object()) {
    return Problem(path + ".evidence", "expected an object");
  }
  if (finding.contains("affected") && !finding["affected"].is_array()) {
    return Problem(path + ".affected", "expected an array");
  }
  return std::nullopt;
}

// A tenant's headline: its time shared and alone (finite, > 0 or 0 when it
// did not finish) and slowdown.
std::optional<Error> CheckTenant(const Json& tenant, const std::string& path) {
  if (!tenant.is_object()) return Problem(path, "expected an object");
  if (auto e = CheckString(tenant, "name", path, true)) return e;
  if (auto e = CheckString(tenant, "kind", path, true)) return e;
  if (auto e = CheckString(tenant, "headline", path, true)) return e;
  for (const char* key : {"shared_ms", "alone_ms", "slowdown"}) {
    if (!tenant.contains(key) || !IsFiniteNumber(tenant[key])) {
      return Problem(path + "." + key, "expected a finite number");
    }
  }
  return std::nullopt;
}

std::optional<Error> CheckInterference(const Json& entry, const std::string& path) {
  if (!entry.is_object()) return Problem(path, "expected an object");
  if (auto e = CheckString(entry, "victim", path, true)) return e;
  if (auto e = CheckString(entry, "aggressor", path, true)) return e;
  if (!entry.contains("share") || !IsFiniteNumber(entry["share"])) {
    return Problem(path + ".share", "expected a finite number");
  }
  return std::nullopt;
}

// `parent[key]`, when present, is an array whose elements pass `check`;
// `path` names `parent[key]` in messages.
std::optional<Error> CheckArrayOf(const Json& parent, const char* key, const std::string& path,
                                  std::optional<Error> (*check)(const Json&, const std::string&)) {
  if (!parent.contains(key)) return std::nullopt;
  if (!parent[key].is_array()) return Problem(path, "expected an array");
  for (size_t i = 0; i < parent[key].size(); ++i) {
    if (auto e = check(parent[key][i], path + "[" + std::to_string(i) + "]")) return e;
  }
  return std::nullopt;
}

std::optional<Error> CheckSchema(const Json& data) {
  if (!data.is_object()) return Problem("(top level)", "expected an object");
  if (auto e = CheckString(data, "title", "(top level)", false)) return e;
  if (data.contains("summary")) {
    if (!data["summary"].is_object()) return Problem("summary", "expected an object");
    for (const auto& [key, value] : data["summary"].items()) {
      if (!value.is_primitive()) return Problem("summary." + key, "expected a number, string, boolean or null");
    }
  }
  if (auto e = CheckArrayOf(data, "heatmaps", "heatmaps", CheckHeatmap)) return e;
  if (auto e = CheckArrayOf(data, "series", "series", CheckSeries)) return e;
  if (data.contains("fct_cdf")) {
    if (auto e = CheckFctCdf(data["fct_cdf"])) return e;
  }
  if (auto e = CheckArrayOf(data, "tenants", "tenants", CheckTenant)) return e;
  if (auto e = CheckArrayOf(data, "interference", "interference", CheckInterference)) return e;
  if (data.contains("diagnosis")) {
    const Json& diagnosis = data["diagnosis"];
    if (!diagnosis.is_object()) return Problem("diagnosis", "expected an object");
    if (auto e = CheckArrayOf(diagnosis, "findings", "diagnosis.findings", CheckFinding)) return e;
  }
  return std::nullopt;
}

// ---- Reductions (documented in html_report.h). ----

double Peak(const Json& values) {
  double peak = -std::numeric_limits<double>::infinity();
  for (const Json& v : values) peak = std::max(peak, v.get<double>());
  return peak;
}

// Indices of the `keep` largest peaks (ties: lower index), in index order.
std::vector<size_t> HighestPeaks(const std::vector<double>& peaks, size_t keep) {
  std::vector<size_t> order(peaks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return peaks[a] > peaks[b]; });
  order.resize(std::min(keep, order.size()));
  std::sort(order.begin(), order.end());
  return order;
}

size_t GroupSize(size_t n, size_t max) { return (n + max - 1) / max; }

// The first element of each group of `group` consecutive elements.
Json FirstOfGroups(const Json& values, size_t group) {
  Json out = Json::array();
  for (size_t i = 0; i < values.size(); i += group) out.push_back(values[i]);
  return out;
}

Json MeanOfGroups(const Json& values, size_t group) {
  Json out = Json::array();
  for (size_t i = 0; i < values.size(); i += group) {
    const size_t end = std::min(values.size(), i + group);
    double sum = 0;
    for (size_t j = i; j < end; ++j) sum += values[j].get<double>();
    out.push_back(sum / static_cast<double>(end - i));
  }
  return out;
}

Json MaxOfGroups(const Json& values, size_t group) {
  Json out = Json::array();
  for (size_t i = 0; i < values.size(); i += group) {
    const size_t end = std::min(values.size(), i + group);
    size_t best = i;
    for (size_t j = i + 1; j < end; ++j) {
      if (values[j].get<double>() > values[best].get<double>()) best = j;
    }
    out.push_back(values[best]);
  }
  return out;
}

Json Pick(const Json& values, const std::vector<size_t>& indices) {
  Json out = Json::array();
  for (size_t i : indices) out.push_back(values[i]);
  return out;
}

std::string Of(size_t kept, size_t total) { return std::to_string(kept) + " of " + std::to_string(total); }

Json CapHeatmap(const Json& map, const HtmlReportLimits& limits, Json& applied) {
  Json out = map;
  const std::string name = "Heat map " + map["tier"].get<std::string>() + ": ";
  const size_t links = map["links"].size();
  if (links > limits.max_heatmap_links) {
    std::vector<double> peaks;
    for (const Json& row : map["util"]) peaks.push_back(Peak(row));
    const std::vector<size_t> kept = HighestPeaks(peaks, limits.max_heatmap_links);
    out["links"] = Pick(map["links"], kept);
    out["util"] = Pick(map["util"], kept);
    applied.push_back(name + Of(kept.size(), links) + " links shown, those with the highest peak utilization.");
  }
  const size_t buckets = map["times_ns"].size();
  if (buckets > limits.max_heatmap_buckets) {
    const size_t group = GroupSize(buckets, limits.max_heatmap_buckets);
    out["times_ns"] = FirstOfGroups(map["times_ns"], group);
    for (Json& row : out["util"]) row = MeanOfGroups(row, group);
    applied.push_back(name + std::to_string(buckets) + " time buckets merged into " +
                      std::to_string(out["times_ns"].size()) + ", each the mean of " + std::to_string(group) +
                      " consecutive buckets.");
  }
  return out;
}

Json CapSeries(const Json& chart, const HtmlReportLimits& limits, Json& applied) {
  Json out = chart;
  if (!chart.contains("lines")) return out;
  const std::string name = "Chart " + chart["title"].get<std::string>() + ": ";
  const size_t lines = chart["lines"].size();
  if (lines > limits.max_lines) {
    std::vector<double> peaks;
    for (const Json& line : chart["lines"]) peaks.push_back(Peak(line["values"]));
    out["lines"] = Pick(chart["lines"], HighestPeaks(peaks, limits.max_lines));
    applied.push_back(name + Of(limits.max_lines, lines) + " lines shown, those with the highest peaks.");
  }
  size_t merged = 0;
  for (Json& line : out["lines"]) {
    const size_t points = line["times_ns"].size();
    if (points <= limits.max_points) continue;
    const size_t group = GroupSize(points, limits.max_points);
    line["times_ns"] = FirstOfGroups(line["times_ns"], group);
    line["values"] = MaxOfGroups(line["values"], group);
    ++merged;
  }
  if (merged > 0) {
    applied.push_back(name + std::to_string(merged) + " line(s) over " + std::to_string(limits.max_points) +
                      " points merged: each point is the maximum of a group of consecutive points.");
  }
  return out;
}

Json CapFctCdf(const Json& cdf, const HtmlReportLimits& limits, Json& applied) {
  assert(limits.max_cdf_points >= 2);
  const size_t n = cdf["fct_ns"].size();
  if (n <= limits.max_cdf_points) return cdf;
  const size_t m = limits.max_cdf_points;
  std::vector<size_t> kept;
  for (size_t k = 0; k < m; ++k) kept.push_back((k * (n - 1) + (m - 1) / 2) / (m - 1));  // round(k(n-1)/(m-1))
  Json out = cdf;
  out["fct_ns"] = Pick(cdf["fct_ns"], kept);
  out["cdf"] = Pick(cdf["cdf"], kept);
  applied.push_back("FCT CDF: " + Of(m, n) + " points shown, evenly spaced by rank (the first and last kept).");
  return out;
}

Json CapFindings(const Json& findings, const HtmlReportLimits& limits, Json& applied) {
  if (findings.size() <= limits.max_findings) return findings;
  std::vector<size_t> order(findings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return findings[a]["severity"].get<double>() > findings[b]["severity"].get<double>();
  });
  order.resize(limits.max_findings);
  applied.push_back("Diagnosis: " + Of(limits.max_findings, findings.size()) + " findings shown, the most severe.");
  return Pick(findings, order);
}

Json CapChecked(const Json& data, const HtmlReportLimits& limits) {
  Json out = data;
  Json applied = Json::array();
  if (data.contains("summary") && data["summary"].size() > limits.max_summary_rows) {
    Json summary = Json::object();
    for (const auto& [key, value] : data["summary"].items()) {
      if (summary.size() == limits.max_summary_rows) break;
      summary[key] = value;
    }
    out["summary"] = std::move(summary);
    applied.push_back("Summary: " + Of(limits.max_summary_rows, data["summary"].size()) + " entries shown, the first.");
  }
  if (data.contains("heatmaps")) {
    const Json& maps = data["heatmaps"];
    if (maps.size() > limits.max_heatmaps) {
      applied.push_back("Heat maps: " + Of(limits.max_heatmaps, maps.size()) + " tiers shown, the first.");
    }
    Json kept = Json::array();
    for (size_t i = 0; i < std::min(maps.size(), limits.max_heatmaps); ++i) {
      kept.push_back(CapHeatmap(maps[i], limits, applied));
    }
    out["heatmaps"] = std::move(kept);
  }
  if (data.contains("series")) {
    const Json& charts = data["series"];
    if (charts.size() > limits.max_series) {
      applied.push_back("Charts: " + Of(limits.max_series, charts.size()) + " shown, the first.");
    }
    Json kept = Json::array();
    for (size_t i = 0; i < std::min(charts.size(), limits.max_series); ++i) {
      kept.push_back(CapSeries(charts[i], limits, applied));
    }
    out["series"] = std::move(kept);
  }
  if (data.contains("fct_cdf")) out["fct_cdf"] = CapFctCdf(data["fct_cdf"], limits, applied);
  if (data.contains("diagnosis") && data["diagnosis"].contains("findings")) {
    out["diagnosis"]["findings"] = CapFindings(data["diagnosis"]["findings"], limits, applied);
  }
  if (!applied.empty()) out["limits_applied"] = std::move(applied);
  return out;
}

// ---- The page. ----

std::string LimitsSentence(const HtmlReportLimits& limits) {
  const auto n = [](size_t v) { return std::to_string(v); };
  return "What this file may hold: " + n(limits.max_heatmaps) + " heat maps of at most " + n(limits.max_heatmap_links) +
         " links × " + n(limits.max_heatmap_buckets) + " time buckets; " + n(limits.max_series) + " charts of at most " +
         n(limits.max_lines) + " lines × " + n(limits.max_points) + " points; an FCT CDF of " +
         n(limits.max_cdf_points) + " points; " + n(limits.max_findings) + " findings; " +
         n(limits.max_summary_rows) + " summary entries. Larger data is reduced as the page says at its top.";
}

}  // namespace

Result<nlohmann::ordered_json> CapReportData(const nlohmann::ordered_json& data, const HtmlReportLimits& limits) {
  try {
    if (auto problem = CheckSchema(data)) return *problem;
    return CapChecked(data, limits);
  } catch (const nlohmann::json::exception& e) {  // not expected after CheckSchema; never let one escape
    return Error{std::string("report data: ") + e.what()};
  }
}

Status WriteHtmlReport(TextSink& out, const nlohmann::ordered_json& data, const HtmlReportLimits& limits) {
  Result<Json> capped = CapReportData(data, limits);
  if (!capped.ok()) return capped.error();
  std::string json_text;
  std::string title;
  try {
    // Invalid UTF-8 in a string becomes U+FFFD rather than an exception.
    json_text = capped->dump(-1, ' ', false, Json::error_handler_t::replace);
    title = EscapeHtml(capped->value("title", std::string("aifabric run")));
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("report data: ") + e.what()};
  }
  // Nothing can fail from here: a malformed report writes nothing.
  const ReportAssets& assets = EmbeddedReportAssets();
  const std::string limits_text = EscapeHtml(LimitsSentence(limits));
  const TemplateValue values[] = {{"TITLE", title},
                                  {"STYLE", assets.report_css},
                                  {"LIMITS", limits_text},
                                  {"ECHARTS_VERSION", assets.echarts_version},
                                  {"DATA", json_text, AppendEscapedForScript},
                                  {"ECHARTS", assets.echarts_js},
                                  {"SCRIPT", assets.report_js}};
  FillTemplate(out, assets.template_html, values);
  return Status::Ok();
}

Result<std::string> RenderHtmlReport(const nlohmann::ordered_json& data, const HtmlReportLimits& limits) {
  StringSink out;
  if (Status written = WriteHtmlReport(out, data, limits); !written.ok()) return written.error();
  return out.Take();
}

}  // namespace aifabric
