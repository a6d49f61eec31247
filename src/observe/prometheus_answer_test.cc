#include "observe/prometheus_answer.h"

#include <cmath>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aifabric {
namespace {

using ::testing::HasSubstr;

// Answers in the shape prometheus.io/docs/prometheus/latest/querying/api/
// documents ("Expression query result formats").
TEST(PrometheusAnswer, ReadsAnInstantVector) {
  Result<PrometheusAnswer> a = ParsePrometheusAnswer(
      R"({"status":"success","data":{"resultType":"vector","result":[
          {"metric":{"__name__":"up","job":"prometheus","instance":"localhost:9090"},"value":[1435781451.781,"1"]},
          {"metric":{"__name__":"up","job":"node","instance":"localhost:9100"},"value":[1435781451.781,"0"]}]}})",
      200, "q");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->type, PromResultType::kVector);
  ASSERT_EQ(a->series.size(), 2u);
  EXPECT_EQ(a->series[0].labels.at("job"), "prometheus");
  ASSERT_EQ(a->series[0].samples.size(), 1u);
  EXPECT_DOUBLE_EQ(a->series[0].samples[0].time_s, 1435781451.781);
  EXPECT_EQ(a->series[0].samples[0].value, 1);
  EXPECT_EQ(a->series[1].samples[0].value, 0);
}

TEST(PrometheusAnswer, ReadsARangeMatrixWithSpecialValues) {
  Result<PrometheusAnswer> a = ParsePrometheusAnswer(
      R"({"status":"success","warnings":["w1"],"data":{"resultType":"matrix","result":[
          {"metric":{"node":"sw","port":"h0"},"values":[[10,"1e3"],[11,"2500.5"],[12,"NaN"],[13,"+Inf"]]}]}})", 200,
      "q");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->type, PromResultType::kMatrix);
  ASSERT_EQ(a->series.size(), 1u);
  const std::vector<PromSample>& s = a->series[0].samples;
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].value, 1000);
  EXPECT_EQ(s[1].value, 2500.5);
  EXPECT_TRUE(std::isnan(s[2].value));
  EXPECT_TRUE(std::isinf(s[3].value) && s[3].value > 0);
  EXPECT_EQ(s[3].time_s, 13);
  EXPECT_EQ(a->warnings, std::vector<std::string>{"w1"});
}

TEST(PrometheusAnswer, ReadsAScalar) {
  Result<PrometheusAnswer> a =
      ParsePrometheusAnswer(R"({"status":"success","data":{"resultType":"scalar","result":[5,"42"]}})", 200, "q");
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->type, PromResultType::kScalar);
  ASSERT_EQ(a->series.size(), 1u);
  EXPECT_TRUE(a->series[0].labels.empty());
  EXPECT_EQ(a->series[0].samples[0].value, 42);
}

TEST(PrometheusAnswer, AnErrorAnswerSaysWhatPrometheusSaid) {
  Result<PrometheusAnswer> a = ParsePrometheusAnswer(
      R"({"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected end of input"})", 400,
      "http://p/api/v1/query?query=x");
  ASSERT_FALSE(a.ok());
  EXPECT_THAT(a.error().message, HasSubstr("http://p/api/v1/query?query=x: Prometheus answered error (HTTP 400, "
                                           "bad_data): 1:5: parse error"));
}

TEST(PrometheusAnswer, RefusesWhatIsNotTheApisJson) {
  for (const char* body : {"<html>nginx</html>", "", "[1,2]", "{\"data\":{}}"}) {
    Result<PrometheusAnswer> a = ParsePrometheusAnswer(body, 200, "http://p/q");
    ASSERT_FALSE(a.ok()) << body;
    EXPECT_THAT(a.error().message, HasSubstr("http://p/q: the answer (HTTP 200)")) << body;
  }
  Result<PrometheusAnswer> status = ParsePrometheusAnswer("not json", 502, "u");
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.error().message, HasSubstr("(HTTP 502) is not a JSON object"));
}

TEST(PrometheusAnswer, RefusesResultsOfTheWrongShape) {
  const char* bodies[] = {
      R"({"status":"success","data":{"resultType":"string","result":[1,"a"]}})",
      R"({"status":"success","data":{"resultType":"vector","result":{}}})",
      R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"b"},"value":[1,2]}]}})",
      R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"b"},"values":[[1,"x"]]}]}})",
      R"({"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":1},"values":[]}]}})",
      R"({"status":"success","data":{"resultType":"vector"}})",
  };
  for (const char* body : bodies) {
    Result<PrometheusAnswer> a = ParsePrometheusAnswer(body, 200, "u");
    EXPECT_FALSE(a.ok()) << body;
  }
  Result<PrometheusAnswer> named = ParsePrometheusAnswer(bodies[3], 200, "u");
  ASSERT_FALSE(named.ok());
  EXPECT_THAT(named.error().message, HasSubstr("data.result[0] {a=\"b\"}: a value is not [time, \"value\"]"));
}

TEST(PrometheusAnswer, FormatsASeriesForMessages) {
  EXPECT_EQ(FormatSeries({{"__name__", "m_total"}, {"node", "sw"}, {"port", "h0"}}), "m_total{node=\"sw\",port=\"h0\"}");
  EXPECT_EQ(FormatSeries({{"__name__", "m"}}), "m");
  EXPECT_EQ(FormatSeries({}), "{}");
}

}  // namespace
}  // namespace aifabric
