#include "telemetry/html_report.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "telemetry/telemetry_test_util.h"
#include "test_paths.h"

namespace aifabric {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kDataOpen = "<script type=\"application/json\" id=\"report-data\">";

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Render(const Json& data, const HtmlReportLimits& limits = {}) {
  Result<std::string> page = RenderHtmlReport(data, limits);
  EXPECT_TRUE(page.ok()) << page.error().message;
  return page.ok() ? *page : "";
}

// The text between the data block's opening tag and the next </script>, as
// an HTML parser would cut it.
std::string DataBlock(const std::string& page) {
  const size_t open = page.find(kDataOpen);
  if (open == std::string::npos) return "";
  const size_t start = open + kDataOpen.size();
  return page.substr(start, page.find("</script>", start) - start);
}

// `prefix` followed by `n` ("l" + std::to_string(n) trips g++ 12's
// -Wrestrict false positive).
std::string Named(std::string prefix, int n) {
  prefix += std::to_string(n);
  return prefix;
}

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// A packet-level run: two tiers, queue depth and throughput, an FCT CDF and
// three findings, out of severity order, one naming a node that tries to
// close the data's <script> element.
Json PacketRun() {
  Json data = {{"title", "sample: packet-level incast"},
               {"summary",
                {{"model", "packet"}, {"sim_time_ns", 400000}, {"flows", 200}, {"p99_fct_ns", 181250.5},
                 {"drops", 0}, {"lossless", true}}}};
  const char* tiers[] = {"host-leaf", "leaf-spine"};
  for (int t = 0; t < 2; ++t) {
    Json map = {{"tier", tiers[t]}, {"links", Json::array()}, {"times_ns", Json::array()}, {"util", Json::array()}};
    const int links = t == 0 ? 8 : 4;
    for (int b = 0; b < 40; ++b) map["times_ns"].push_back(b * 10000);
    for (int l = 0; l < links; ++l) {
      map["links"].push_back(std::string(t == 0 ? "h" : "s") + std::to_string(l) + "->" + (t == 0 ? "s0" : "s9"));
      Json row = Json::array();
      for (int b = 0; b < 40; ++b) row.push_back(((l * 7 + b * 3) % 17) / 16.0);
      map["util"].push_back(row);
    }
    data["heatmaps"].push_back(map);
  }
  Json queue = {{"title", "Queue depth"}, {"unit", "bytes"}, {"lines", Json::array()}};
  Json throughput = {{"title", "Throughput"}, {"unit", "Gbps"}, {"lines", Json::array()}};
  for (int l = 0; l < 3; ++l) {
    Json q = {{"name", Named("s0 port ", l)}, {"times_ns", Json::array()}, {"values", Json::array()}};
    Json r = {{"name", Named("h", l)}, {"times_ns", Json::array()}, {"values", Json::array()}};
    for (int i = 0; i <= 100; ++i) {
      q["times_ns"].push_back(i * 4000);
      q["values"].push_back(((i * (l + 3)) % 50) * 1024);
      r["times_ns"].push_back(i * 4000);
      r["values"].push_back(100.0 + 25.0 * ((i + l * 11) % 9));
    }
    queue["lines"].push_back(q);
    throughput["lines"].push_back(r);
  }
  data["series"] = {queue, throughput};
  Json cdf = {{"fct_ns", Json::array()}, {"cdf", Json::array()}};
  for (int i = 1; i <= 200; ++i) {
    cdf["fct_ns"].push_back(5000 + i * i * 5);
    cdf["cdf"].push_back(i / 200.0);
  }
  data["fct_cdf"] = cdf;
  data["diagnosis"]["findings"] = {
      {{"kind", "ecmp_collision"}, {"node", "s1"}, {"port_peer", "s9"}, {"severity", 0.4},
       {"evidence", {{"flows_on_port", 3}, {"utilization", 1.0}}}, {"affected", {"flow 4", "flow 9"}}},
      {{"kind", "pfc_pause_root"}, {"node", "s0</script><script>document.title='pwned'</script>"},
       {"port_peer", "h7"}, {"severity", 0.95}, {"evidence", {{"paused_ports", 6}}}, {"affected", {"job 0"}}},
      {{"kind", "incast"}, {"node", "h7"}, {"severity", 0.7}, {"evidence", {{"senders", 7}}},
       {"affected", Json::array()}},
  };
  return data;
}

// A flow-level run: no queue data (the chart says so), one tier, no findings.
Json FlowRun() {
  Json data = PacketRun();
  data["title"] = "sample: flow-level";
  data["summary"]["model"] = "flow";
  data["heatmaps"].erase(1);
  data["series"][0]["lines"] = Json::array();
  data["series"][0]["note"] = "not recorded at flow level";
  data["diagnosis"]["findings"] = Json::array();
  return data;
}

// A shared run of three tenants: two training jobs slow each other, the
// inference service shares no link with job-b (that cell stays empty).
Json SharedRun() {
  Json data = FlowRun();
  data["title"] = "sample: shared fabric";
  data["tenants"] = {
      {{"name", "job-a"}, {"kind", "training"}, {"headline", "mean step time"}, {"shared_ms", 12.5},
       {"alone_ms", 10.0}, {"slowdown", 1.25}},
      {{"name", "job-b"}, {"kind", "training"}, {"headline", "mean step time"}, {"shared_ms", 8.0},
       {"alone_ms", 8.0}, {"slowdown", 1.0}},
      {{"name", "chat"}, {"kind", "inference"}, {"headline", "mean TTFT"}, {"shared_ms", 0.3},
       {"alone_ms", 0.25}, {"slowdown", 1.2}}};
  data["interference"] = {{{"victim", "job-a"}, {"aggressor", "job-b"}, {"share", 0.8}},
                          {{"victim", "job-a"}, {"aggressor", "chat"}, {"share", 0.2}},
                          {{"victim", "chat"}, {"aggressor", "job-a"}, {"share", 1.0}}};
  return data;
}

TEST(HtmlReport, EmbedsThePinnedEChartsWhole) {
  const std::filesystem::path web = std::filesystem::path(AIFABRIC_SOURCE_DIR) / "web/report";
  const std::string echarts = ReadFile(web / "node_modules/echarts/dist/echarts.min.js");
  ASSERT_GT(echarts.size(), 500000u);
  const std::string pinned = Json::parse(ReadFile(web / "package.json"))["dependencies"]["echarts"];
  std::string page = Render(PacketRun());
  const size_t at = page.find("<script>" + echarts + "</script>");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(page.find("version=\"" + pinned + "\""), std::string::npos);  // as echarts.min.js spells it
  EXPECT_NE(page.find("Apache ECharts " + pinned), std::string::npos);
  // Around ECharts, nothing to load: no src= or <link>.
  page.erase(at, echarts.size());
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
}

TEST(HtmlReport, DataBlockRoundTrips) {
  const Json data = PacketRun();
  const std::string page = Render(data);
  EXPECT_EQ(Count(page, kDataOpen), 1u);
  const Json parsed = Json::parse(DataBlock(page));
  EXPECT_EQ(parsed, data);  // within every cap: embedded exactly as given
  EXPECT_FALSE(parsed.contains("limits_applied"));
}

TEST(HtmlReport, NoStringCanCloseTheDataBlock) {
  Json data = PacketRun();
  data["summary"]["note"] = "<!--<script>";
  const std::string page = Render(data);
  // The page has three <script> elements (data, ECharts, page script), so
  // exactly three closing tags, whatever the node names hold.
  EXPECT_EQ(Count(page, "</script>"), 3u);
  EXPECT_EQ(Count(page, "<!--"), 1u);  // the template's own comment
  const std::string block = DataBlock(page);
  EXPECT_NE(block.find("s0<\\/script><script>document.title='pwned'<\\/script>"), std::string::npos);
  const Json parsed = Json::parse(block);
  EXPECT_EQ(parsed["diagnosis"]["findings"][1]["node"], "s0</script><script>document.title='pwned'</script>");
  EXPECT_EQ(parsed["summary"]["note"], "<!--<script>");
}

TEST(HtmlReport, TitleIsEscapedInTheHead) {
  const std::string page = Render({{"title", "a<b & \"c\""}});
  EXPECT_NE(page.find("<title>a&lt;b &amp; &quot;c&quot; · aifabric report</title>"), std::string::npos);
}

TEST(HtmlReport, InvalidUtf8BecomesReplacementCharacter) {
  const std::string page = Render({{"summary", {{"node", "s\xff" "1"}}}});
  EXPECT_EQ(DataBlock(page), "{\"summary\":{\"node\":\"s\xef\xbf\xbd" "1\"}}");  // U+FFFD in UTF-8
}

TEST(HtmlReport, EmptyDataRendersAPage) {
  const std::string page = Render(Json::object());
  EXPECT_EQ(DataBlock(page), "{}");
  EXPECT_NE(page.find("<title>aifabric run · aifabric report</title>"), std::string::npos);
}

TEST(HtmlReport, PageStatesTheDefaultCaps) {
  const std::string page = Render(Json::object());
  EXPECT_NE(page.find("4 heat maps of at most 512 links × 256 time buckets; 8 charts of at most 16 lines × 2000 "
                      "points; an FCT CDF of 2000 points; 200 findings; 64 summary entries."),
            std::string::npos);
}

TEST(HtmlReport, Deterministic) {
  EXPECT_EQ(Render(PacketRun()), Render(PacketRun()));
  EXPECT_EQ(Render(FlowRun()), Render(FlowRun()));
}

// Caps, worked by hand with small limits.
TEST(HtmlReportCaps, HeatMapKeepsHottestLinksAndAveragesBuckets) {
  HtmlReportLimits limits;
  limits.max_heatmap_links = 2;
  limits.max_heatmap_buckets = 2;
  const Json data = {{"heatmaps",
                      {{{"tier", "t"},
                        {"links", {"A", "B", "C"}},
                        {"times_ns", {0, 10, 20, 30, 40}},
                        {"util",
                         {{0.25, 0.5, 0.75, 0.5, 0.5},     // peak .75
                          {1.0, 0.0, 0.5, 0.0, 0.0},       // peak 1
                          {0.75, 0.75, 0.75, 0.75, 0.75}}}}}}};  // peak .75, tie with A: A is earlier
  Result<Json> capped = CapReportData(data, limits);
  ASSERT_TRUE(capped.ok()) << capped.error().message;
  // 5 buckets into groups of ceil(5/2) = 3: {0,10,20} and {30,40}.
  const Json expected = {{"tier", "t"},
                         {"links", {"A", "B"}},
                         {"times_ns", {0, 30}},
                         {"util", {{0.5, 0.5}, {0.5, 0.0}}}};
  EXPECT_EQ((*capped)["heatmaps"][0], expected);
  EXPECT_EQ((*capped)["limits_applied"],
            Json({"Heat map t: 2 of 3 links shown, those with the highest peak utilization.",
                  "Heat map t: 5 time buckets merged into 2, each the mean of 3 consecutive buckets."}));
}

TEST(HtmlReportCaps, LinesKeepHighestPeaksAndMaxOfGroups) {
  HtmlReportLimits limits;
  limits.max_lines = 2;
  limits.max_points = 2;
  const Json data = {{"series",
                      {{{"title", "Q"},
                        {"lines",
                         {{{"name", "L1"}, {"times_ns", {0, 1, 2}}, {"values", {1, 5, 2}}},
                          {{"name", "L2"}, {"times_ns", {0, 1, 2}}, {"values", {3, 3, 3}}},
                          {{"name", "L3"}, {"times_ns", {0, 1, 2}}, {"values", {0, 9, 0}}}}}}}}};
  Result<Json> capped = CapReportData(data, limits);
  ASSERT_TRUE(capped.ok()) << capped.error().message;
  // Peaks 5, 3, 9: L1 and L3 stay, in input order; 3 points in groups of 2.
  const Json expected = {{{"name", "L1"}, {"times_ns", {0, 2}}, {"values", {5, 2}}},
                         {{"name", "L3"}, {"times_ns", {0, 2}}, {"values", {9, 0}}}};
  EXPECT_EQ((*capped)["series"][0]["lines"], expected);
  EXPECT_EQ((*capped)["limits_applied"].size(), 2u);
}

TEST(HtmlReportCaps, CdfKeepsEvenlySpacedRanks) {
  HtmlReportLimits limits;
  limits.max_cdf_points = 4;
  // n = 6, m = 4: ranks round(k * 5 / 3) = 0, 2, 3, 5.
  const Json data = {{"fct_cdf", {{"fct_ns", {10, 20, 30, 40, 50, 60}}, {"cdf", {0.125, 0.25, 0.5, 0.625, 0.75, 1.0}}}}};
  Result<Json> capped = CapReportData(data, limits);
  ASSERT_TRUE(capped.ok()) << capped.error().message;
  EXPECT_EQ((*capped)["fct_cdf"], Json({{"fct_ns", {10, 30, 40, 60}}, {"cdf", {0.125, 0.5, 0.625, 1.0}}}));
}

TEST(HtmlReportCaps, FindingsSummaryAndSectionCounts) {
  HtmlReportLimits limits;
  limits.max_findings = 2;
  limits.max_summary_rows = 2;
  limits.max_heatmaps = 1;
  limits.max_series = 1;
  const Json map = {{"tier", "x"}, {"links", Json::array()}, {"times_ns", Json::array()}, {"util", Json::array()}};
  const Json data = {{"summary", {{"a", 1}, {"b", 2}, {"c", 3}}},
                     {"heatmaps", {map, map}},
                     {"series", {{{"title", "one"}}, {{"title", "two"}}}},
                     {"diagnosis",
                      {{"findings",
                        {{{"kind", "k0"}, {"node", "n"}, {"severity", 0.2}},
                         {{"kind", "k1"}, {"node", "n"}, {"severity", 0.9}},
                         {{"kind", "k2"}, {"node", "n"}, {"severity", 0.5}},
                         {{"kind", "k3"}, {"node", "n"}, {"severity", 0.9}}}}}}};
  Result<Json> capped = CapReportData(data, limits);
  ASSERT_TRUE(capped.ok()) << capped.error().message;
  EXPECT_EQ((*capped)["summary"], Json({{"a", 1}, {"b", 2}}));
  EXPECT_EQ((*capped)["heatmaps"].size(), 1u);
  EXPECT_EQ((*capped)["series"], Json({{{"title", "one"}}}));
  const Json& findings = (*capped)["diagnosis"]["findings"];
  ASSERT_EQ(findings.size(), 2u);  // the two of severity 0.9, in input order
  EXPECT_EQ(findings[0]["kind"], "k1");
  EXPECT_EQ(findings[1]["kind"], "k3");
  EXPECT_EQ((*capped)["limits_applied"].size(), 4u);
}

TEST(HtmlReportCaps, DefaultCapsAsDocumented) {
  Json map = {{"tier", "big"}, {"links", Json::array()}, {"times_ns", Json::array()}, {"util", Json::array()}};
  for (int b = 0; b < 300; ++b) map["times_ns"].push_back(b * 1000);
  for (int l = 0; l < 600; ++l) {
    map["links"].push_back(Named("l", l));
    // Link l peaks at l / 600 (in bucket l % 300): the last 512 are the hottest.
    Json row(300, 0.0);
    row[l % 300] = l / 600.0;
    map["util"].push_back(row);
  }
  Json chart = {{"title", "many"}, {"lines", Json::array()}};
  for (int l = 0; l < 20; ++l) {
    Json line = {{"name", Named("l", l)}, {"times_ns", Json::array()}, {"values", Json::array()}};
    for (int i = 0; i < 4001; ++i) {
      line["times_ns"].push_back(i);
      line["values"].push_back(l);
    }
    chart["lines"].push_back(line);
  }
  Json cdf = {{"fct_ns", Json::array()}, {"cdf", Json::array()}};
  for (int i = 0; i < 5000; ++i) {
    cdf["fct_ns"].push_back(i + 1);
    cdf["cdf"].push_back((i + 1) / 5000.0);
  }
  const Json data = {{"heatmaps", {map}}, {"series", {chart}}, {"fct_cdf", cdf}};
  const std::string page = Render(data);
  const Json embedded = Json::parse(DataBlock(page));
  const Json& kept = embedded["heatmaps"][0];
  ASSERT_EQ(kept["links"].size(), 512u);
  EXPECT_EQ(kept["links"][0], "l88");  // 600 - 512
  EXPECT_EQ(kept["links"][511], "l599");
  ASSERT_EQ(kept["times_ns"].size(), 150u);  // groups of ceil(300 / 256) = 2
  EXPECT_EQ(kept["times_ns"][1], 2000);
  // l599 peaks in bucket 299, the second of group 149: mean (0 + 599/600) / 2.
  EXPECT_DOUBLE_EQ(kept["util"][511][149].get<double>(), 599.0 / 600.0 / 2);
  const Json& lines = embedded["series"][0]["lines"];
  ASSERT_EQ(lines.size(), 16u);
  EXPECT_EQ(lines[0]["name"], "l4");  // the 16 highest constant values: 4 .. 19
  // 4001 points in groups of ceil(4001 / 2000) = 3 make ceil(4001 / 3) = 1334.
  EXPECT_EQ(lines[0]["values"].size(), 1334u);
  EXPECT_EQ(lines[0]["times_ns"][1], 3);
  const Json& fct = embedded["fct_cdf"]["fct_ns"];
  ASSERT_EQ(fct.size(), 2000u);
  EXPECT_EQ(fct.front(), 1);
  EXPECT_EQ(fct.back(), 5000);
  EXPECT_EQ(embedded["limits_applied"].size(), 5u);
  for (const Json& line : embedded["limits_applied"]) EXPECT_NE(page.find(line.get<std::string>()), std::string::npos);
}

// The page crosses the 1 MiB buffer (ECharts alone is about 1 MB).
TEST(HtmlReport, StreamedFileIsTheRenderedPage) {
  for (const Json& data : {PacketRun(), FlowRun()}) {
    const std::string page = Render(data);
    EXPECT_GT(page.size(), FileSink::kDefaultBufferBytes);
    for (size_t buffer : {size_t{4096}, FileSink::kDefaultBufferBytes}) {
      const std::string streamed = telemetry_testing::ThroughFile(
          [&](TextSink& out) { EXPECT_TRUE(WriteHtmlReport(out, data).ok()); }, buffer);
      EXPECT_TRUE(streamed == page) << streamed.size() << " bytes streamed, " << page.size() << " rendered";
    }
  }
}

TEST(HtmlReport, MalformedDataWritesNothing) {
  StringSink out;
  const Status written = WriteHtmlReport(out, {{"fct_cdf", {{"fct_ns", {5, 3}}, {"cdf", {0.5, 1}}}}});
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().message, "report data: fct_cdf.fct_ns[1]: smaller than the one before (must be sorted)");
  EXPECT_EQ(out.view(), "");
}

