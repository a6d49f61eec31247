// The interference attribution (run/tenant_interference.h) on a case
// worked by hand.
#include "run/tenant_interference.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(Interference, SharesComeFromTheOthersBytesOnTheVictimsBottleneck) {
  // Ports 0..2: 100G, 100G, 400G. Victim 0 crosses ports 0 and 2.
  //   port 0: tenant 1 puts 300 B, tenant 2 100 B: foreign time 400x8/100G = 32 ns
  //   port 2: tenant 2 puts 1000 B:               foreign time 1000x8/400G = 20 ns
  // so port 0 is victim 0's bottleneck: share(0,1) = 300/400, share(0,2) =
  // 100/400; with slowdown 1.4 they add 0.3 and 0.1.
  // Victim 1 crosses ports 0 and 1; port 1 carries nobody else, port 0
  // carries 200 (tenant 0) + 100 (tenant 2): shares 2/3 and 1/3.
  // Victim 2 crosses 0 and 2: port 0 has 200 + 300 = 500 B foreign (40 ns),
  // port 2 has 200 B (4 ns): shares 200/500 and 300/500.
  const std::vector<std::vector<uint64_t>> bytes = {{200, 0, 200}, {300, 500, 0}, {100, 0, 1000}};
  const std::vector<uint64_t> rates = {100'000'000'000, 100'000'000'000, 400'000'000'000};
  const std::vector<double> slowdown = {1.4, 1.2, 0.9};
  const std::vector<InterferenceEntry> t = Interference(bytes, rates, slowdown);
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].victim, 0u);
  EXPECT_EQ(t[0].aggressor, 1u);
  EXPECT_DOUBLE_EQ(t[0].share, 0.75);
  EXPECT_NEAR(t[0].slowdown_part, 0.3, 1e-12);
  EXPECT_EQ(t[0].shared_bytes, 300u);
  EXPECT_DOUBLE_EQ(t[1].share, 0.25);
  EXPECT_NEAR(t[1].slowdown_part, 0.1, 1e-12);
  EXPECT_DOUBLE_EQ(t[2].share, 2.0 / 3);  // 1 <- 0
  EXPECT_DOUBLE_EQ(t[3].share, 1.0 / 3);  // 1 <- 2
  EXPECT_DOUBLE_EQ(t[4].share, 0.4);  // 2 <- 0
  EXPECT_DOUBLE_EQ(t[5].share, 0.6);  // 2 <- 1
  EXPECT_EQ(t[5].slowdown_part, 0);   // a tenant that sped up is slowed by nobody
  EXPECT_EQ(BottleneckPorts(bytes, rates, 0), (std::vector<size_t>{0}));
}

TEST(Interference, AVictimAloneOnItsLinksHasNoEntries) {
  const std::vector<std::vector<uint64_t>> bytes = {{10, 0}, {0, 10}};
  const std::vector<uint64_t> rates = {1, 1};
  const std::vector<double> slowdown = {1, 1};
  EXPECT_TRUE(Interference(bytes, rates, slowdown).empty());
}

}  // namespace
}  // namespace aifabric
