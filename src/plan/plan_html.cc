#include "plan/plan_html.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "plan/plan_html_assets.h"
#include "telemetry/html_page.h"
#include "telemetry/report_assets.h"

namespace aifabric {
namespace {

using Json = nlohmann::ordered_json;

// ---- Schema checks: each returns the first problem, naming the field. ----

std::optional<Error> Problem(const std::string& path, const std::string& what) {
  return Error{"plan data: " + path + ": " + what};
}

std::string At(const std::string& path, size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::optional<Error> CheckString(const Json& parent, const char* key, const std::string& path, bool required) {
  const std::string field = path.empty() ? key : path + "." + key;
  if (!parent.contains(key)) return required ? Problem(field, "missing") : std::nullopt;
  if (!parent[key].is_string()) return Problem(field, "expected a string");
  return std::nullopt;
}

std::optional<Error> CheckFinite(const Json& parent, const char* key, const std::string& path) {
  if (!parent.contains(key) || !parent[key].is_number() || !std::isfinite(parent[key].get<double>())) {
    return Problem(path + "." + key, "expected a finite number");
  }
  return std::nullopt;
}

// `parent[key]`, when present, is an array of objects.
std::optional<Error> CheckObjects(const Json& parent, const char* key, const std::string& path) {
  if (!parent.contains(key)) return std::nullopt;
  const std::string field = path.empty() ? key : path + "." + key;
  if (!parent[key].is_array()) return Problem(field, "expected an array");
  for (size_t i = 0; i < parent[key].size(); ++i) {
    if (!parent[key][i].is_object()) return Problem(At(field, i), "expected an object");
  }
  return std::nullopt;
}

std::optional<Error> CheckDesign(const Json& design, const std::string& path) {
  if (!design.is_object()) return Problem(path, "expected an object");
  if (auto e = CheckString(design, "name", path, true)) return e;
  if (auto e = CheckString(design, "fabric_kind", path, true)) return e;
  if (auto e = CheckFinite(design, "cost_usd", path)) return e;
  if (auto e = CheckFinite(design, "effective_gpu_utilization", path)) return e;
  if (auto e = CheckObjects(design, "workloads", path)) return e;
  return CheckObjects(design, "bill_of_materials", path);
}

std::optional<Error> CheckSchema(const Json& plan) {
  if (!plan.is_object()) return Problem("(top level)", "expected an object");
  for (const char* key : {"plan", "gpu", "recommendation"}) {
    if (auto e = CheckString(plan, key, "", false)) return e;
  }
  if (!plan.contains("designs") || !plan["designs"].is_array()) return Problem("designs", "expected an array");
  for (size_t i = 0; i < plan["designs"].size(); ++i) {
    if (auto e = CheckDesign(plan["designs"][i], At("designs", i))) return e;
  }
  if (auto e = CheckObjects(plan, "rejected", "")) return e;
  if (plan.contains("rejected")) {
    for (size_t i = 0; i < plan["rejected"].size(); ++i) {
      if (auto e = CheckString(plan["rejected"][i], "name", At("rejected", i), true)) return e;
      if (auto e = CheckString(plan["rejected"][i], "reason", At("rejected", i), true)) return e;
    }
  }
  return std::nullopt;
}

// ---- Reductions (documented in plan_html.h). ----

std::string Of(size_t kept, size_t total) { return std::to_string(kept) + " of " + std::to_string(total); }

// Keeps the first `max` elements of `array`; true when any went.
bool KeepFirst(Json& array, size_t max) {
  if (array.size() <= max) return false;
  array.erase(array.begin() + static_cast<std::ptrdiff_t>(max), array.end());
  return true;
}

Json CapChecked(const Json& plan, const PlanHtmlLimits& limits) {
  Json out = plan;
  Json applied = Json::array();
  const size_t designs = plan["designs"].size();
  if (KeepFirst(out["designs"], limits.max_designs)) {
    applied.push_back("Designs: " + Of(limits.max_designs, designs) +
                      " shown (chart and table), the best ranked; plan.json and plan.csv hold them all.");
  }
  size_t bills_cut = 0;
  size_t workloads_cut = 0;
  for (Json& design : out["designs"]) {
    if (design.contains("bill_of_materials") && KeepFirst(design["bill_of_materials"], limits.max_bill_lines)) {
      ++bills_cut;
    }
    if (design.contains("workloads") && KeepFirst(design["workloads"], limits.max_workloads)) ++workloads_cut;
  }
  if (bills_cut > 0) {
    applied.push_back("Bills of materials: the first " + std::to_string(limits.max_bill_lines) + " lines of " +
                      std::to_string(bills_cut) + " design(s) with more; plan.json holds every line.");
  }
  if (workloads_cut > 0) {
    applied.push_back("Workloads: the first " + std::to_string(limits.max_workloads) + " of " +
                      std::to_string(workloads_cut) + " design(s) with more; plan.json holds them all.");
  }
  if (plan.contains("rejected") && KeepFirst(out["rejected"], limits.max_rejected)) {
    applied.push_back("Rejected designs: " + Of(limits.max_rejected, plan["rejected"].size()) +
                      " shown, the first; plan.json holds them all.");
  }
  if (!applied.empty()) out["limits_applied"] = std::move(applied);
  return out;
}

// ---- The page (the same rules as report.html's, telemetry/html_report.cc). ----

std::string LimitsSentence(const PlanHtmlLimits& limits) {
  const auto n = [](size_t v) { return std::to_string(v); };
  return "What this file may hold: " + n(limits.max_designs) + " designs, each with " + n(limits.max_bill_lines) +
         " bill-of-materials lines and " + n(limits.max_workloads) + " workloads; " + n(limits.max_rejected) +
         " rejected designs. A larger plan is reduced as the page says at its top.";
}

}  // namespace

Result<nlohmann::ordered_json> CapPlanData(const nlohmann::ordered_json& plan, const PlanHtmlLimits& limits) {
  try {
    if (auto problem = CheckSchema(plan)) return *problem;
    return CapChecked(plan, limits);
  } catch (const nlohmann::json::exception& e) {  // not expected after CheckSchema; never let one escape
    return Error{std::string("plan data: ") + e.what()};
  }
}

Status WritePlanHtml(const nlohmann::ordered_json& plan, TextSink& out, const PlanHtmlLimits& limits) {
  Result<Json> capped = CapPlanData(plan, limits);
  if (!capped.ok()) return capped.error();
  std::string json_text;
  std::string title;
  try {
    // Invalid UTF-8 in a string becomes U+FFFD rather than an exception.
    json_text = capped->dump(-1, ' ', false, Json::error_handler_t::replace);
    // Through the same replacement, so the <title> is valid UTF-8 too.
    const Json name = capped->contains("plan") ? Json("plan " + (*capped)["plan"].get<std::string>())
                                               : Json("aifabric plan");
    const std::string clean = name.dump(-1, ' ', false, Json::error_handler_t::replace);
    title = EscapeHtml(Json::parse(clean).get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    return Error{std::string("plan data: ") + e.what()};
  }
  // Nothing can fail from here: a malformed plan writes nothing.
  const PlanHtmlAssets& assets = EmbeddedPlanHtmlAssets();
  const ReportAssets& report_assets = EmbeddedReportAssets();
  const std::string limits_text = EscapeHtml(LimitsSentence(limits));
  const TemplateValue values[] = {{"TITLE", title},
                                  {"STYLE", assets.plan_css},
                                  {"LIMITS", limits_text},
                                  {"ECHARTS_VERSION", report_assets.echarts_version},
                                  {"DATA", json_text, AppendEscapedForScript},
                                  {"ECHARTS", report_assets.echarts_js},
                                  {"SCRIPT", assets.plan_js}};
  FillTemplate(out, assets.template_html, values);
  return Status::Ok();
}

Result<std::string> RenderPlanHtml(const nlohmann::ordered_json& plan, const PlanHtmlLimits& limits) {
  StringSink out;
  if (Status written = WritePlanHtml(plan, out, limits); !written.ok()) return written.error();
  return out.Take();
}

}  // namespace aifabric