TEST(HtmlReportCaps, SchemaErrorsNameTheField) {
  const auto message = [](const Json& data) {
    Result<std::string> page = RenderHtmlReport(data);
    return page.ok() ? std::string("ok") : page.error().message;
  };
  EXPECT_EQ(message(Json::array()), "report data: (top level): expected an object");
  EXPECT_EQ(message({{"heatmaps", {{{"tier", "t"}, {"links", {"a"}}, {"times_ns", {0, 1}}, {"util", {{0.5}}}}}}}),
            "report data: heatmaps[0].util[0]: 1 values for 2 times_ns");
  EXPECT_EQ(message({{"heatmaps", {{{"tier", "t"}, {"links", {"a"}}, {"times_ns", {0}}, {"util", Json::array()}}}}}),
            "report data: heatmaps[0].util: 0 rows for 1 links");
  EXPECT_EQ(message({{"fct_cdf", {{"fct_ns", {5, 3}}, {"cdf", {0.5, 1}}}}}),
            "report data: fct_cdf.fct_ns[1]: smaller than the one before (must be sorted)");
  EXPECT_EQ(message({{"series", {{{"title", "q"}, {"lines", {{{"name", "x"}, {"times_ns", {1}}, {"values", {"y"}}}}}}}}}),
            "report data: series[0].lines[0].values[0]: expected a finite number");
  EXPECT_EQ(message({{"diagnosis", {{"findings", {{{"kind", "incast"}, {"severity", 1}}}}}}}),
            "report data: diagnosis.findings[0].node: missing");
  EXPECT_EQ(message({{"tenants", {{{"name", "a"}, {"kind", "training"}, {"headline", "step"}, {"shared_ms", 1}}}}}),
            "report data: tenants[0].alone_ms: expected a finite number");
  EXPECT_EQ(message({{"interference", {{{"victim", "a"}, {"share", 0.5}}}}}),
            "report data: interference[0].aggressor: missing");
  EXPECT_EQ(message({{"summary", {{"nested", {1, 2}}}}}),
            "report data: summary.nested: expected a number, string, boolean or null");
}

// Writes the sample reports that web/report/check_report.mjs opens in
// Chromium (ctest sets AIFABRIC_REPORT_SAMPLE_DIR; elsewhere a temp dir).
TEST(HtmlReportSample, WritesPacketFlowAndSharedReports) {
  const char* dir_env = std::getenv("AIFABRIC_REPORT_SAMPLE_DIR");
  const std::filesystem::path dir =
      dir_env ? std::filesystem::path(dir_env) : std::filesystem::path(::testing::TempDir()) / "report_sample";
  std::filesystem::create_directories(dir);
  for (const auto& [name, data] : {std::pair{"packet_report.html", PacketRun()}, std::pair{"flow_report.html", FlowRun()},
                                  std::pair{"shared_report.html", SharedRun()}}) {
    const std::string page = Render(data);
    {
      std::ofstream out(dir / name, std::ios::binary);
      out << page;
    }
    EXPECT_EQ(ReadFile(dir / name), page) << dir / name;
  }
}

}  // namespace
}  // namespace aifabric
