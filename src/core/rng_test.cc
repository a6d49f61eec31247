#include "core/rng.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace aifabric {
namespace {

TEST(Rng, SameSeedSameStreamDifferentSeedDifferentStream) {
  Rng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    differs |= x != c.Next();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, BelowIsUniform) {
  // 60,000 draws over 6 values: 10,000 expected each. Pearson's chi-square
  // with 5 degrees of freedom is below 20.52 with probability 0.999.
  Rng rng(3);
  std::vector<int> counts(6);
  for (int i = 0; i < 60000; ++i) counts[rng.Below(6)]++;
  double chi2 = 0;
  for (int c : counts) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
  EXPECT_LT(chi2, 20.52);
}

TEST(Rng, UniformAndExponentialMeans) {
  // Uniform [0,1): mean 1/2, sd 1/sqrt(12); exponential: mean = sd = m.
  // With n = 100,000 draws, 5 standard errors: 0.0046 and 5 * m / 316.
  Rng rng(11);
  const int n = 100000;
  double u = 0, e = 0;
  for (int i = 0; i < n; ++i) {
    const double x = rng.Uniform();
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    u += x;
    e += rng.Exponential(3.0);
  }
  EXPECT_NEAR(u / n, 0.5, 5 * (1 / std::sqrt(12.0)) / std::sqrt(n));
  EXPECT_NEAR(e / n, 3.0, 5 * 3.0 / std::sqrt(n));
}

TEST(Rng, ForksAreIndependentOfEachOther) {
  Rng parent(5);
  Rng a = parent.Fork(1), b = parent.Fork(2), a2 = parent.Fork(1);
  EXPECT_EQ(a.Next(), a2.Next());
  EXPECT_NE(a.Next(), b.Next());
}

}  // namespace
}  // namespace aifabric
