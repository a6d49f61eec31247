#include "workload/collective_sweep_report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace aifabric {
namespace {

// two decimals while they fit the width, then one, none, exponent.
TEST(CollectiveSweepReportTest, NumbersUseNcclTestsWidths) {
  EXPECT_EQ(FormatNcclTestsNumber(0.5, 6), "  0.50");
  EXPECT_EQ(FormatNcclTestsNumber(100, 7), " 100.00");
  EXPECT_EQ(FormatNcclTestsNumber(9999.994, 7), "9999.99");
  EXPECT_EQ(FormatNcclTestsNumber(12345.6, 7), "12345.6");
  EXPECT_EQ(FormatNcclTestsNumber(123456, 7), " 123456");
  EXPECT_EQ(FormatNcclTestsNumber(1.5e9, 7), "1.5e+09");
  EXPECT_EQ(FormatNcclTestsNumber(858.9934592, 6), "858.99");
  EXPECT_EQ(FormatNcclTestsNumber(1234567, 6), " 1e+06");
}

TEST(CollectiveSweepReportTest, HeaderMatchesNcclTests) {
  const std::string header = FormatSweepHeader();
  EXPECT_EQ(header,
            "#\n"
            "#                                                              out-of-place                       in-place          \n"
            "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n"
            "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         \n");
}

// all_reduce, 8 ranks, 1 MiB in 100 us: algbw = 1048576 B / 100 us =
// 10.48576 GB/s, busbw = 1.75 x = 18.35008 GB/s.
TEST(CollectiveSweepReportTest, RowMatchesAHandWrittenLine) {
  const SweepRow row =
      MakeSweepRow(CollectiveOp::kAllReduce, 8, 1 << 20, 0, Time::FromUs(100), Time::FromUs(100), true);
  EXPECT_EQ(FormatSweepRow(row),
            //     size         count      type   redop    root
            "     1048576        262144     float     sum      -1"
            //  time   algbw   busbw  #wrong
            "   100.00   10.49   18.35       0"
            "   100.00   10.49   18.35       0\n");
  // alltoall, 8 ranks, 8 GiB in 10 ms: algbw 858.99, busbw x 7/8 = 751.62;
  // nccl-tests does not check in-place alltoall: N/A.
  const SweepRow a2a =
      MakeSweepRow(CollectiveOp::kAllToAll, 8, 8ull << 30, 0, Time::FromMs(10), Time::FromMs(10), true);
  EXPECT_EQ(FormatSweepRow(a2a),
            "  8589934592     268435456     float    none      -1"
            "  10000.0  858.99  751.62       0"
            "  10000.0  858.99  751.62    N/A\n");
  // -c 0: every #wrong is N/A; broadcast prints its root.
  const SweepRow bcast =
      MakeSweepRow(CollectiveOp::kBroadcast, 2, 8, 1, Time::FromUs(5), Time::FromUs(5), false);
  EXPECT_EQ(FormatSweepRow(bcast),
            "           8             2     float    none       1"
            "     5.00    0.00    0.00    N/A"
            "     5.00    0.00    0.00    N/A\n");
}

TEST(CollectiveSweepReportTest, FooterAndJson) {
  const std::vector<SweepRow> rows = {
      MakeSweepRow(CollectiveOp::kAllReduce, 8, 1 << 20, 0, Time::FromUs(100), Time::FromUs(100), true),
      MakeSweepRow(CollectiveOp::kAllReduce, 8, 1 << 20, 0, Time::FromUs(200), Time::FromUs(200), true)};
  // (18.35008 + 18.35008 + 9.17504 + 9.17504) / 4 = 13.76256
  EXPECT_DOUBLE_EQ(AverageBusBandwidth(rows), 13.76256);
  EXPECT_EQ(FormatSweepFooter(13.76256, "all_reduce_perf"),
            "# Out of bounds values : 0 OK\n"
            "# Avg bus bandwidth    : 13.7626 \n"
            "#\n"
            "# Collective test concluded: all_reduce_perf\n"
            "#\n"
            "\n");
  const std::string table = FormatSweepTable(rows, "all_reduce_perf");
  EXPECT_EQ(table.find(FormatSweepHeader()), 0u);
  EXPECT_NE(table.find(FormatSweepRow(rows[1])), std::string::npos);

  SizeSweep sweep;
  sweep.min_bytes = 1 << 20;
  sweep.max_bytes = 2 << 20;
  sweep.step_factor = 2;
  const nlohmann::json j = SweepJson(rows, sweep, 8, {{"algorithm", "ring"}});
  EXPECT_EQ(j["version"], 2);
  EXPECT_EQ(j["config"]["step_factor"], 2);
  EXPECT_EQ(j["results"].size(), 2u);
  EXPECT_EQ(j["results"][0]["size"], 1048576);
  EXPECT_EQ(j["results"][0]["count"], 262144);
  EXPECT_EQ(j["results"][0]["redop"], "sum");
  EXPECT_EQ(j["results"][0]["root"], "    -1");
  EXPECT_DOUBLE_EQ(j["results"][0]["out_of_place"]["time"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(j["results"][0]["in_place"]["bus_bw"].get<double>(), 18.35008);
  EXPECT_EQ(j["results"][0]["in_place"]["nwrong"], 0.0);
  EXPECT_DOUBLE_EQ(j["average_bus_bandwidth"]["bandwidth"].get<double>(), 13.76256);
  EXPECT_EQ(j["aifabric"]["algorithm"], "ring");
}

}  // namespace
}  // namespace aifabric
