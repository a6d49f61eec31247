// MaxMinSolver computes a weighted max-min fair allocation of rates to flows
// that share capacity-limited resources (links, NVLink ports, NICs).
// Self-contained: it knows nothing of networks or time. Not thread-safe.
//
// The maths. Resources r have capacities C_r > 0; flow f has a weight
// w_f > 0 and crosses the set R_f of resources. An allocation x is feasible
// when sum_{f : r in R_f} x_f <= C_r for every r. It is weighted max-min
// fair when no x_f can grow without shrinking some x_g with
// x_g / w_g <= x_f / w_f. It is unique and progressive filling finds it:
// raise every unfrozen flow's rate together as x_f = w_f * s; the first
// resource to fill, at level
//     s_r = (C_r - sum of frozen flows' rates on r) / (sum of unfrozen weights on r),
// is a bottleneck of all its unfrozen flows: freeze them at w_f * s_r and
// repeat until every flow is frozen. Levels only rise from one step to the
// next, so a heap of s_r whose keys may lag (a popped resource whose level
// has risen is pushed back) finds each bottleneck: O(F·|R_f| + P log R) per
// Solve, P the pops (about the resources in use).
//
// Flows and resources are dense integer ids; removed flow ids are reused.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace aifabric {

class MaxMinSolver {
 public:
  // Returns the new resource's id. REQUIRES: capacity > 0.
  int AddResource(double capacity);
  // REQUIRES: `resources` non-empty, each a valid id; weight > 0.
  int AddFlow(std::span<const int> resources, double weight = 1.0);
  // REQUIRES: `flow` is active.
  void RemoveFlow(int flow);
  // Recomputes every active flow's rate.
  void Solve();

  // Valid after Solve() until the next Add/Remove.
  double rate(int flow) const { return flows_[static_cast<size_t>(flow)].rate; }
  // Sum of the rates of the flows crossing `resource` (after Solve()).
  double load(int resource) const;
  size_t active_flows() const { return active_; }
  size_t resource_count() const { return capacity_.size(); }
  double capacity(int resource) const { return capacity_[static_cast<size_t>(resource)]; }
  std::span<const int> resources(int flow) const { return flows_[static_cast<size_t>(flow)].resources; }

 private:
  struct Flow {
    std::vector<int> resources;
    double weight = 1.0;
    double rate = 0.0;
    bool active = false;
  };
  std::vector<double> capacity_;
  std::vector<Flow> flows_;
  std::vector<int> free_ids_;
  size_t active_ = 0;
  struct HeapEntry {
    double level;
    int resource;
  };
  // Scratch, kept between calls to avoid reallocating.
  std::vector<uint32_t> user_start_;  // resource -> first index in users_ (CSR)
  std::vector<uint32_t> fill_;
  std::vector<int> users_;            // active flows crossing each resource
  std::vector<HeapEntry> heap_;
  std::vector<double> remaining_;
  std::vector<double> weight_sum_;
  std::vector<uint8_t> frozen_;
};

}  // namespace aifabric
