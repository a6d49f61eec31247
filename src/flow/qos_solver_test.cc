// Classes sharing resources as an egress scheduler does, worked by hand:
// strict priority first, DWRR per class, work conservation; and strict
// tiers checked against the obvious algorithm (tier by tier, each on what
// the tiers above leave) across starts and removals.
#include "flow/qos_solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "flow/max_min_reference.h"

namespace aifabric {
namespace {

constexpr int kBulk = 0;
constexpr int kUrgent = 1;

QosSolver StrictOverBulk() {
  QosSolver s;
  const std::vector<ClassScheduling> classes = {{0, 1.0}, {1, 1.0}};  // urgent: the tier above
  s.SetClasses(classes);
  return s;
}

TEST(QosSolver, AStrictClassIsServedFirstAndTheOthersShareWhatItLeaves) {
  // Link L (10). Urgent flow h also crosses P (4), so it takes 4 whatever
  // runs below it; bulk flows b1, b2 share 10 - 4 = 6: 3 each. A second
  // urgent flow h2 on L alone takes the 6 the first leaves (max-min within
  // the urgent tier: h is held by P), and the bulk flows get 0. When h2
  // leaves, they are back at 3.
  QosSolver s = StrictOverBulk();
  const int l = s.AddResource(10), p = s.AddResource(4);
  const int b1 = s.AddFlow(std::vector<int>{l}, 1.0, kBulk);
  const int h = s.AddFlow(std::vector<int>{l, p}, 1.0, kUrgent);
  const int b2 = s.AddFlow(std::vector<int>{l}, 1.0, kBulk);
  s.Solve();
  EXPECT_NEAR(s.rate(h), 4, 1e-9);
  EXPECT_NEAR(s.rate(b1), 3, 1e-9);
  EXPECT_NEAR(s.rate(b2), 3, 1e-9);
  EXPECT_NEAR(s.load(l), 10, 1e-9);
  const int h2 = s.AddFlow(std::vector<int>{l}, 1.0, kUrgent);
  s.Solve();
  EXPECT_NEAR(s.rate(h), 4, 1e-9);
  EXPECT_NEAR(s.rate(h2), 6, 1e-9);
  EXPECT_NEAR(s.rate(b1), 0, 1e-9);
  EXPECT_NEAR(s.rate(b2), 0, 1e-9);
  s.RemoveFlow(h2);
  s.Solve();
  EXPECT_NEAR(s.rate(b1), 3, 1e-9);
  EXPECT_NEAR(s.rate(b2), 3, 1e-9);
}

TEST(QosSolver, DwrrClassesShareByClassNotByFlow) {
  // One tier, weights 1 (class 0, 100 flows) and 4 (class 1, one flow) on
  // a link of 10: the classes get 2 and 8, class 0's flows 2/100 each
  // (per-flow weighting would have given the lone flow 4 x 10/104).
  QosSolver s;
  const std::vector<ClassScheduling> classes = {{0, 1.0}, {0, 4.0}};
  s.SetClasses(classes);
  const int l = s.AddResource(10);
  std::vector<int> many;
  for (int i = 0; i < 100; ++i) many.push_back(s.AddFlow(std::vector<int>{l}, 1.0, 0));
  const int one = s.AddFlow(std::vector<int>{l}, 1.0, 1);
  s.Solve();
  EXPECT_NEAR(s.rate(one), 8, 1e-9);
  for (int f : many) EXPECT_NEAR(s.rate(f), 0.02, 1e-9);
}

TEST(QosSolver, AClassThatCannotUseItsShareLeavesItToTheOthers) {
  // As above, but the weight-4 flow is held at 1 by a private link P: DWRR
  // skips its empty queue, so class 0 takes the other 9 (0.09 a flow).
  QosSolver s;
  const std::vector<ClassScheduling> classes = {{0, 1.0}, {0, 4.0}};
  s.SetClasses(classes);
  const int l = s.AddResource(10), p = s.AddResource(1);
  std::vector<int> many;
  for (int i = 0; i < 100; ++i) many.push_back(s.AddFlow(std::vector<int>{l}, 1.0, 0));
  const int one = s.AddFlow(std::vector<int>{l, p}, 1.0, 1);
  s.Solve();
  EXPECT_NEAR(s.rate(one), 1, 1e-9);
  for (int f : many) EXPECT_NEAR(s.rate(f), 0.09, 1e-9);
}

TEST(QosSolver, WorkConservationCarriesAcrossPorts) {
  // Ports A and B (10 each), classes 0 and 1 of weight 1 in one tier.
  // Class 0: x over A and B, w over B. Class 1: y over A, z over B.
  // On B each class gets 5: x = w = 2.5, z = 5. On A class 0 (x alone) can
  // use only 2.5, so y takes 10 - 2.5 = 7.5.
  QosSolver s;
  const std::vector<ClassScheduling> classes = {{0, 1.0}, {0, 1.0}};
  s.SetClasses(classes);
  const int a = s.AddResource(10), b = s.AddResource(10);
  const int x = s.AddFlow(std::vector<int>{a, b}, 1.0, 0);
  const int w = s.AddFlow(std::vector<int>{b}, 1.0, 0);
  const int y = s.AddFlow(std::vector<int>{a}, 1.0, 1);
  const int z = s.AddFlow(std::vector<int>{b}, 1.0, 1);
  s.Solve();
  EXPECT_NEAR(s.rate(x), 2.5, 1e-9);
  EXPECT_NEAR(s.rate(w), 2.5, 1e-9);
  EXPECT_NEAR(s.rate(z), 5, 1e-9);
  EXPECT_NEAR(s.rate(y), 7.5, 1e-9);
  // Its resources are the ones it was given, whatever lanes carry it.
  const std::span<const int> rs = s.resources(x);
  EXPECT_EQ(std::vector<int>(rs.begin(), rs.end()), (std::vector<int>{a, b}));
  EXPECT_NEAR(s.load(a), 10, 1e-9);
}

TEST(QosSolver, FlowsOfOneClassAreMaxMinSolversProblemInOneSolve) {
  // Two classes defined, every flow in one of them: no resource is
  // contested, so one MaxMinSolver solve and its rates (A (10): f1, f2;
  // B (4): f2, f3 — B fills at 2, f1 takes 8).
  QosSolver s = StrictOverBulk();
  const int a = s.AddResource(10), b = s.AddResource(4);
  const int f1 = s.AddFlow(std::vector<int>{a}, 1.0, kUrgent);
  const int f2 = s.AddFlow(std::vector<int>{a, b}, 1.0, kUrgent);
  const int f3 = s.AddFlow(std::vector<int>{b}, 1.0, kUrgent);
  s.Solve();
  EXPECT_EQ(s.rounds(), 1);
  EXPECT_DOUBLE_EQ(s.rate(f1), 8);
  EXPECT_DOUBLE_EQ(s.rate(f2), 2);
  EXPECT_DOUBLE_EQ(s.rate(f3), 2);
}

// Strict tiers the obvious way: the top tier's flows alone over the full
// capacities, then each tier below over what the ones above left.
std::vector<double> TieredReference(const std::vector<double>& capacity, const std::vector<std::vector<int>>& paths,
                                    const std::vector<double>& weights, const std::vector<int>& tiers, int top) {
  std::vector<double> rate(paths.size(), 0), residual = capacity;
  for (int tier = top; tier >= 0; --tier) {
    std::vector<size_t> members;
    std::vector<std::vector<int>> sub_paths;
    std::vector<double> sub_weights;
    for (size_t f = 0; f < paths.size(); ++f) {
      if (tiers[f] != tier) continue;
      members.push_back(f);
      sub_paths.push_back(paths[f]);
      sub_weights.push_back(weights[f]);
    }
    const std::vector<double> sub = ReferenceRates(residual, sub_paths, sub_weights);
    for (size_t k = 0; k < members.size(); ++k) {
      rate[members[k]] = sub[k];
      for (int r : paths[members[k]]) residual[static_cast<size_t>(r)] -= sub[k];
    }
    for (double& c : residual) c = std::max(0.0, c);
  }
  return rate;
}

TEST(QosSolver, StrictTiersAgreeWithTheObviousAlgorithmOneChangeAtATime) {
  // Three strict tiers (one class each) over 10 crowded resources; one
  // start or removal per solve, 300 of them, for several generators.
  for (uint64_t seed : {3u, 17u, 512u}) {
    uint64_t x = seed;
    auto next = [&x](uint64_t n) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      return (x >> 33) % n;
    };
    QosSolver s;
    const std::vector<ClassScheduling> classes = {{0, 1.0}, {1, 1.0}, {2, 1.0}};
    s.SetClasses(classes);
    std::vector<double> capacity;
    for (int r = 0; r < 10; ++r) capacity.push_back(static_cast<double>(2 + next(6)));
    for (double c : capacity) s.AddResource(c);
    std::vector<int> ids, tiers;
    std::vector<std::vector<int>> paths;
    std::vector<double> weights;
    auto add = [&] {
      std::vector<int> path;
      for (uint64_t h = 1 + next(3); h > 0; --h) {
        const int r = static_cast<int>(next(10));
        if (std::find(path.begin(), path.end(), r) == path.end()) path.push_back(r);
      }
      const double w = static_cast<double>(1 + next(3));
      const int tier = static_cast<int>(next(3));
      ids.push_back(s.AddFlow(path, w, tier));
      paths.push_back(path);
      weights.push_back(w);
      tiers.push_back(tier);
    };
    for (int round = 0; round < 300; ++round) {
      if ((next(3) != 0 && ids.size() < 20) || ids.size() < 5) {
        add();
      } else {
        const size_t victim = next(ids.size());
        s.RemoveFlow(ids[victim]);
        for (auto* v : {&ids, &tiers}) v->erase(v->begin() + static_cast<std::ptrdiff_t>(victim));
        paths.erase(paths.begin() + static_cast<std::ptrdiff_t>(victim));
        weights.erase(weights.begin() + static_cast<std::ptrdiff_t>(victim));
      }
      s.Solve();
      const std::vector<double> expected = TieredReference(capacity, paths, weights, tiers, 2);
      for (size_t f = 0; f < ids.size(); ++f) {
        ASSERT_NEAR(s.rate(ids[f]), expected[f], 1e-7) << "seed " << seed << " round " << round << " flow " << f;
      }
    }
  }
}

}  // namespace
}  // namespace aifabric
