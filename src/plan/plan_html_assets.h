// The files of plan.html compiled into the binary: the page's own template,
// JS and CSS (web/plan/). ECharts is not repeated here: the page takes the
// copy report.html already carries (telemetry/report_assets.h), so the
// binary holds one. The definition is generated at build time by
// embed_plan_html_assets.cmake (see plan_html_assets.cmake). Immutable;
// safe to read from any thread.
#pragma once

#include <string_view>

namespace aifabric {

struct PlanHtmlAssets {
  std::string_view template_html;  // with {{TITLE}}, {{STYLE}}, ... markers
  std::string_view plan_css;
  std::string_view plan_js;
};

const PlanHtmlAssets& EmbeddedPlanHtmlAssets();

}  // namespace aifabric
