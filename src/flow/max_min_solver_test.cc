// Max-min fairness worked by hand: one bottleneck, a parking lot, two
// bottlenecks of different capacity, weights.
#include "flow/max_min_solver.h"

#include "flow/max_min_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace aifabric {
namespace {

TEST(MaxMinSolver, FlowsOnOneBottleneckShareItEqually) {
  MaxMinSolver s;
  const int link = s.AddResource(100.0);
  std::vector<int> flows;
  for (int i = 0; i < 4; ++i) flows.push_back(s.AddFlow(std::vector<int>{link}));
  s.Solve();
  for (int f : flows) EXPECT_DOUBLE_EQ(s.rate(f), 25.0);
  EXPECT_DOUBLE_EQ(s.load(link), 100.0);
  // One leaves: the other three take its share.
  s.RemoveFlow(flows[0]);
  s.Solve();
  EXPECT_NEAR(s.rate(flows[1]), 100.0 / 3, 1e-9);
}

TEST(MaxMinSolver, ParkingLotGivesTheLongFlowTheSameShareAsEachShortOne) {
  // Three unit links in a row; a long flow crosses all three and one short
  // flow crosses each. Every link carries two flows, so all get 1/2 (the
  // max-min answer; proportional fairness would give the long flow 1/4).
  MaxMinSolver s;
  const int a = s.AddResource(1), b = s.AddResource(1), c = s.AddResource(1);
  const int long_flow = s.AddFlow(std::vector<int>{a, b, c});
  const int sa = s.AddFlow(std::vector<int>{a}), sb = s.AddFlow(std::vector<int>{b}), sc = s.AddFlow(std::vector<int>{c});
  s.Solve();
  for (int f : {long_flow, sa, sb, sc}) EXPECT_DOUBLE_EQ(s.rate(f), 0.5);
}

TEST(MaxMinSolver, TheTightestLinkFreezesItsFlowsFirstAndTheRestTakeWhatIsLeft) {
  // A (10) carries f1 and f2; B (4) carries f2 and f3. B fills first at
  // level 2: f2 = f3 = 2. Then A has 10 - 2 = 8 for f1 alone.
  MaxMinSolver s;
  const int a = s.AddResource(10), b = s.AddResource(4);
  const int f1 = s.AddFlow(std::vector<int>{a}), f2 = s.AddFlow(std::vector<int>{a, b}),
            f3 = s.AddFlow(std::vector<int>{b});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(f2), 2);
  EXPECT_DOUBLE_EQ(s.rate(f3), 2);
  EXPECT_DOUBLE_EQ(s.rate(f1), 8);
}

TEST(MaxMinSolver, WeightsShareInProportion) {
  // Weights 1 and 3 on a link of 4: rates 1 and 3. With a third flow of
  // weight 1 capped by a private link of 0.5, the others split 3.5 as 1:3.
  MaxMinSolver s;
  const int link = s.AddResource(4);
  const int light = s.AddFlow(std::vector<int>{link}, 1), heavy = s.AddFlow(std::vector<int>{link}, 3);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(light), 1);
  EXPECT_DOUBLE_EQ(s.rate(heavy), 3);
  const int cap = s.AddResource(0.5);
  const int capped = s.AddFlow(std::vector<int>{link, cap}, 1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(capped), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(light), 3.5 / 4);
  EXPECT_DOUBLE_EQ(s.rate(heavy), 3.5 * 3 / 4);
}

TEST(MaxMinSolver, ACoflowUsesEachResourceAtItsCoefficientTimesItsRate) {
  // Link A (10) carries a coflow at coefficient 2 and a plain flow: the
  // level rises on A as (2 + 1) s = 10, so both run at 10/3 and the coflow
  // uses 20/3 of A. Link B (10) carries a coflow at coefficient 4 alone:
  // 4 s = 10, rate 2.5. A coflow listing C twice at 1.5 counts 3 there.
  MaxMinSolver s;
  const int a = s.AddResource(10), b = s.AddResource(10), c = s.AddResource(9);
  const int on_a = s.AddFlow(std::vector<int>{a}, std::vector<double>{2.0});
  const int plain = s.AddFlow(std::vector<int>{a});
  const int on_b = s.AddFlow(std::vector<int>{b}, std::vector<double>{4.0});
  const int on_c = s.AddFlow(std::vector<int>{c, c}, std::vector<double>{1.5, 1.5});
  s.Solve();
  EXPECT_NEAR(s.rate(on_a), 10.0 / 3, 1e-12);
  EXPECT_NEAR(s.rate(plain), 10.0 / 3, 1e-12);
  EXPECT_NEAR(s.load(a), 10.0, 1e-12);
  EXPECT_DOUBLE_EQ(s.rate(on_b), 2.5);
  EXPECT_DOUBLE_EQ(s.rate(on_c), 3.0);
  ASSERT_EQ(s.resources(on_c).size(), 1u);
  EXPECT_DOUBLE_EQ(s.coefficients(on_c)[0], 3.0);
  // The plain flow leaves: the coflow takes all of A, 2 x = 10.
  s.RemoveFlow(plain);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(on_a), 5.0);
  EXPECT_EQ(s.solved_flows(), std::vector<int>{on_a});  // B's and C's flows kept their rates
}

