#include "telemetry/metric_catalog.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(MetricCatalog, InEnumOrderWithUniqueNames) {
  std::set<std::string_view> sai, prom;
  size_t i = 0;
  for (const MetricInfo& info : AllMetrics()) {
    EXPECT_EQ(static_cast<size_t>(info.metric), i++);
    EXPECT_TRUE(sai.insert(info.sai_name).second) << info.sai_name;
    EXPECT_TRUE(prom.insert(info.prometheus_name).second) << info.prometheus_name;
    // Prometheus conventions: counters end in _total, names in base units.
    EXPECT_EQ(info.kind == MetricKind::kCounter, info.prometheus_name.ends_with("_total")) << info.prometheus_name;
  }
}

TEST(MetricCatalog, PriorityNamesRoundTrip) {
  EXPECT_EQ(SaiName(Metric::kPfcRxFrames, 3), "SAI_PORT_STAT_PFC_3_RX_PKTS");
  EXPECT_EQ(SaiName(Metric::kTxBytes, 3), "SAI_PORT_STAT_IF_OUT_OCTETS");
  const auto parsed = ParseSaiName("SAI_PORT_STAT_PFC_3_RX_PAUSE_DURATION_US");
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(parsed->first, Metric::kPfcPauseDurationUs);
  EXPECT_EQ(parsed->second, 3);
  EXPECT_EQ(ParseSaiName("SAI_QUEUE_STAT_BYTES")->second, -1);
  EXPECT_FALSE(ParseSaiName("SAI_PORT_STAT_PFC_9_RX_PKTS").has_value());
  EXPECT_FALSE(ParseSaiName("SAI_PORT_STAT_PFC__RX_PKTS").has_value());
  EXPECT_FALSE(ParseSaiName("nonsense").has_value());
}

}  // namespace
}  // namespace aifabric
