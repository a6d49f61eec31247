#include "telemetry/timeseries_csv.h"

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "telemetry/telemetry_test_util.h"

namespace aifabric {
namespace {

std::string Name(int node) { return node == 2 ? "spine,1" : "leaf" + std::to_string(node); }

// The store of LongFormatByHand.
void FillByHand(TimeSeriesStore& store) {
  store.AddSeries({0, 1, -1, Metric::kTxBytes});
  store.AddSeries({0, 1, 3, Metric::kPfcRxFrames});
  store.AddSeries({2, -1, 0, Metric::kQueueOccupancyBytes});
  const double r0[] = {0, 0, 0.1};
  const double r1[] = {1500, 1, 1e20};
  const double r2[] = {123456789012, 3, -2.5};
  store.RecordSample(Time::Zero(), r0);
  store.RecordSample(Time::FromPs(1500), r1);
  store.RecordSample(Time::FromNs(10), r2);
}

TEST(TimeseriesCsv, LongFormatByHand) {
  TimeSeriesStore store(4);
  FillByHand(store);
  const std::string expected =
      "time_ns,node,port,priority,metric,value\n"
      "0,leaf0,1,,SAI_PORT_STAT_IF_OUT_OCTETS,0\n"
      "0,leaf0,1,3,SAI_PORT_STAT_PFC_3_RX_PKTS,0\n"
      "0,\"spine,1\",,0,SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES,0.1\n"
      "1.500,leaf0,1,,SAI_PORT_STAT_IF_OUT_OCTETS,1500\n"
      "1.500,leaf0,1,3,SAI_PORT_STAT_PFC_3_RX_PKTS,1\n"
      "1.500,\"spine,1\",,0,SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES,1e+20\n"
      "10,leaf0,1,,SAI_PORT_STAT_IF_OUT_OCTETS,123456789012\n"
      "10,leaf0,1,3,SAI_PORT_STAT_PFC_3_RX_PKTS,3\n"
      "10,\"spine,1\",,0,SAI_QUEUE_STAT_CURR_OCCUPANCY_BYTES,-2.5\n";
  EXPECT_EQ(RenderTimeseriesCsv(store, Name), expected);
}

TEST(TimeseriesCsv, EmptyStoreIsTheHeader) {
  TimeSeriesStore store(4);
  store.AddSeries({0, 1, -1, Metric::kTxBytes});
  EXPECT_EQ(RenderTimeseriesCsv(store, Name), "time_ns,node,port,priority,metric,value\n");
}

TEST(TimeseriesCsv, RowsBoundedByTheStore) {
  // 2 series, max 8 points, 1000 samples: at most 8 points, so at most
  // 16 rows plus the header; exactly points() x 2 + 1 lines.
  TimeSeriesStore store(8);
  store.AddSeries({0, 1, -1, Metric::kTxBytes});
  store.AddSeries({0, 1, 0, Metric::kQueueWatermarkBytes});
  for (int i = 0; i < 1000; ++i) {
    const double row[] = {static_cast<double>(i), 0.5};
    store.RecordSample(Time::FromNs(i), row);
  }
  const std::string csv = RenderTimeseriesCsv(store, Name);
  const auto lines = std::count(csv.begin(), csv.end(), '\n');
  EXPECT_EQ(static_cast<size_t>(lines), store.points() * 2 + 1);
  EXPECT_LE(lines, 17);
  // The last row is the last sample of the watermark, as its shortest text.
  EXPECT_TRUE(csv.ends_with("\n999,leaf0,1,0,SAI_QUEUE_STAT_WATERMARK_BYTES,0.5\n")) << csv;
}

TEST(TimeseriesCsv, StreamedFileIsTheRenderedText) {
  TimeSeriesStore store(4);
  FillByHand(store);
  const int only[] = {2, 0};
  for (size_t buffer : {size_t{1}, size_t{7}, FileSink::kDefaultBufferBytes}) {
    EXPECT_EQ(telemetry_testing::ThroughFile([&](TextSink& out) { WriteTimeseriesCsv(out, store, Name); }, buffer),
              RenderTimeseriesCsv(store, Name));
    EXPECT_EQ(telemetry_testing::ThroughFile(
                  [&](TextSink& out) { WriteTimeseriesCsv(out, store, Name, Name, only); }, buffer),
              RenderTimeseriesCsv(store, Name, Name, only));
  }
}

// 400 series x 256 points = 102,400 rows of 45-60 bytes, about 5.5 MB: the
// file crosses the 1 MiB buffer five times.
TEST(TimeseriesCsv, ALargeStoreThroughAFileIsTheRenderedText) {
  TimeSeriesStore store(256);
  for (int port = 0; port < 100; ++port) {
    store.AddSeries({port / 10, port, -1, Metric::kTxBytes});
    store.AddSeries({port / 10, port, -1, Metric::kRxPackets});
    store.AddSeries({port / 10, port, 3, Metric::kQueueOccupancyBytes});
    store.AddSeries({port / 10, port, 3, Metric::kPfcPauseDurationUs});
  }
  std::vector<double> row(store.series());
  for (int j = 0; j < 256; ++j) {
    for (size_t id = 0; id < row.size(); ++id) row[id] = 1e6 * j + static_cast<double>(id) / (id % 4 == 3 ? 7 : 1);
    store.RecordSample(Time::FromPs(10'000'500LL * j), row);
  }
  ASSERT_EQ(store.points(), 256u);
  const std::string expected = RenderTimeseriesCsv(store, Name);
  EXPECT_GT(expected.size(), 5 * FileSink::kDefaultBufferBytes);
  EXPECT_EQ(static_cast<size_t>(std::count(expected.begin(), expected.end(), '\n')), 256 * 400 + 1u);
  const std::string streamed =
      telemetry_testing::ThroughFile([&](TextSink& out) { WriteTimeseriesCsv(out, store, Name); });
  EXPECT_TRUE(streamed == expected) << streamed.size() << " bytes streamed, " << expected.size() << " rendered";
}

}  // namespace
}  // namespace aifabric
