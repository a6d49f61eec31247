#include "calibrate/nccl_tests_table.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "test_paths.h"

namespace aifabric {
namespace {

std::string TablePath(const char* name) { return std::string(AIFABRIC_SOURCE_DIR) + "/data/validation/" + name; }

TEST(NcclTestsTable, TheH100PairsTableReadsAsItsRun) {
  // The published table's five sizes (1-16 GiB), 16 ranks on 2 hosts.
  Result<NcclTestsLog> t = ReadNcclTestsLog(TablePath("nccl_tests_h100_2node_allreduce_ocitutorials.csv"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->op, CollectiveOp::kAllReduce);
  EXPECT_EQ(t->op_from, "table");
  // 446.28 / 238.02 = 1.87497 = 2(n-1)/n -> n = 16, and "# system: 2 nodes x 8 GPUs".
  EXPECT_EQ(t->ranks, 16);
  EXPECT_EQ(t->hosts, 2);
  ASSERT_EQ(t->rows.size(), 5u);
  EXPECT_EQ(t->rows[0].line, 20);  // after 18 comment lines and the header
  EXPECT_EQ(t->rows[0].bytes, 1073741824u);
  EXPECT_DOUBLE_EQ(t->rows[0].out_of_place.time_us, 4511.2);
  EXPECT_DOUBLE_EQ(t->rows[0].out_of_place.busbw_gb_per_s, 446.28);
  EXPECT_EQ(t->rows[4].bytes, 17179869184u);
  EXPECT_DOUBLE_EQ(t->rows[4].out_of_place.time_us, 69338);
  EXPECT_FALSE(t->rows[4].in_place.has_value());
}

TEST(NcclTestsTable, TheOneServerTableHoldsWhatItsLogPrints) {
  // data/validation's A100 table was copied from the log in
  // data/nccl_tests_logs/: every size and out-of-place figure agrees.
  Result<NcclTestsLog> t = ReadNcclTestsLog(TablePath("nccl_tests_a100_1node_allreduce_ocitutorials.csv"));
  Result<NcclTestsLog> log = ReadNcclTestsLog(std::string(AIFABRIC_SOURCE_DIR) +
                                              "/data/nccl_tests_logs/all_reduce_perf_a100x8_ocitutorials.log");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(t->ranks, 8);
  EXPECT_EQ(t->hosts, 1);
  ASSERT_EQ(t->rows.size(), log->rows.size());
  for (size_t i = 0; i < t->rows.size(); ++i) {
    EXPECT_EQ(t->rows[i].bytes, log->rows[i].bytes);
    EXPECT_DOUBLE_EQ(t->rows[i].out_of_place.time_us, log->rows[i].out_of_place.time_us) << t->rows[i].bytes;
    EXPECT_DOUBLE_EQ(t->rows[i].out_of_place.busbw_gb_per_s, log->rows[i].out_of_place.busbw_gb_per_s);
  }
}

TEST(NcclTestsTable, ATableIsKnownByItsNameOrItsHeader) {
  const std::string text = "# two ranks\nop,size_bytes,time_us,algbw_gbps,busbw_gbps\nall_reduce,1024,20.5,0.05,0.05\n";
  EXPECT_TRUE(IsNcclTestsTable("run.csv", "anything"));
  EXPECT_TRUE(IsNcclTestsTable("run.txt", text));
  EXPECT_FALSE(IsNcclTestsTable("run.log", "# nThread 1 nGpus 8\n#  size count\n"));
  // A file without the .csv name is read as a table by its header.
  const std::string path = ::testing::TempDir() + "table_by_header.txt";
  std::ofstream(path) << text;
  Result<NcclTestsLog> t = ReadNcclTestsLog(path);
  std::remove(path.c_str());
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->rows.size(), 1u);
  EXPECT_DOUBLE_EQ(t->rows[0].out_of_place.time_us, 20.5);
}

TEST(NcclTestsTable, BadRowsNameFileLineAndField) {
  const std::string head = "# system: 1 node x 8 GPUs\nop,size_bytes,time_us,algbw_gbps,busbw_gbps\n";
  auto error = [&](const std::string& rows) {
    Result<NcclTestsLog> t = ParseNcclTestsTable(head + rows, "t.csv");
    return t.ok() ? std::string("ok") : t.error().message;
  };
  EXPECT_EQ(error("all_reduce,1024,20.5,0.05\n"),
            "t.csv:3: expected 5 fields (op,size_bytes,time_us,algbw_gbps,busbw_gbps), got 4");
  EXPECT_EQ(error("all_reduce,1024,20.5,0.05,0.09\nall_reduce,2K,21,0.1,0.17\n"),
            "t.csv:4: size_bytes: expected a whole number of bytes > 0, got '2K'");
  EXPECT_EQ(error("all_reduce,1024,,0.05,0.09\n"), "t.csv:3: time_us: expected a time > 0 (us), got ''");
  EXPECT_EQ(error("all_reduce,1024,0,0.05,0.09\n"), "t.csv:3: time_us: expected a time > 0 (us), got '0'");
  EXPECT_EQ(error("all_reduce,1024,20.5,fast,0.09\n"),
            "t.csv:3: algbw_gbps: expected a non-negative number or nothing, got 'fast'");
  EXPECT_EQ(error("all_reduce,1024,20.5,0.05,0.09\nall_gather,1024,20.5,0.05,0.04\n"),
            "t.csv:4: op: 'all_gather', but the rows above are all_reduce; a table holds one collective");
  EXPECT_EQ(error("allreduce,1024,20.5,0.05,0.09\n").substr(0, 43), "t.csv:3: op: unknown collective op 'allredu");
  EXPECT_EQ(error(""), "t.csv:2: the table has no rows");  // the header is its last line
  // 8 ranks by the system line, 16 by busbw / algbw = 1.875.
  EXPECT_EQ(error("all_reduce,1073741824,4511.2,238.02,446.28\n"),
            "t.csv:1: 1 node(s) x 8 GPUs, but the rows' busbw/algbw say 16 ranks");
  // The published peaks (one figure per system, more columns) are no run's table.
  Result<NcclTestsLog> peaks = ReadNcclTestsLog(TablePath("nccl_tests_published_peaks.csv"));
  ASSERT_FALSE(peaks.ok());
  EXPECT_EQ(peaks.error().message.rfind(TablePath("nccl_tests_published_peaks.csv") +
                                            ":8: expected the table header op,size_bytes,time_us,algbw_gbps,busbw_gbps",
                                        0),
            0u)
      << peaks.error().message;
}

}  // namespace
}  // namespace aifabric
