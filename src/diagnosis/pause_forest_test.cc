#include "diagnosis/pause_forest.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

// A chain 0 -> 1 -> 2 (2 not paused) and a second tree 5 -> 4.
TEST(PauseForest, ChainsEndAtTheirRoots) {
  const PauseForest f = BuildPauseForest(6, {{0, 1, 3}, {1, 2, 5}, {5, 4, 1}});
  EXPECT_EQ(f.cause[0], 1);
  EXPECT_EQ(f.cause[2], kNoPort);
  EXPECT_EQ(f.root[0], 2);
  EXPECT_EQ(f.root[1], 2);
  EXPECT_EQ(f.root[2], 2);
  EXPECT_EQ(f.root[5], 4);
  EXPECT_EQ(f.root[3], kNoPort);  // untouched
  EXPECT_EQ(f.depth[0], 2);
  EXPECT_EQ(f.depth[1], 1);
  EXPECT_EQ(f.depth[2], 0);
  EXPECT_EQ(f.roots, (std::vector<PortId>{2, 4}));
  EXPECT_EQ(f.frames_caused[2], 5u);
  EXPECT_EQ(f.frames_paused[0], 3u);
  EXPECT_TRUE(f.cycles.empty());
}

// Port 0 is paused for 1 (2+2 frames, summed over two records) and for 3 (3
// frames): 1 dominates. Port 5 has a tie (2 each for 7 and 6): lowest id, 6.
// Self-edges, zero frames and ports out of range are ignored.
TEST(PauseForest, DominantCauseSumsFramesAndBreaksTiesByLowestId) {
  const PauseForest f =
      BuildPauseForest(8, {{0, 3, 3}, {0, 1, 2}, {0, 1, 2}, {5, 7, 2}, {5, 6, 2}, {2, 2, 9}, {4, 1, 0}, {4, 9, 5}});
  EXPECT_EQ(f.cause[0], 1);
  EXPECT_EQ(f.frames_paused[0], 7u);
  EXPECT_EQ(f.cause[5], 6);
  EXPECT_EQ(f.cause[2], kNoPort);
  EXPECT_EQ(f.cause[4], kNoPort);
  EXPECT_EQ(f.roots, (std::vector<PortId>{1, 6}));
}

// 3 -> 1 -> 4 -> 3 is a cycle; 0 -> 3 and 2 -> 0 feed into it. The walk
// must stop and name the cycle from its lowest port, 1, in chain order.
TEST(PauseForest, CycleTerminatesAndIsReportedOnce) {
  const PauseForest f = BuildPauseForest(5, {{3, 1, 1}, {1, 4, 1}, {4, 3, 1}, {0, 3, 1}, {2, 0, 1}});
  ASSERT_EQ(f.cycles.size(), 1u);
  EXPECT_EQ(f.cycles[0], (std::vector<PortId>{1, 4, 3}));
  for (PortId p = 0; p < 5; ++p) {
    EXPECT_EQ(f.cycle[p], 0) << p;
    EXPECT_EQ(f.root[p], 1) << p;
  }
  EXPECT_EQ(f.depth[3], 0);
  EXPECT_EQ(f.depth[0], 1);
  EXPECT_EQ(f.depth[2], 2);
  EXPECT_TRUE(f.roots.empty());
}

// A chain of 200,000 ports resolves in one linear pass: every port's depth
// is its distance to the end.
TEST(PauseForest, LongChainIsLinear) {
  const int n = 200000;
  std::vector<PauseCause> causes;
  for (int p = 0; p + 1 < n; ++p) causes.push_back({p, p + 1, 1});
  const PauseForest f = BuildPauseForest(n, causes);
  EXPECT_EQ(f.depth[0], n - 1);
  EXPECT_EQ(f.depth[n / 2], n - 1 - n / 2);
  EXPECT_EQ(f.root[0], n - 1);
  EXPECT_EQ(f.roots, (std::vector<PortId>{n - 1}));
}

}  // namespace
}  // namespace aifabric
