// The interference attribution (run/tenant_interference.h) on cases
// worked by hand, with and without traffic classes.
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

TEST(Interference, ALowerClassDoesNotSlowAStrictVictim) {
  // One 100G port carries all three. Tenant 0 (inference) is in a strict
  // class (tier 4), tenant 1 (bulk training) in a DWRR class (tier 0),
  // tenant 2 (a second strict service, tier 4) beside tenant 0.
  //   victim 0: tenant 1 is below it and never served while 0 waits, so
  //     only tenant 2's 100 B compete: share(0,2) = 1, no entry for 1.
  //   victim 1: everyone above or beside it competes: 200 B of tenant 0
  //     and 100 B of tenant 2 of 300 B: shares 2/3 and 1/3.
  //   victim 2: as victim 0, only the other strict tenant competes:
  //     share(2,0) = 1.
  // Without tiers (all one class) victim 0 would blame tenant 1 for
  // 1000/1100 of its slowdown.
  const std::vector<std::vector<uint64_t>> bytes = {{200}, {1000}, {100}};
  const std::vector<uint64_t> rates = {100'000'000'000};
  const std::vector<double> slowdown = {1.02, 1.5, 1.0};
  const std::vector<int> tiers = {4, 0, 4};
  const std::vector<InterferenceEntry> t = Interference(bytes, rates, slowdown, tiers);
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[0].victim, 0u);
  EXPECT_EQ(t[0].aggressor, 2u);
  EXPECT_DOUBLE_EQ(t[0].share, 1.0);
  EXPECT_EQ(t[0].shared_bytes, 100u);
  EXPECT_EQ(t[1].victim, 1u);
  EXPECT_EQ(t[1].aggressor, 0u);
  EXPECT_DOUBLE_EQ(t[1].share, 2.0 / 3);
  EXPECT_EQ(t[2].aggressor, 2u);
  EXPECT_DOUBLE_EQ(t[2].share, 1.0 / 3);
  EXPECT_EQ(t[3].victim, 2u);
  EXPECT_EQ(t[3].aggressor, 0u);
  EXPECT_DOUBLE_EQ(t[3].share, 1.0);
  const std::vector<InterferenceEntry> flat = Interference(bytes, rates, slowdown);
  EXPECT_DOUBLE_EQ(flat[0].share, 1000.0 / 1100);  // 0 <- 1 when classes are ignored
}

TEST(Interference, AStrictVictimBesideOnlyLowerClassesHasNoEntries) {
  // The strict victim's only neighbour is below it: every share is 0 (no
  // entries), and no link is its bottleneck; the lower tenant still blames
  // the strict one for all of its slowdown.
  const std::vector<std::vector<uint64_t>> bytes = {{500, 0}, {4000, 10}};
  const std::vector<uint64_t> rates = {100'000'000'000, 100'000'000'000};
  const std::vector<double> slowdown = {1.0, 1.3};
  const std::vector<int> tiers = {1, 0};
  const std::vector<InterferenceEntry> t = Interference(bytes, rates, slowdown, tiers);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].victim, 1u);
  EXPECT_EQ(t[0].aggressor, 0u);
  EXPECT_DOUBLE_EQ(t[0].share, 1.0);
  EXPECT_NEAR(t[0].slowdown_part, 0.3, 1e-12);
  EXPECT_TRUE(BottleneckPorts(bytes, rates, 0, tiers).empty());
}

}  // namespace
}  // namespace aifabric
