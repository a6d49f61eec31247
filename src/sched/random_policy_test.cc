// RandomPolicy: deterministic per seed, only free GPUs under the
// whole-server rule, uniform over feasible servers, declines the impossible.
#include "sched/random_policy.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

namespace aifabric {
namespace {

// Places and allocates a fixed sequence of jobs; returns every placement.
std::vector<std::vector<GpuId>> PlaceSequence(uint64_t seed) {
  GpuAllocation a(8, 4);
  RandomPolicy p(seed);
  std::vector<std::vector<GpuId>> out;
  const int sizes[] = {1, 3, 4, 2, 8, 1, 2};
  for (int i = 0; i < 7; ++i) {
    const std::string job = std::string("j").append(std::to_string(i));
    auto gpus = p.Place({job, sizes[i]}, a);
    EXPECT_TRUE(gpus.has_value()) << job;
    if (!gpus) continue;
    EXPECT_TRUE(a.Allocate(job, *gpus).ok()) << job;
    out.push_back(*gpus);
  }
  return out;
}

TEST(RandomPolicy, SameSeedSamePlacementsOtherSeedOthers) {
  EXPECT_EQ(PlaceSequence(1), PlaceSequence(1));
  EXPECT_EQ(PlaceSequence(42), PlaceSequence(42));
  EXPECT_NE(PlaceSequence(1), PlaceSequence(2));
}

// 400 random requests of 1..12 GPUs on 8 x 4 GPUs, releasing a random job
// whenever one cannot be placed. Every placement has exactly the GPUs
// asked, all free; a small job sits in one server; a large one covers
// ceil(g/4) servers that were all whole free servers.
TEST(RandomPolicy, OnlyFreeGpusUnderTheWholeServerRule) {
  GpuAllocation a(8, 4);
  RandomPolicy p(5);
  Rng sizes(9);
  std::vector<std::string> live;
  int placed = 0, large = 0;
  for (int i = 0; i < 400; ++i) {
    const int g = 1 + static_cast<int>(sizes.Below(12));
    const std::string job = std::string("j").append(std::to_string(i));
    const auto gpus = p.Place({job, g}, a);
    if (!gpus) {
      if (live.empty()) continue;
      const size_t k = static_cast<size_t>(sizes.Below(live.size()));
      ASSERT_TRUE(a.Release(live[k]).ok());
      live.erase(live.begin() + static_cast<long>(k));
      continue;
    }
    ASSERT_EQ(static_cast<int>(gpus->size()), g);
    std::set<int> servers;
    for (GpuId gpu : *gpus) {
      ASSERT_TRUE(a.is_free(gpu)) << gpu;
      servers.insert(gpu / 4);
    }
    if (g < 4) {
      EXPECT_EQ(servers.size(), 1u);
    } else {
      ++large;
      EXPECT_EQ(static_cast<int>(servers.size()), (g + 3) / 4);
      for (int s : servers) EXPECT_TRUE(a.server_fully_free(s)) << s;
    }
    ASSERT_TRUE(a.Allocate(job, *gpus).ok());
    live.push_back(job);
    ++placed;
  }
  EXPECT_GT(placed, 100);
  EXPECT_GT(large, 30);
}

// A 1-GPU job on an empty 8-server cluster, 8000 times (not allocated):
// each server is chosen with probability 1/8, so 1000 times on average with
// standard deviation sqrt(8000 * 1/8 * 7/8) = 29.6; allow 5 sigma. Each of
// the 32 GPUs: 250 on average, sd 15.6; allow 5 sigma.
TEST(RandomPolicy, ChoosesUniformlyAmongFeasibleServers) {
  GpuAllocation a(8, 4);
  RandomPolicy p(11);
  std::vector<int> per_server(8, 0), per_gpu(32, 0);
  for (int i = 0; i < 8000; ++i) {
    const auto gpus = p.Place({"j", 1}, a);
    ASSERT_TRUE(gpus);
    ++per_server[static_cast<size_t>((*gpus)[0] / 4)];
    ++per_gpu[static_cast<size_t>((*gpus)[0])];
  }
  for (int n : per_server) EXPECT_NEAR(n, 1000, 148);
  for (int n : per_gpu) EXPECT_NEAR(n, 250, 78);
  // Servers with too few free GPUs are never chosen: fill 0-6 to 2 free.
  for (int s = 0; s < 7; ++s) {
    ASSERT_TRUE(a.Allocate(std::string("b").append(std::to_string(s)), std::vector<GpuId>{4 * s, 4 * s + 1}).ok());
  }
  // Only server 7 (GPUs 28-31) fits 3 GPUs; its 4 subsets of 3 all occur.
  std::set<std::vector<GpuId>> subsets;
  for (int i = 0; i < 50; ++i) {
    const auto gpus = p.Place({"j", 3}, a);
    ASSERT_TRUE(gpus);
    ASSERT_EQ(gpus->size(), 3u);
    for (GpuId g : *gpus) EXPECT_EQ(g / 4, 7) << g;
    subsets.insert(*gpus);
  }
  EXPECT_EQ(subsets.size(), 4u);
}

TEST(RandomPolicy, ImpossibleRequestsAreDeclined) {
  GpuAllocation a(2, 4);
  ASSERT_TRUE(a.Allocate("x", std::vector<GpuId>{0, 5}).ok());
  RandomPolicy p(3);
  EXPECT_FALSE(p.Place({"j", 4}, a).has_value());  // no whole server left
  EXPECT_FALSE(p.Place({"j", 7}, a).has_value());  // 6 free
  EXPECT_FALSE(p.Place({"j", -1}, a).has_value());
}

}  // namespace
}  // namespace aifabric
