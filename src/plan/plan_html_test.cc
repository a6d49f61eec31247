// Specs of plan.html's renderer: the page carries the plan exactly (the
// embedded JSON parses back to the input), nothing in a name can close its
// <script> or break the page's UTF-8, a plan over a cap is cut as
// plan_html.h says and the page says so, the same plan gives the same bytes,
// and a plan missing what the page reads is refused naming the field.
#include "plan/plan_html.h"

#include <gtest/gtest.h>

#include <string>

namespace aifabric {
namespace {

using Json = nlohmann::ordered_json;

Json Design(int rank, const std::string& name, const std::string& kind, double cost_usd, double util) {
  Json d;
  d["rank"] = rank;
  d["name"] = name;
  d["fabric_kind"] = kind;
  d["cost_usd"] = cost_usd;
  d["effective_gpu_utilization"] = util;
  d["pareto"] = rank == 1;
  d["workloads"] = Json::array({{{"name", "llama3-8b"}, {"kind", "training"}, {"step_time_s", 1.5},
                                 {"bottleneck", "data"}, {"exposed_comm_s", 0.25}}});
  d["bill_of_materials"] = Json::array();
  for (int i = 0; i < 3; ++i) {
    d["bill_of_materials"].push_back({{"category", "switch"}, {"part", "QM9790"}, {"count", i + 1},
                                      {"price_assumed", i == 2}});
  }
  return d;
}

Json SmallPlan() {
  Json plan;
  plan["plan"] = "small";
  plan["gpus"] = 32;
  plan["gpu"] = "H100";
  plan["recommendation"] = "Buy ib-a.";
  plan["designs"] = Json::array({Design(1, "ib-a", "ib", 1e5, 0.5), Design(2, "roce-b", "roce", 2e5, 0.45)});
  plan["rejected"] = Json::array({{{"name", "roce-800g"}, {"reason", "no NIC at 800G"}}});
  return plan;
}

// The text of the page's #plan-data element, parsed.
Json EmbeddedData(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"plan-data\">";
  const size_t begin = page.find(open);
  EXPECT_NE(begin, std::string::npos);
  const size_t start = begin + open.size();
  const size_t end = page.find("</script>", start);
  EXPECT_NE(end, std::string::npos);
  return Json::parse(page.substr(start, end - start));
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(PlanHtml, EmbedsThePlanExactlyWithTheAssets) {
  const Json plan = SmallPlan();
  Result<std::string> page = RenderPlanHtml(plan);
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(EmbeddedData(*page), plan);  // within every cap: no limits_applied either
  EXPECT_NE(page->find("<title>plan small · aifabric plan</title>"), std::string::npos);
  EXPECT_NE(page->find("echarts"), std::string::npos);
  EXPECT_NE(page->find("plan.html's page script"), std::string::npos);
  // No marker of the template is left unfilled.
  EXPECT_EQ(page->find("{{"), std::string::npos);
}

TEST(PlanHtml, SameBytesForTheSamePlanAndTheSinkMatchesTheString) {
  const Json plan = SmallPlan();
  Result<std::string> a = RenderPlanHtml(plan);
  Result<std::string> b = RenderPlanHtml(plan);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  StringSink sink;
  ASSERT_TRUE(WritePlanHtml(plan, sink).ok());
  EXPECT_EQ(sink.Take(), *a);
}

TEST(PlanHtml, NoNameCanCloseTheScriptOrOpenAComment) {
  Json plan = SmallPlan();
  const std::string evil = "x</script><script>alert(1)</script><!-- y";
  plan["plan"] = evil;
  plan["designs"][0]["name"] = evil;
  plan["rejected"][0]["reason"] = "</SCRIPT>";
  Result<std::string> page = RenderPlanHtml(plan);
  ASSERT_TRUE(page.ok()) << page.error().message;
  // The template's own three scripts close once each, and nothing else does.
  EXPECT_EQ(Count(*page, "</script>"), 3u);
  EXPECT_EQ(page->find("alert(1)</script>"), std::string::npos);
  EXPECT_EQ(page->find("<!-- y"), std::string::npos);
  // The title is HTML text, escaped.
  EXPECT_NE(page->find("<title>plan x&lt;/script&gt;&lt;script&gt;alert(1)"), std::string::npos);
  // And the data still reads back as given.
  EXPECT_EQ(EmbeddedData(*page), plan);
}

TEST(PlanHtml, InvalidUtf8BecomesReplacementCharacter) {
  Json plan = SmallPlan();
  plan["designs"][1]["name"] = std::string("roce-\xff-b");
  plan["plan"] = std::string("bad\xc3");
  Result<std::string> page = RenderPlanHtml(plan);
  ASSERT_TRUE(page.ok()) << page.error().message;
  const Json embedded = EmbeddedData(*page);
  EXPECT_EQ(embedded["designs"][1]["name"], "roce-\xef\xbf\xbd-b");  // U+FFFD
  EXPECT_NE(page->find("<title>plan bad\xef\xbf\xbd"), std::string::npos);
}

TEST(PlanHtml, CapsKeepTheFirstAndSaySo) {
  Json plan = SmallPlan();
  // (Names built by append: g++ 12 warns falsely on "literal" + to_string.)
  for (int i = 3; i <= 5; ++i) {
    plan["designs"].push_back(Design(i, std::string("d").append(std::to_string(i)), "ib", 1e5 * i, 0.4));
  }
  for (int i = 0; i < 3; ++i) {
    plan["rejected"].push_back({{"name", std::string("r").append(std::to_string(i))}, {"reason", "why"}});
  }
  PlanHtmlLimits limits;
  limits.max_designs = 3;
  limits.max_bill_lines = 2;
  limits.max_rejected = 2;
  Result<Json> capped = CapPlanData(plan, limits);
  ASSERT_TRUE(capped.ok()) << capped.error().message;
  // 5 designs -> the first 3, in rank order; 3 bill lines each -> the first 2.
  ASSERT_EQ((*capped)["designs"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ((*capped)["designs"][i]["rank"], i + 1);
    ASSERT_EQ((*capped)["designs"][i]["bill_of_materials"].size(), 2u);
    EXPECT_EQ((*capped)["designs"][i]["bill_of_materials"][1]["count"], 2);
  }
  // 4 rejected -> the first 2.
  ASSERT_EQ((*capped)["rejected"].size(), 2u);
  EXPECT_EQ((*capped)["rejected"][0]["name"], "roce-800g");
  const Json& applied = (*capped)["limits_applied"];
  ASSERT_EQ(applied.size(), 3u);
  EXPECT_NE(applied[0].get<std::string>().find("3 of 5 shown"), std::string::npos);
  EXPECT_NE(applied[1].get<std::string>().find("the first 2 lines of 3 design(s)"), std::string::npos);
  EXPECT_NE(applied[2].get<std::string>().find("2 of 4 shown"), std::string::npos);
  // The page embeds the capped data.
  Result<std::string> page = RenderPlanHtml(plan, limits);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(EmbeddedData(*page), *capped);
}

TEST(PlanHtml, RefusesAPlanMissingWhatThePageReads) {
  {
    Json plan = SmallPlan();
    plan["designs"][1].erase("cost_usd");
    Result<std::string> page = RenderPlanHtml(plan);
    ASSERT_FALSE(page.ok());
    EXPECT_EQ(page.error().message, "plan data: designs[1].cost_usd: expected a finite number");
  }
  {
    Json plan = SmallPlan();
    plan["designs"][0]["bill_of_materials"][2] = 7;
    Result<std::string> page = RenderPlanHtml(plan);
    ASSERT_FALSE(page.ok());
    EXPECT_EQ(page.error().message, "plan data: designs[0].bill_of_materials[2]: expected an object");
  }
  {
    Json plan = SmallPlan();
    plan.erase("designs");
    StringSink sink;
    Status s = WritePlanHtml(plan, sink);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "plan data: designs: expected an array");
    EXPECT_EQ(sink.Take(), "");  // a refused plan writes nothing
  }
  {
    Json plan = SmallPlan();
    plan["rejected"][0].erase("reason");
    Result<std::string> page = RenderPlanHtml(plan);
    ASSERT_FALSE(page.ok());
    EXPECT_EQ(page.error().message, "plan data: rejected[0].reason: missing");
  }
}

}  // namespace
}  // namespace aifabric
