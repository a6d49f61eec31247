// The files of report.html compiled into the binary: ECharts'
// dist/echarts.min.js (from web/report/node_modules, version pinned by
// web/report/package-lock.json) and the page's own template, JS and CSS
// (web/report/). The definition is generated at build time by
// embed_report_assets.cmake (see report_assets.cmake). Immutable; safe to
// read from any thread.
#pragma once

#include <string_view>

namespace aifabric {

struct ReportAssets {
  std::string_view echarts_js;       // dist/echarts.min.js, byte for byte
  std::string_view echarts_version;  // "version" of node_modules/echarts/package.json
  std::string_view template_html;    // with {{TITLE}}, {{STYLE}}, ... markers
  std::string_view report_css;
  std::string_view report_js;
};

const ReportAssets& EmbeddedReportAssets();

}  // namespace aifabric
