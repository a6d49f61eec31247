// LocaliseLoss on hand-built cases, each worked out in the comment: the
// link most resending flows cross is picked first, hit ratio breaks ties,
// greedy explanation stops at lone flows and at links too few of whose
// flows resent.
#include "diagnosis/loss_tomography.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

TomographyFlow Lossy(std::vector<int> links) { return {std::move(links), true}; }
TomographyFlow Clean(std::vector<int> links) { return {std::move(links), false}; }

TEST(LossTomography, TheHeadersExample) {
  // A {0,1,3}, B {0,2,3} resent; C {4,2,5}, D {4,1,5} did not.
  //   link 0: F = {A, B}, e = 2, h = 2/2;  link 3: the same;
  //   link 1: F = {A, D}, e = 1, h = 1/2;  link 2: F = {B, C}, the same;
  //   links 4, 5: F = {C, D}, e = 0.
  // Links 0 and 3 tie on e and h (no flow tells them apart): the lower id.
  const std::vector<TomographyFlow> flows{Lossy({0, 1, 3}), Lossy({0, 2, 3}), Clean({4, 2, 5}), Clean({4, 1, 5})};
  const std::vector<TomographyPick> picks = LocaliseLoss(flows, 6);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].link, 0);
  EXPECT_EQ(picks[0].explained, (std::vector<int>{0, 1}));
  EXPECT_EQ(picks[0].crossing, 2u);
  EXPECT_EQ(picks[0].lossy, 2u);
  EXPECT_DOUBLE_EQ(picks[0].hit_ratio, 1.0);
}

TEST(LossTomography, ALinkAllOfWhoseFlowsResentBeatsTheHostLinksAndTheSharedDownlink) {
  // Two leaves' uplinks to a spine, as ids: host uplinks 0-4, leaf0 ->
  // spine0 10, leaf0 -> spine1 11 (the lossy one), spine0 -> leaf1 12,
  // spine1 -> leaf1 13, spine1 -> leaf2 14, leaf2 -> spine1 15, host
  // downlinks 20-24.
  //   F0 h0 -> leaf1 via spine1 {0, 11, 13, 20}  resent
  //   F1 h1 -> leaf1 via spine1 {1, 11, 13, 21}  resent
  //   F2 h2 -> leaf1 via spine0 {2, 10, 12, 22}  clean
  //   F3 h3 -> leaf2 via spine1 {3, 11, 14, 23}  resent
  //   F4 h4 (leaf2) -> leaf1 via spine1 {4, 15, 13, 24}  clean
  // link 11: e = 3, h = 3/3; link 13: e = 2, h = 2/3; each host link of a
  // resending flow: e = 1, h = 1/1. Link 11 is picked and explains all
  // three; nothing is left.
  const std::vector<TomographyFlow> flows{Lossy({0, 11, 13, 20}), Lossy({1, 11, 13, 21}), Clean({2, 10, 12, 22}),
                                          Lossy({3, 11, 14, 23}), Clean({4, 15, 13, 24})};
  const std::vector<TomographyPick> picks = LocaliseLoss(flows, 25);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].link, 11);
  EXPECT_EQ(picks[0].explained, (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(picks[0].crossing, 3u);
  EXPECT_DOUBLE_EQ(picks[0].hit_ratio, 1.0);
}

TEST(LossTomography, EqualExplanationsGoToTheHigherHitRatio) {
  // H0 {20, 21} and H1 {20, 21} resent, H2 {21} did not: links 20 and 21
  // both explain 2, with h = 2/2 against 2/3: link 20. Not for its lower
  // id: with the roles swapped, link 21 is picked.
  const std::vector<TomographyFlow> flows{Lossy({20, 21}), Lossy({20, 21}), Clean({21})};
  const std::vector<TomographyPick> picks = LocaliseLoss(flows, 22);
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].link, 20);
  const std::vector<TomographyFlow> swapped{Lossy({21, 20}), Lossy({21, 20}), Clean({20})};
  const std::vector<TomographyPick> again = LocaliseLoss(swapped, 22);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].link, 21);
  EXPECT_DOUBLE_EQ(again[0].hit_ratio, 1.0);
}

TEST(LossTomography, GreedyExplanationStopsAtLoneFlowsAndThinLinks) {
  //   G0 {0, 1}, G1 {0, 2}, G2 {0, 3} resent: link 0, e = 3, h = 3/3.
  //   G3 {5, 6}, G4 {5, 7} resent, G5 {5, 8} clean: link 5, e = 2, h = 2/3.
  //   G6 {9} resent alone: link 9, e = 1 < min_flows, never picked.
  //   G7 {10, 11}, G8 {10, 12} resent and seven clean flows {10}: link 10,
  //   e = 2 but h = 2/9 = 0.222 < 0.25, not picked; links 11 and 12, e = 1.
  // Picks: link 0 (explains G0-G2), then link 5 (G3, G4); G6-G8 stay
  // unexplained.
  std::vector<TomographyFlow> flows{Lossy({0, 1}), Lossy({0, 2}), Lossy({0, 3}), Lossy({5, 6}),
                                    Lossy({5, 7}), Clean({5, 8}), Lossy({9}),    Lossy({10, 11}),
                                    Lossy({10, 12})};
  for (int i = 0; i < 7; ++i) flows.push_back(Clean({10}));
  const std::vector<TomographyPick> picks = LocaliseLoss(flows, 13);
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_EQ(picks[0].link, 0);
  EXPECT_EQ(picks[0].explained, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(picks[1].link, 5);
  EXPECT_EQ(picks[1].explained, (std::vector<int>{3, 4}));
  EXPECT_EQ(picks[1].crossing, 3u);
  EXPECT_EQ(picks[1].lossy, 2u);
  // Without the hit-ratio floor, link 10 explains G7 and G8 too.
  TomographyOptions any;
  any.min_hit_ratio = 0;
  const std::vector<TomographyPick> all = LocaliseLoss(flows, 13, any);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].link, 10);
  EXPECT_EQ(all[2].explained, (std::vector<int>{7, 8}));
  EXPECT_DOUBLE_EQ(all[2].hit_ratio, 2.0 / 9.0);
}

TEST(LossTomography, NoResendsNoPicks) {
  const std::vector<TomographyFlow> flows{Clean({0, 1}), Clean({1, 2})};
  EXPECT_TRUE(LocaliseLoss(flows, 3).empty());
  EXPECT_TRUE(LocaliseLoss({}, 0).empty());
}

}  // namespace
}  // namespace aifabric
