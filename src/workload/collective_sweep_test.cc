#include "workload/collective_sweep.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

// nccl-tests' parsesize: K/M/G are powers of 1024, either case.
TEST(CollectiveSweepTest, ParsesSizesAsNcclTestsDoes) {
  EXPECT_EQ(ParseNcclTestsSize("8").value(), 8u);
  EXPECT_EQ(ParseNcclTestsSize("1K").value(), 1024u);
  EXPECT_EQ(ParseNcclTestsSize("1k").value(), 1024u);
  EXPECT_EQ(ParseNcclTestsSize("128M").value(), 128u << 20);
  EXPECT_EQ(ParseNcclTestsSize("8G").value(), 8ull << 30);
  EXPECT_EQ(ParseNcclTestsSize("1.5K").value(), 1536u);
  EXPECT_EQ(ParseNcclTestsSize("2 m").value(), 2u << 20);
  EXPECT_EQ(ParseNcclTestsSize("8GB").value(), 8ull << 30);  // letters after the suffix are ignored
  EXPECT_EQ(ParseNcclTestsSize("7.9").value(), 7u);          // truncated
  for (const char* bad : {"", "abc", "8T", "8x", "-1", "K"}) {
    Result<uint64_t> r = ParseNcclTestsSize(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("expected bytes, optionally with K, M or G"), std::string::npos);
  }
  EXPECT_EQ(ParseNcclTestsSize("8T").error().message,
            "invalid size '8T': unknown suffix (expected bytes, optionally with K, M or G: 8, 1K, 8G)");
}

TEST(CollectiveSweepTest, SweepsLikeNcclTests) {
  SizeSweep s;
  s.min_bytes = 8;
  s.max_bytes = 128;
  s.step_factor = 2;
  EXPECT_EQ(SweepSizes(s).value(), (std::vector<uint64_t>{8, 16, 32, 64, 128}));
  s.max_bytes = 8ull << 30;  // -b 8 -e 8G -f 2: 8 = 2^3 .. 2^33, 31 sizes
  EXPECT_EQ(SweepSizes(s).value().size(), 31u);
  s = SizeSweep();
  s.min_bytes = 1024;
  s.max_bytes = 4000;
  s.step_bytes = 1024;  // -i: add
  EXPECT_EQ(SweepSizes(s).value(), (std::vector<uint64_t>{1024, 2048, 3072}));
  EXPECT_EQ(SweepSizes(SizeSweep()).value(), (std::vector<uint64_t>{32u << 20}));  // the defaults
  s.step_bytes = 0;
  EXPECT_FALSE(SweepSizes(s).ok());
  s.min_bytes = 5000;
  EXPECT_FALSE(SweepSizes(s).ok());
}

// Per-rank pieces are whole 16-byte lines: 1000 B of floats over 8 ranks is
// 250 elements, 31 per rank, 28 after rounding to 4-float lines: 896 B.
TEST(CollectiveSweepTest, CountsAndSizesPerOp) {
  const NcclTestsSizes ar = SizesFor(CollectiveOp::kAllReduce, 1 << 20, 8);
  EXPECT_EQ(ar.count, 262144u);
  EXPECT_EQ(ar.bytes, 1u << 20);
  const NcclTestsSizes ag = SizesFor(CollectiveOp::kAllGather, 1000, 8);
  EXPECT_EQ(ag.count, 28u);
  EXPECT_EQ(ag.bytes, 896u);
  const NcclTestsSizes a2a = SizesFor(CollectiveOp::kAllToAll, 1 << 20, 8);
  EXPECT_EQ(a2a.count, 32768u);
  EXPECT_EQ(a2a.bytes, 1u << 20);
  EXPECT_EQ(SizesFor(CollectiveOp::kBroadcast, 10, 8).count, 2u);
  EXPECT_EQ(SizesFor(CollectiveOp::kBroadcast, 10, 8).bytes, 8u);
}

// busbw factors for n = 8: 2*7/8 = 1.75; 7/8 = 0.875; 1.
TEST(CollectiveSweepTest, BusBandwidthFactors) {
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllReduce, 8), 1.75);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllGather, 8), 0.875);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kReduceScatter, 8), 0.875);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllToAll, 8), 0.875);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kBroadcast, 8), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kReduce, 8), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kSendRecv, 8), 1.0);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor(CollectiveOp::kAllReduce, 2), 1.0);
  // 4 GB in 20 ms: algbw 200 GB/s (10^9 B/s), busbw 350 GB/s for all_reduce.
  const Bandwidth bw = BandwidthFor(CollectiveOp::kAllReduce, 8, 4'000'000'000, Time::FromMs(20));
  EXPECT_DOUBLE_EQ(bw.alg_gb_per_s, 200.0);
  EXPECT_DOUBLE_EQ(bw.bus_gb_per_s, 350.0);
  EXPECT_EQ(NcclTestsRedop(CollectiveOp::kAllGather), "none");
  EXPECT_EQ(NcclTestsRedop(CollectiveOp::kReduce), "sum");
  EXPECT_EQ(NcclTestsRoot(CollectiveOp::kAllReduce, 3), -1);
  EXPECT_EQ(NcclTestsRoot(CollectiveOp::kBroadcast, 3), 3);
}

}  // namespace
}  // namespace aifabric
