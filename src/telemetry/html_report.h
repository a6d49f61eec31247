// RenderHtmlReport turns one run's report data (a JSON document, schema
// below) into report.html: one self-contained page that opens from file://
// with no network access. It holds the run summary, a utilization heat map
// per tier, line charts over time (queue depth, throughput, ...), the FCT
// CDF, a shared run's tenants and interference table, and the diagnosis
// findings. Charts are drawn by ECharts, whose
// dist/echarts.min.js (version pinned in web/report/package.json) is compiled
// into the binary with the page's own template, JS and CSS
// (src/telemetry/report_assets.h); the page's JS builds everything from the
// data, which it carries in <script type="application/json" id="report-data">.
// Pure functions of their arguments, deterministic (same data, same bytes);
// safe to call from any thread.
//
// Data schema (every top-level key optional; unknown keys are kept and
// ignored; times in ns, as in the other output files):
//   {
//     "title": "quickstart",
//     "summary": {"model": "packet", "sim_time_ns": 415800, ...},
//         // key figures, shown as a table in this order; values are
//         // numbers, strings, booleans or null
//     "heatmaps": [                       // one per tier
//       {"tier": "leaf-spine",
//        "links": ["s1->s9", ...],        // L link names
//        "times_ns": [0, 10000, ...],     // T bucket start times
//        "util": [[...T numbers...], ...]  // L rows: util[link][bucket], 0..1
//       }],
//     "series": [                         // one line chart each
//       {"title": "Queue depth", "unit": "bytes",
//        "note": "not recorded at flow level",  // optional: shown when
//                                               // "lines" is empty or absent
//        "lines": [{"name": "s1 port 3", "times_ns": [...], "values": [...]}]}],
//     "fct_cdf": {"fct_ns": [...nondecreasing...], "cdf": [...0..1...]},
//         // on a log axis: points with fct_ns <= 0 are not drawn
//     "tenants": [                        // a shared run's workload items
//       {"name": "job-a", "kind": "training",
//        "headline": "mean step time",     // what shared_ms/alone_ms are
//        "shared_ms": 12.5, "alone_ms": 10.0, "slowdown": 1.25}],
//     "interference": [                   // victim x aggressor table
//       {"victim": "job-a", "aggressor": "job-b", "share": 0.8}],
//         // share: fraction of the victim's slowdown due to the aggressor
//     "diagnosis": {"findings": [
//       {"kind": "saturated_link", "node": "s1", "port_peer": "s9",
//        "severity": 0.9, "evidence": {...}, "affected": [...]}]}
//   }
// An empty or absent section renders as a short note, never as an empty
// chart. The page lists findings most severe first (stable for ties).
//
// What a report may cost is capped (HtmlReportLimits, defaults below). Over
// a cap, the data is reduced deterministically before it is embedded, and
// the page says what was reduced (the data's "limits_applied" list):
//   - heat maps: the first `max_heatmaps` tiers; per tier the
//     `max_heatmap_links` links with the highest peak utilization (ties: the
//     earlier link), in their input order; time buckets merged in groups of
//     g = ceil(T / max_heatmap_buckets) consecutive buckets: a group starts
//     at its first bucket's time and its utilization is the mean of its
//     buckets (the last group may hold fewer).
//   - charts: the first `max_series` charts; per chart the `max_lines`
//     lines with the highest peak value (ties: the earlier line), in input
//     order; per line, points merged in groups of g = ceil(n / max_points)
//     consecutive points: a group's time is its first point's time and its
//     value the group's maximum (so a queue spike stays visible).
//   - FCT CDF: n > max_cdf_points points thinned to the points of index
//     round(k * (n - 1) / (max_cdf_points - 1)), k = 0 .. max_cdf_points - 1
//     (the first and last points always kept).
//   - findings: the `max_findings` most severe (stable), most severe first.
//   - summary: the first `max_summary_rows` entries.
// Data within every cap is embedded exactly as given (but for invalid UTF-8
// in a string, which becomes U+FFFD).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "core/text_sink.h"

namespace aifabric {

struct HtmlReportLimits {
  size_t max_heatmaps = 4;           // tiers with a heat map
  size_t max_heatmap_links = 512;    // rows per heat map
  size_t max_heatmap_buckets = 256;  // columns per heat map
  size_t max_series = 8;             // line charts
  size_t max_lines = 16;             // lines per chart
  size_t max_points = 2000;          // points per line
  size_t max_cdf_points = 2000;      // REQUIRES: >= 2
  size_t max_findings = 200;
  size_t max_summary_rows = 64;
};

// The report data as the page will embed it: `data` reduced to `limits` as
// described above, with "limits_applied" (a list of sentences, one per
// reduction) added when anything was reduced. Fails with a message naming
// the field (e.g. "heatmaps[0].util[2]: 5 values for 4 times_ns") when
// `data` does not follow the schema.
[[nodiscard]] Result<nlohmann::ordered_json> CapReportData(const nlohmann::ordered_json& data,
                                                           const HtmlReportLimits& limits = {});

// Writes the whole report.html for `data` into `out` (it holds the capped
// data's JSON text, at most a few MB, besides what `out` holds). Fails as
// CapReportData does, and then writes nothing.
[[nodiscard]] Status WriteHtmlReport(TextSink& out, const nlohmann::ordered_json& data,
                                     const HtmlReportLimits& limits = {});

// The same bytes as a string.
[[nodiscard]] Result<std::string> RenderHtmlReport(const nlohmann::ordered_json& data,
                                                   const HtmlReportLimits& limits = {});

}  // namespace aifabric
