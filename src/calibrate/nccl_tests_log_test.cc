#include "calibrate/nccl_tests_log.h"

#include <gtest/gtest.h>
#include "test_paths.h"

namespace aifabric {
namespace {

// The logs are real nccl-tests output copied from public issue threads
// (data/nccl_tests_logs/README.md gives each one's source).
std::string LogPath(const char* name) { return std::string(AIFABRIC_SOURCE_DIR) + "/data/nccl_tests_logs/" + name; }

Result<NcclTestsLog> Read(const char* name) { return ReadNcclTestsLog(LogPath(name)); }

TEST(NcclTestsLog, AllReduceWithNcclDebugWarnLinesAndTheOldLayout) {
  // nccl-tests before 2.10: no root column, "error" for "#wrong"; NCCL_DEBUG=WARN
  // prints "NCCL version" ahead of the table.
  Result<NcclTestsLog> log = Read("all_reduce_perf_256gpu_nccltests78.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kAllReduce);
  EXPECT_EQ(log->op_from, "log text");
  EXPECT_EQ(log->nccl_version, "2.8.4+cuda10.1");
  ASSERT_EQ(log->rows.size(), 6u);
  EXPECT_EQ(log->rows[0].bytes, 33554432u);
  EXPECT_EQ(log->rows[0].count, 8388608u);
  EXPECT_EQ(log->rows[0].root, -1);
  EXPECT_DOUBLE_EQ(log->rows[0].out_of_place.time_us, 1464.2);
  EXPECT_DOUBLE_EQ(log->rows[4].out_of_place.time_us, 16129);
  ASSERT_TRUE(log->rows[5].in_place.has_value());
  EXPECT_DOUBLE_EQ(log->rows[5].in_place->busbw_gb_per_s, 72.73);
  // No rank lines in the excerpt, and busbw/algbw = 71.55 / 35.92 = 1.99192
  // = 2(n-1)/n fits n = 247 and 248 alike (2 x 247/248 x 35.92 = 71.550,
  // 2 x 246/247 x 35.92 = 71.549) at two printed decimals: unknown.
  EXPECT_EQ(log->ranks, 0);
}

TEST(NcclTestsLog, AllReduceTableOnlyInfersSixteenRanks) {
  Result<NcclTestsLog> log = Read("all_reduce_perf_16rank_nccl1411.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op_from, "file name");
  ASSERT_EQ(log->rows.size(), 8u);
  // 148.99 / 79.46 = 1.87503 = 2(n-1)/n -> n = 16 (2 x 15 / 16 = 1.875).
  EXPECT_EQ(log->ranks, 16);
}

TEST(NcclTestsLog, AllGatherBfloat16) {
  Result<NcclTestsLog> log = Read("all_gather_perf_2gpu_nccl1435.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kAllGather);
  ASSERT_EQ(log->rows.size(), 7u);
  EXPECT_EQ(log->rows[6].type, "bfloat16");
  EXPECT_EQ(log->rows[6].redop, "none");
  // all_gather: count is one rank's share, size = count x 2 bytes x n ranks.
  EXPECT_EQ(log->rows[6].bytes, log->rows[6].count * 2 * 2);
  // busbw = algbw (n-1)/n: 77.10 / 154.20 = 1/2 -> n = 2.
  EXPECT_EQ(log->ranks, 2);
}

TEST(NcclTestsLog, ReduceScatterWithZeroSizeRows) {
  Result<NcclTestsLog> log = Read("reduce_scatter_perf_2x4gpu_nccltests128.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kReduceScatter);
  ASSERT_EQ(log->rows.size(), 7u);
  EXPECT_EQ(log->rows[0].bytes, 0u);
  EXPECT_DOUBLE_EQ(log->rows[5].out_of_place.time_us, 32.31);
  EXPECT_EQ(log->rows[5].line, 9);
}

TEST(NcclTestsLog, AllToAllWithRankLines) {
  Result<NcclTestsLog> log = Read("alltoall_perf_h20x8_nccltests314.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kAllToAll);
  EXPECT_EQ(log->ranks, 8);
  EXPECT_EQ(log->hosts, 1);
  EXPECT_EQ(log->rank_lines[7].device, 7);
  EXPECT_EQ(log->rank_lines[7].host, "TENCENT64");
  EXPECT_EQ(log->rank_lines[7].gpu, "NVIDIA H20-3e");
  ASSERT_EQ(log->rows.size(), 3u);
  EXPECT_DOUBLE_EQ(log->rows[2].out_of_place.busbw_gb_per_s, 61.84);
}

TEST(NcclTestsLog, AllToAllWithItsCommandLine) {
  Result<NcclTestsLog> log = Read("alltoall_perf_rtx4090x2_tinygrad17.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kAllToAll);
  EXPECT_EQ(log->op_from, "log text");
  EXPECT_EQ(log->gpus_per_process, 2);
  EXPECT_EQ(log->ranks, 2);
  EXPECT_EQ(log->rank_lines[1].gpu, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(log->rows.size(), 3u);
}

TEST(NcclTestsLog, SendRecvAcrossTwoHosts) {
  Result<NcclTestsLog> log = Read("sendrecv_perf_a40x2_nccltests214.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kSendRecv);
  EXPECT_EQ(log->ranks, 2);
  EXPECT_EQ(log->hosts, 2);
  ASSERT_EQ(log->rows.size(), 5u);
  EXPECT_DOUBLE_EQ(log->rows[4].out_of_place.time_us, 30.74);
}

TEST(NcclTestsLog, BroadcastOldLayoutWithNcclWarnLines) {
  Result<NcclTestsLog> log = Read("broadcast_perf_v100x2_nccltests82.log");
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kBroadcast);
  EXPECT_EQ(log->nccl_version, "2.9.6+cuda11.2");
  EXPECT_EQ(log->ranks, 2);
  EXPECT_EQ(log->hosts, 2);
  EXPECT_EQ(log->rank_lines[0].gpu, "Tesla V100-PCIE-16GB");
  ASSERT_EQ(log->rows.size(), 1u);
  EXPECT_EQ(log->rows[0].root, 0);
  EXPECT_EQ(log->rows[0].redop, "");
  EXPECT_DOUBLE_EQ(log->rows[0].in_place->time_us, 38.17);
}

TEST(NcclTestsLog, NcclDebugInfoLinesWithoutATableAreRejected) {
  // A real NCCL_DEBUG=INFO log cut off before its table.
  Result<NcclTestsLog> log = Read("all_reduce_perf_t4x2_info_nccl428.log");
  ASSERT_FALSE(log.ok());
  EXPECT_NE(log.error().message.find("all_reduce_perf_t4x2_info_nccl428.log:1: no nccl-tests result table"),
            std::string::npos)
      << log.error().message;
}

TEST(NcclTestsLog, InfoLinesGiveVersionNetworkChannelsAndChoices) {
  // NCCL_DEBUG=INFO lines as NCCL prints them (version, network, channels;
  // the tuner's "Bytes -> Algo A proto P", NCCL_DEBUG_SUBSYS=TUNING), with
  // mpirun --tag-output prefixes, around a two-row table.
  const std::string text =
      "[1,0]<stdout>:# nThread 1 nGpus 1 minBytes 8 maxBytes 16 step: 2(factor) warmup iters: 5 iters: 20\n"
      "[1,0]<stdout>:#  Rank  0 Group  0 Pid   11 on   node-a device  0 [0x0f] NVIDIA H100 80GB HBM3\n"
      "[1,0]<stdout>:#  Rank  1 Group  0 Pid   12 on   node-b device  0 [0x0f] NVIDIA H100 80GB HBM3\n"
      "node-a:11:11 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"
      "node-a:11:20 [0] NCCL INFO Using network IB\n"
      "node-a:11:20 [0] NCCL INFO Channel 00/04 :    0   1\n"
      "node-a:11:20 [0] NCCL INFO Channel 03/04 :    0   1\n"
      "node-a:11:20 [0] NCCL INFO 8 Bytes -> Algo 1 proto 0 time 12.5\n"
      "node-a:11:20 [0] NCCL INFO AllReduce: opCount 1 sendbuff 0x1 recvbuff 0x2 count 4 datatype 7 op 0 root 0"
      " comm 0x3 [nranks=2] stream 0x4 algorithm TREE protocol LL128\n"
      "[1,0]<stdout>:#       size         count      type   redop    root     time   algbw   busbw #wrong     time"
      "   algbw   busbw #wrong\n"
      "[1,0]<stdout>:           8             2     float     sum      -1    20.10    0.00    0.00      0    20.00"
      "    0.00    0.00      0\n"
      "[1,0]<stdout>:          16             4     float     sum      -1    21.50    0.00    0.00      0    21.40"
      "    0.00    0.00      0\n"
      "[1,0]<stdout>:# Avg bus bandwidth    : 0.00123 \n";
  Result<NcclTestsLog> log = ParseNcclTestsLog(text, "tagged.log", CollectiveOp::kAllReduce);
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->network, "IB");
  EXPECT_EQ(log->channels, 4);
  EXPECT_EQ(log->ranks, 2);
  EXPECT_EQ(log->hosts, 2);
  ASSERT_EQ(log->rows.size(), 2u);
  EXPECT_EQ(log->rows[0].algorithm, "ring");
  EXPECT_EQ(log->rows[0].protocol, "ll");
  EXPECT_EQ(log->rows[1].algorithm, "tree");
  EXPECT_EQ(log->rows[1].protocol, "ll128");
  ASSERT_TRUE(log->average_busbw_gb_per_s.has_value());
  EXPECT_DOUBLE_EQ(*log->average_busbw_gb_per_s, 0.00123);
}

constexpr char kHeader[] =
    "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw "
    "#wrong\n";

TEST(NcclTestsLog, BadRowsNameFileLineAndField) {
  const std::string short_row = std::string("# all_reduce_perf\n") + kHeader +
                                "           8             2     float     sum      -1    20.10    0.00\n";
  Result<NcclTestsLog> a = ParseNcclTestsLog(short_row, "bad.log");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "bad.log:3: expected 13 fields as the table header names them, got 7");

  const std::string bad_time = std::string("# all_reduce_perf\n") + kHeader +
                               "           8             2     float     sum      -1    fast    0.00    0.00      0"
                               "    20.00    0.00    0.00      0\n";
  Result<NcclTestsLog> b = ParseNcclTestsLog(bad_time, "bad.log");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error().message, "bad.log:3: out-of-place time: expected a non-negative number, got 'fast'");

  const std::string zero_time = std::string("# all_reduce_perf\n") + kHeader +
                                "        1024           256     float     sum      -1     0.00    0.00    0.00      0"
                                "    20.00    0.00    0.00      0\n";
  Result<NcclTestsLog> c = ParseNcclTestsLog(zero_time, "bad.log");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "bad.log:3: out-of-place time: expected > 0 us for 1024 bytes");
}

TEST(NcclTestsLog, AnEmptyTableOrAnUnknownCollectiveIsRejected) {
  Result<NcclTestsLog> empty = ParseNcclTestsLog(std::string("# all_reduce_perf\n") + kHeader, "empty.log");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "empty.log:3: the result table has no rows");
  // redop none, root -1: all_gather and alltoall print the same columns.
  const std::string ambiguous = std::string(kHeader) +
                                "     1048576         32768     float    none      -1    58.14   18.04   15.78      0"
                                "    57.87   18.12   15.85      0\n";
  Result<NcclTestsLog> which = ParseNcclTestsLog(ambiguous, "run.log");
  ASSERT_FALSE(which.ok());
  EXPECT_NE(which.error().message.find("run.log: cannot tell which collective"), std::string::npos);
}

TEST(NcclTestsLog, OversizedInputIsRejected) {
  const std::string big(kMaxNcclTestsLogBytes + 1, ' ');
  Result<NcclTestsLog> log = ParseNcclTestsLog(big, "big.log");
  ASSERT_FALSE(log.ok());
  EXPECT_NE(log.error().message.find("at most"), std::string::npos);
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

TEST(NcclTestsLog, AWholeAllReduceRunOnOneServer) {
  Result<NcclTestsLog> log = ReadNcclTestsLog(LogPath("all_reduce_perf_a100x8_ocitutorials.log"));
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->op, CollectiveOp::kAllReduce);
  EXPECT_EQ(log->ranks, 8);
  EXPECT_EQ(log->hosts, 1);
  EXPECT_EQ(log->gpus_per_process, 8);
  ASSERT_EQ(log->rows.size(), 28u);  // 64 B to 8 GiB, doubling: 2^6 .. 2^33
  EXPECT_EQ(log->rows.front().bytes, 64u);
  EXPECT_EQ(log->rows.back().bytes, 8589934592u);
  EXPECT_DOUBLE_EQ(log->rows.back().out_of_place.time_us, 63929);
  EXPECT_DOUBLE_EQ(*log->average_busbw_gb_per_s, 81.112);
}

TEST(NcclTestsLog, AWholeAllReduceRunOnTwoServers) {
  Result<NcclTestsLog> log = ReadNcclTestsLog(LogPath("all_reduce_perf_a100x16_2node_untuned_ocitutorials.log"));
  ASSERT_TRUE(log.ok()) << log.error().message;
  EXPECT_EQ(log->ranks, 16);
  EXPECT_EQ(log->hosts, 2);
  EXPECT_EQ(log->rank_lines[8].host, "inst-6ejzf-comp");
  ASSERT_EQ(log->rows.size(), 28u);
}

}  // namespace
}  // namespace aifabric
