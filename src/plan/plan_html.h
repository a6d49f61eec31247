// RenderPlanHtml turns a plan (the plan.json document, docs/plan.md) into
// plan.html: one self-contained page that opens from file:// with no
// network access. It shows the recommendation and the plan's header, a
// scatter chart of network cost against effective GPU utilization (a point
// per design, coloured by fabric kind, the Pareto front as a line, the
// chosen design marked), the ranked table of designs, the bill of materials
// and the bottlenecks of the chosen design (or of a design picked in the
// table) and the rejected designs with their reasons. The chart is drawn by
// the ECharts report.html carries (telemetry/report_assets.h); the page's
// template, JS and CSS are web/plan/ (plan/plan_html_assets.h); the page's
// JS builds everything from the plan, which it carries in
// <script type="application/json" id="plan-data">.
// Pure functions of their arguments, deterministic (same plan, same bytes);
// safe to call from any thread.
//
// The fields the page reads are checked (others are kept and ignored):
//   "designs" (required): an array of objects, each with a string "name"
//   and "fabric_kind", finite numbers "cost_usd" and
//   "effective_gpu_utilization"; when present, "workloads" and
//   "bill_of_materials" are arrays of objects;
//   "rejected" (optional): an array of objects with string "name", "reason";
//   "recommendation", "plan", "gpu" (optional): strings.
//
// What a page may hold is capped (PlanHtmlLimits, defaults below). Over a
// cap, the plan is reduced deterministically before it is embedded, and the
// page says what was reduced (the data's "limits_applied" list):
//   - designs: the first `max_designs` (plan.json lists them best first);
//   - per design, the first `max_bill_lines` bill-of-materials lines and the
//     first `max_workloads` workloads;
//   - rejected designs: the first `max_rejected`.
// A plan within every cap is embedded exactly as given (but for invalid
// UTF-8 in a string, which becomes U+FFFD).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "core/text_sink.h"

namespace aifabric {

struct PlanHtmlLimits {
  size_t max_designs = 1000;    // points of the chart, rows of the table
  size_t max_bill_lines = 64;   // per design
  size_t max_workloads = 16;    // per design (table columns)
  size_t max_rejected = 500;
};

// The plan as the page will embed it: `plan` reduced to `limits` as above,
// with "limits_applied" (a list of sentences, one per reduction) added when
// anything was reduced. Fails with a message naming the field (e.g.
// "plan data: designs[2].cost_usd: expected a finite number") when `plan`
// lacks what the page reads.
[[nodiscard]] Result<nlohmann::ordered_json> CapPlanData(const nlohmann::ordered_json& plan,
                                                         const PlanHtmlLimits& limits = {});

// Writes the whole plan.html for `plan` into `out`. Fails as CapPlanData
// does, and then writes nothing.
[[nodiscard]] Status WritePlanHtml(const nlohmann::ordered_json& plan, TextSink& out,
                                   const PlanHtmlLimits& limits = {});

// The same bytes as a string.
[[nodiscard]] Result<std::string> RenderPlanHtml(const nlohmann::ordered_json& plan,
                                                 const PlanHtmlLimits& limits = {});

}  // namespace aifabric