TEST(MaxMinSolver, ANewFlowTakesTheSlackItFillsWithoutReSolvingOthers) {
  // g crosses A (10) and B (4): B holds it at 4, leaving 6 of A. A new
  // flow f on A alone fills that 6, at a level above g's, so g keeps B as
  // its bottleneck and its rate: only f is rated (the max-min answer: f = 6).
  MaxMinSolver s;
  const int a = s.AddResource(10), b = s.AddResource(4);
  const int g = s.AddFlow(std::vector<int>{a, b});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(g), 4.0);
  const int f = s.AddFlow(std::vector<int>{a});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(f), 6.0);
  EXPECT_DOUBLE_EQ(s.rate(g), 4.0);
  EXPECT_EQ(s.solved_flows(), std::vector<int>{f});
  // f leaves the full A, where it ran above g: g was not bound there, so
  // nothing is re-rated.
  s.RemoveFlow(f);
  s.Solve();
  EXPECT_TRUE(s.solved_flows().empty());
  EXPECT_DOUBLE_EQ(s.rate(g), 4.0);
  // Two flows on A alone: the first takes the 6, the second finds A full
  // and re-solves A's component. Three flows on A now fill it at 10/3
  // each, below B's 4, so A binds g too.
  const int f1 = s.AddFlow(std::vector<int>{a});
  const int f2 = s.AddFlow(std::vector<int>{a});
  s.Solve();
  for (int x : {f1, f2, g}) EXPECT_NEAR(s.rate(x), 10.0 / 3, 1e-12);
}

TEST(MaxMinSolver, RemovedIdsAreReused) {
  MaxMinSolver s;
  const int link = s.AddResource(1);
  const int f = s.AddFlow(std::vector<int>{link});
  s.RemoveFlow(f);
  EXPECT_EQ(s.active_flows(), 0u);
  EXPECT_EQ(s.AddFlow(std::vector<int>{link}), f);
}

// Removes element i of each of the parallel lists.
template <typename... Lists>
void EraseAt(size_t i, Lists&... lists) {
  (lists.erase(lists.begin() + static_cast<std::ptrdiff_t>(i)), ...);
}

TEST(MaxMinSolver, AgreesWithTheObviousAlgorithmAcrossStartsAndRemovals) {
  // Random instances (a fixed generator, so the test is reproducible): 30
  // resources of capacity 1..4, flows over 1-4 of them with weight 1-3;
  // after each Solve a few flows leave and a few arrive.
  uint64_t x = 12345;
  auto next = [&x](uint64_t n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % n;
  };
  MaxMinSolver s;
  std::vector<double> capacity;
  for (int r = 0; r < 30; ++r) capacity.push_back(static_cast<double>(1 + next(4)));
  for (double c : capacity) s.AddResource(c);
  std::vector<int> ids;
  std::vector<std::vector<int>> paths;
  std::vector<double> weights;
  auto add = [&] {
    std::vector<int> path;
    for (uint64_t h = 1 + next(4); h > 0; --h) {
      const int r = static_cast<int>(next(30));
      if (std::find(path.begin(), path.end(), r) == path.end()) path.push_back(r);
    }
    const double w = static_cast<double>(1 + next(3));
    ids.push_back(s.AddFlow(path, w));
    paths.push_back(path);
    weights.push_back(w);
  };
  for (int i = 0; i < 40; ++i) add();
  for (int round = 0; round < 30; ++round) {
    s.Solve();
    const std::vector<double> expected = ReferenceRates(capacity, paths, weights);
    for (size_t f = 0; f < ids.size(); ++f) EXPECT_NEAR(s.rate(ids[f]), expected[f], 1e-9) << round << " " << f;
    for (int k = 0; k < 3 && !ids.empty(); ++k) {
      const size_t victim = next(ids.size());
      s.RemoveFlow(ids[victim]);
      EraseAt(victim, ids, paths, weights);
    }
    for (uint64_t k = next(4); k > 0; --k) add();
  }
  // Then one start or removal per solve, where the solver may rate a new
  // flow or drop a leaving one without solving (its slack paths): the same
  // answer as the reference every time.
  for (int round = 0; round < 200; ++round) {
    if (next(2) == 0 || ids.size() < 10) {
      add();
    } else {
      const size_t victim = next(ids.size());
      s.RemoveFlow(ids[victim]);
      EraseAt(victim, ids, paths, weights);
    }
    s.Solve();
    const std::vector<double> expected = ReferenceRates(capacity, paths, weights);
    for (size_t f = 0; f < ids.size(); ++f) EXPECT_NEAR(s.rate(ids[f]), expected[f], 1e-9) << "single " << round << " " << f;
  }
}

