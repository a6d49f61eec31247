#include "core/units.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(ParseBytes, BinaryAndDecimalUnits) {
  EXPECT_EQ(*ParseBytes("4KiB"), 4096u);
  EXPECT_EQ(*ParseBytes("1MB"), 1000000u);
  EXPECT_EQ(*ParseBytes("1GiB"), 1073741824u);
  EXPECT_EQ(*ParseBytes("8G"), 8ull << 30);  // nccl-tests reads G as 2^30
  EXPECT_EQ(*ParseBytes("4096"), 4096u);
  EXPECT_EQ(*ParseBytes("1.5KiB"), 1536u);
}

TEST(ParseBytes, RejectsGarbageAndNegatives) {
  EXPECT_FALSE(ParseBytes("-4KiB").ok());
  EXPECT_FALSE(ParseBytes("four").ok());
  EXPECT_FALSE(ParseBytes("4 parsecs").ok());
  EXPECT_NE(ParseBytes("x").error().message.find("expected a size"), std::string::npos);
}

TEST(ParseRate, GigabitsArePowersOfTen) {
  EXPECT_EQ(ParseRate("400Gbps")->bps(), 400'000'000'000ull);
  EXPECT_EQ(ParseRate("100Mbps")->bps(), 100'000'000ull);
  EXPECT_EQ(ParseRate("1.6Tbps")->bps(), 1'600'000'000'000ull);
  EXPECT_EQ(ParseRate("450GB/s")->bps(), 3'600'000'000'000ull);  // bytes: x 8
  EXPECT_EQ(ParseRate("1.8TB/s")->bps(), 14'400'000'000'000ull);
  EXPECT_FALSE(ParseRate("400").ok());      // unit required
  EXPECT_FALSE(ParseRate("-1Gbps").ok());
  EXPECT_FALSE(ParseRate("0Gbps").ok());
}

TEST(ParseTime, UnitsToPicoseconds) {
  EXPECT_EQ(ParseTime("500ns")->ps(), 500'000);
  EXPECT_EQ(ParseTime("1.5us")->ps(), 1'500'000);
  EXPECT_EQ(ParseTime("0.001ms")->ps(), 1'000'000);  // HPCC topology.txt style
  EXPECT_EQ(ParseTime("2s")->ps(), 2'000'000'000'000);
  EXPECT_FALSE(ParseTime("500").ok());
}

TEST(DataRate, TransmitTimeIsExactAndRoundsUp) {
  // 4178 bytes at 400 Gb/s: 4178 * 8 / 400e9 s = 83.56 ns = 83,560 ps exactly.
  EXPECT_EQ(DataRate::Gbps(400).TransmitTime(4178).ps(), 83'560);
  // 1 byte at 3 bps: 8/3 s = 2.666..e12 ps, rounded up.
  EXPECT_EQ(DataRate::BitsPerSecond(3).TransmitTime(1).ps(), 2'666'666'666'667);
  EXPECT_EQ(DataRate::Gbps(100).BytesIn(Time::FromNs(80)), 1000u);
}

TEST(Format, ReadableUnits) {
  EXPECT_EQ(FormatBytes(4096), "4KiB");
  EXPECT_EQ(FormatRate(DataRate::Gbps(400)), "400Gbps");
  EXPECT_EQ(FormatTime(Time::FromNs(1500)), "1.5us");
}

}  // namespace
}  // namespace aifabric
