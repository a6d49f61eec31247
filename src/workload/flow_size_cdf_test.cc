#include "workload/flow_size_cdf.h"

#include <gtest/gtest.h>

#include <string>
#include "test_paths.h"

namespace aifabric {
namespace {

std::string TrafficFile(const std::string& name) {
  return std::string(AIFABRIC_SOURCE_DIR) + "/data/traffic/" + name;
}

// Means from the table in data/README.md (HPCC traffic_gen files), by
// sum (x0 + x1)/2 * (y1 - y0)/100. WebSearch by hand:
//   (0+10k)/2*15 + (10k+20k)/2*5 + (20k+30k)/2*10 + (30k+50k)/2*10
//   + (50k+80k)/2*13 + (80k+200k)/2*7 + (200k+1M)/2*10 + (1M+2M)/2*10
//   + (2M+5M)/2*10 + (5M+10M)/2*7 + (10M+30M)/2*3 = 171,125,000, / 100
//   = 1,711,250 bytes.
// The table rounds to 0.1 byte, hence the 0.051 tolerance.
TEST(FlowSizeCdfTest, MeansOfTheRealFilesMatchTheTable) {
  struct Case {
    const char* file;
    double mean;
  };
  for (const Case& c : {Case{"WebSearch_distribution.txt", 1711250.0},
                        Case{"FbHdp_distribution.txt", 120420.8},
                        Case{"AliStorage2019.txt", 40869.8},
                        Case{"GoogleRPC2008.txt", 2891.6}}) {
    Result<FlowSizeCdf> cdf = FlowSizeCdf::Load(TrafficFile(c.file));
    ASSERT_TRUE(cdf.ok()) << cdf.error().message;
    EXPECT_NEAR(cdf->Mean(), c.mean, 0.051) << c.file;
  }
}

// WebSearch: mean 1,711,250 B; the standard deviation, from
// E[X^2] = sum over segments (y1-y0)/100 * (x0^2 + x0 x1 + x1^2)/3, is
// about 3.966e6 B. With n = 200,000 draws the standard error of the sample
// mean is 3.966e6 / sqrt(2e5) = 8,869 B = 0.518% of the mean, so a 1% band
// is ~1.93 standard errors (a random seed would fail ~5% of the time; the
// seed is fixed, so the test is deterministic). Rounding each draw to a
// whole byte moves the mean by < 0.5 B.
TEST(FlowSizeCdfTest, SampleMeanOfWebSearchMatchesTheAnalyticMean) {
  Result<FlowSizeCdf> cdf = FlowSizeCdf::Load(TrafficFile("WebSearch_distribution.txt"));
  ASSERT_TRUE(cdf.ok()) << cdf.error().message;
  Rng rng(42);
  constexpr int kDraws = 200000;
  double sum = 0;
  for (int i = 0; i < kDraws; ++i) {
    const uint64_t x = cdf->Sample(rng);
    ASSERT_GE(x, 1u);
    ASSERT_LE(x, 30000000u);
    sum += static_cast<double>(x);
  }
  EXPECT_NEAR(sum / kDraws, cdf->Mean(), 0.01 * cdf->Mean());
}

// A first point above 0% is a point mass: "500 40, 1000 100" has mean
// 500*0.4 + (500+1000)/2*0.6 = 200 + 450 = 650, and 40% of draws are 500.
TEST(FlowSizeCdfTest, FirstPointAboveZeroIsAPointMass) {
  Result<FlowSizeCdf> cdf = FlowSizeCdf::Parse("500 40\n1000 100\n", "mass.txt");
  ASSERT_TRUE(cdf.ok()) << cdf.error().message;
  EXPECT_DOUBLE_EQ(cdf->Mean(), 650.0);
  Rng rng(7);
  int at_500 = 0;
  for (int i = 0; i < 10000; ++i) {
    const uint64_t x = cdf->Sample(rng);
    ASSERT_GE(x, 500u);
    ASSERT_LE(x, 1000u);
    at_500 += x == 500;
  }
  // Binomial(10000, ~0.4): sd ~ 49; allow 5 sd.
  EXPECT_NEAR(at_500, 4000, 250);
}

TEST(FlowSizeCdfTest, SamplesAreAtLeastOneByte) {
  // Uniform on [0, 1]: round-to-nearest would give 0 for half the draws.
  Result<FlowSizeCdf> cdf = FlowSizeCdf::Parse("0 0\n1 100\n", "tiny.txt");
  ASSERT_TRUE(cdf.ok());
  Rng rng(1);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(cdf->Sample(rng), 1u);
}

TEST(FlowSizeCdfTest, ErrorsNameFileAndLine) {
  struct Case {
    const char* text;
    const char* expect;  // substring of the message
  };
  for (const Case& c : {
           Case{"0 0\n100 50\n50 60\n200 100\n", "c.txt:3: sizes must be non-decreasing"},
           Case{"0 0\n100 50\n200 40\n300 100\n", "c.txt:3: cumulative percents must be"},
           Case{"0 0\n100 50\n200 90\n", "c.txt:3: the last cumulative percent must be 100"},
           Case{"0 0\n10x 50\n200 100\n", "c.txt:2: expected a size in bytes"},
           Case{"0 0\n100 abc\n200 100\n", "c.txt:2: expected a cumulative percent"},
           Case{"0 0\n100 150\n", "c.txt:2: expected a cumulative percent in [0, 100]"},
           Case{"0 0\n100 50 7\n", "c.txt:2: expected `<size_bytes> <cumulative_percent>`"},
           Case{"100 100\n", "c.txt: expected at least 2"},
           Case{"", "c.txt: expected at least 2"},
           // every size 0: mean 0, an infinite number of flows for any load
           Case{"0 0\n0 100\n", "c.txt: the distribution's mean flow size is 0 bytes"},
           // 1e300 bytes would overflow Sample's uint64_t
           Case{"0 0\n1e300 100\n", "c.txt:2: expected a size in bytes in [0, 2^53]"},
       }) {
    Result<FlowSizeCdf> cdf = FlowSizeCdf::Parse(c.text, "c.txt");
    ASSERT_FALSE(cdf.ok()) << c.text;
    EXPECT_NE(cdf.error().message.find(c.expect), std::string::npos)
        << "got: " << cdf.error().message;
  }
  Result<FlowSizeCdf> missing = FlowSizeCdf::Load("/nonexistent/cdf.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("/nonexistent/cdf.txt"), std::string::npos);
}

TEST(FlowSizeCdfTest, SkipsBlankLinesCommentsAndCarriageReturns) {
  Result<FlowSizeCdf> cdf = FlowSizeCdf::Parse("# size pct\r\n0 0\r\n\r\n100 100\r\n\n", "c.txt");
  ASSERT_TRUE(cdf.ok()) << cdf.error().message;
  EXPECT_EQ(cdf->points().size(), 2u);
  EXPECT_DOUBLE_EQ(cdf->Mean(), 50.0);
}

}  // namespace
}  // namespace aifabric