TEST(MaxMinSolver, CoflowsAgreeWithTheObviousAlgorithmOneChangeAtATime) {
  // Coflows (coefficients 0.5-2) over a small, crowded set of resources (6-24 flows on 12),
  // so that most changes touch a full resource and the solver grows its
  // set of re-rated flows round by round (MaxMinSolver: "Which flows a
  // solve re-rates"); one start or removal per solve, 400 of them, for
  // several generators.
  for (uint64_t seed : {1u, 7u, 99u, 2024u}) {
    uint64_t x = seed;
    auto next = [&x](uint64_t n) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return (x >> 33) % n;
    };
    MaxMinSolver s;
    std::vector<double> capacity;
    for (int r = 0; r < 12; ++r) capacity.push_back(static_cast<double>(1 + next(6)));
    for (double c : capacity) s.AddResource(c);
    std::vector<int> ids;
    std::vector<std::vector<int>> paths;
    std::vector<std::vector<double>> coefficients;
    std::vector<double> weights;
    auto add = [&] {
      std::vector<int> path;
      std::vector<double> cs;
      for (uint64_t h = 1 + next(5); h > 0; --h) {
        const int r = static_cast<int>(next(12));
        if (std::find(path.begin(), path.end(), r) != path.end()) continue;
        path.push_back(r);
        cs.push_back(0.5 * static_cast<double>(1 + next(4)));
      }
      const double w = static_cast<double>(1 + next(3));
      ids.push_back(s.AddFlow(path, cs, w));
      paths.push_back(path);
      coefficients.push_back(cs);
      weights.push_back(w);
    };
    for (int round = 0; round < 400; ++round) {
      if ((next(3) != 0 && ids.size() < 24) || ids.size() < 6) {
        add();
      } else {
        const size_t victim = next(ids.size());
        s.RemoveFlow(ids[victim]);
        EraseAt(victim, ids, paths, coefficients, weights);
      }
      s.Solve();
      const std::vector<double> expected = ReferenceRates(capacity, paths, weights, coefficients);
      for (size_t f = 0; f < ids.size(); ++f) {
        ASSERT_NEAR(s.rate(ids[f]), expected[f], 1e-9) << "seed " << seed << " round " << round << " flow " << f;
      }
    }
  }
}

TEST(MaxMinSolver, CapacityChangesAgreeWithTheObviousAlgorithm) {
  // Flows over a crowded set of resources whose capacities change between
  // solves (up, down, to 0 as a failed link and back), mixed with starts and removals: the
  // incremental solve (SetCapacity re-rates the flows bound there, or all
  // on it when it shrinks) gives the from-scratch answer every time.
  uint64_t x = 4242;
  auto next = [&x](uint64_t n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return (x >> 33) % n;
  };
  MaxMinSolver s;
  std::vector<double> capacity;
  for (int r = 0; r < 10; ++r) capacity.push_back(static_cast<double>(1 + next(6)));
  for (double c : capacity) s.AddResource(c);
  std::vector<int> ids;
  std::vector<std::vector<int>> paths;
  std::vector<double> weights;
  auto add = [&] {
    std::vector<int> path;
    for (uint64_t h = 1 + next(3); h > 0; --h) {
      const int r = static_cast<int>(next(10));
      if (std::find(path.begin(), path.end(), r) == path.end()) path.push_back(r);
    }
    const double w = static_cast<double>(1 + next(3));
    ids.push_back(s.AddFlow(path, w));
    paths.push_back(path);
    weights.push_back(w);
  };
  for (int i = 0; i < 12; ++i) add();
  for (int round = 0; round < 300; ++round) {
    const uint64_t what = next(4);
    if (what <= 1) {
      const size_t r = next(capacity.size());
      capacity[r] = next(5) == 0 ? 0.0 : static_cast<double>(next(8)) + 0.5;
      s.SetCapacity(static_cast<int>(r), capacity[r]);
    } else if (what == 2 || ids.size() < 6) {
      add();
    } else {
      const size_t victim = next(ids.size());
      s.RemoveFlow(ids[victim]);
      EraseAt(victim, ids, paths, weights);
    }
    s.Solve();
    const std::vector<double> expected = ReferenceRates(capacity, paths, weights);
    for (size_t f = 0; f < ids.size(); ++f) {
      ASSERT_NEAR(s.rate(ids[f]), expected[f], 1e-9) << "round " << round << " flow " << f;
    }
  }
}

}  // namespace
}  // namespace aifabric
