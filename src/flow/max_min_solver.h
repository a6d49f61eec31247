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
// has risen is pushed back) finds each bottleneck.
//
// Only what changed is re-solved. A resource only one flow crosses (a
// coflow's own links, a lone transfer's NIC link) never binds another flow:
// it only caps its flow, at C_r / a_{f,r}. So each flow keeps its shared
// resources apart and the tightest of its private caps up to date as
// resources become shared or private, and a solve walks and fills only the
// shared resources, with one heap entry per flow for its private cap.
//
// Which flows a solve re-rates. An allocation is the max-min one exactly
// when every flow has a bottleneck: its private cap, or a full resource
// where no flow runs at a higher level. Each flow remembers the bottleneck
// it was frozen on. A solve starts from the added flows and the flows
// bound by a resource a change touched, and fills that set alone, every
// other flow's rate held (its load taken off the capacities). Then it
// checks the outsiders the new rates could wrong: one running above a set
// flow on that flow's bottleneck (it must give way), and one whose own
// bottleneck a set flow crosses at a changed rate (it may have lost it).
// Those join and the set is solved again; when none is wronged, every
// flow has a bottleneck, so the allocation is the max-min one. A change
// that moves only a few flows (a pipeline send on a link that one
// collective saturates) re-rates those few, not the component of
// thousands of links they are part of; after a few rounds of growing the
// set takes the whole component (SimGrid's selective update: flows
// sharing no resource, even transitively, keep their rates), which has no
// outsiders. A round costs O(E + (P + F) log(P + F)) over the set, E its
// (flow, shared resource) pairs, P its shared resources, F its flows,
// plus the users of those resources for the check.
//
// Changes that need no solve (every rate and slack current): a new flow
// whose rate, the least of its private cap and the slack of its shared
// resources, fills no resource where another flow runs at a higher level
// takes that rate, since every other flow keeps a bottleneck where it has
// the highest level; a leaving flow frees its share without a solve when
// every shared resource it crossed had slack or had only lower-level
// flows besides it, since none of them was bound there. The allocation is
// the one a solve would find (MaxMinSolver.AgreesWithTheObviousAlgorithm...
// checks it against a brute-force solver across starts and removals).
//
// Coflows. A flow may use a resource at a multiple of its rate: with
// coefficients a_{f,r} > 0 the constraint is sum_f a_{f,r} x_f <= C_r and
// the level of a resource becomes
//     s_r = (C_r - sum of frozen a_{f,r} x_f) / (sum of unfrozen a_{f,r} w_f).
// One such flow stands for several transfers that progress in proportion
// (a ring collective's edges: x_f is the rate of its largest edge and
// a_{f,r} the bytes crossing r per byte of that edge). All coefficients 1
// is the plain problem above.
//
// Flows and resources are dense integer ids; removed flow ids are reused.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace aifabric {

class MaxMinSolver {
 public:
  // Returns the new resource's id. REQUIRES: capacity > 0.
  int AddResource(double capacity);
  // REQUIRES: `resources` non-empty, each a valid id; weight > 0.
  int AddFlow(std::span<const int> resources, double weight = 1.0);
  // A flow that uses resource resources[i] at coefficients[i] times its
  // rate. A resource listed twice counts with the sum of its coefficients.
  // REQUIRES: as above, same lengths, every coefficient > 0.
  int AddFlow(std::span<const int> resources, std::span<const double> coefficients, double weight = 1.0);
  // REQUIRES: `flow` is active.
  void RemoveFlow(int flow);
  // Changes a resource's capacity (a link that fails: 0, its flows then
  // get rate 0; one that runs slower: less; QosSolver sets its per-class
  // lanes with it); the next Solve re-rates the flows the change may move:
  // the flows bound there when it grows, every flow crossing it when it
  // shrinks. REQUIRES: capacity >= 0.
  void SetCapacity(int resource, double capacity);
  // Recomputes the rates of every active flow connected (through shared
  // resources) to a flow added or removed, or a capacity changed, since
  // the last Solve.
  void Solve();

  // Valid after Solve() until the next Add/Remove.
  double rate(int flow) const { return flows_[static_cast<size_t>(flow)].rate; }
  // Sum of the rates of the flows crossing `resource` (after Solve()),
  // each times its coefficient there. Linear in the flows crossing it.
  double load(int resource) const;
  // How many active flows cross `resource`.
  size_t user_count(int resource) const { return users_[static_cast<size_t>(resource)].size(); }
  size_t active_flows() const { return active_; }
  size_t resource_count() const { return capacity_.size(); }
  double capacity(int resource) const { return capacity_[static_cast<size_t>(resource)]; }
  // A flow's distinct resources and its coefficient on each (sorted by
  // resource). Valid until the next AddFlow.
  std::span<const int> resources(int flow) const { return Resources(flows_[static_cast<size_t>(flow)]); }
  std::span<const double> coefficients(int flow) const { return Coefficients(flows_[static_cast<size_t>(flow)]); }
  // The active flows the last Solve() re-rated (the component of the
  // changes); every other active flow kept its rate.
  const std::vector<int>& solved_flows() const { return solved_flows_; }

 private:
  // Adds the flow in scratch_ (resources with coefficients, any order).
  int AddMergedFlow(double weight);
  // A flow's lists live in one block of the pools below (resources and
  // coefficients at the same offsets, its shared resources too, since
  // they are at most all of them): blocks come in power-of-two sizes and
  // are reused once their flow leaves, so flows come and go without an
  // allocation.
  struct Flow {
    uint32_t block = 0;         // offset of its block in the pools
    uint32_t size = 0;          // distinct resources, sorted, at the block's start
    uint32_t shared_size = 0;   // (resource, coefficient) pairs other active flows cross too, in no order
    uint8_t block_class = 0;    // the block holds 2^block_class entries
    double private_cap = 0;  // min over its other resources of C_r / a_{f,r} (infinite if none)
    int private_ties = 0;    // how many of them reach that minimum
    double weight = 1.0;
    double rate = 0.0;
    // The shared resource it was frozen on (full, no flow higher there) in
    // the solve or arrival that set its rate; -1: its private cap.
    int bottleneck = -1;
    bool active = false;
  };
  std::span<const int> Resources(const Flow& f) const { return {resource_pool_.data() + f.block, f.size}; }
  std::span<const double> Coefficients(const Flow& f) const { return {coefficient_pool_.data() + f.block, f.size}; }
  std::span<const std::pair<int, double>> Shared(const Flow& f) const {
    return {shared_pool_.data() + f.block, f.shared_size};
  }
  // Gives `f` a block of at least `size` entries; returns its block to the
  // free lists when it leaves.
  void TakeBlock(Flow& f, uint32_t size);
  void ReleaseBlock(const Flow& f);
  // Resource r, which flow `flow` crosses, becomes shared (another flow
  // arrived on it) or private again (the other left).
  void MakeShared(int flow, int r);
  void MakePrivate(int flow, int r);
  // Recomputes a flow's private cap from its resources.
  void RecomputePrivateCap(Flow& f);
  // The index of resource r among f's resources. REQUIRES: f crosses r.
  uint32_t IndexOf(const Flow& f, int r) const;
  // Adds f's k-th resource to its shared list (O(1); MakePrivate removes
  // one in O(1) too, moving the last entry into its place).
  void AppendShared(Flow& f, uint32_t k);
  // Whether resource r (shared) keeps some slack after `more` more load.
  // remaining_ is its slack as of its last solve, kept up to date by the
  // flows that arrive and leave without one.
  bool Unsaturated(int r, double more) const;
  static constexpr double kSlack = 1e-9;
  // No solve is pending: every rate and slack figure is current.
  bool Settled() const { return changed_.empty() && changed_flows_.empty(); }
  // The rate a new flow may take without re-solving (FairShareOfSlack), or 0.
  double FairShareOfSlack(int flow) const;
  // Whether full resource r bounds no flow but `flow`, which is leaving.
  bool NoneBoundBy(int flow, int r) const;  // of the capacity: below it a resource counts as full
  // Solve's steps: a flow joins the set to re-rate (with its rate before
  // the Solve); the set grows to its whole component; the set is solved
  // with every outsider's rate held; the outsiders whose bottleneck that
  // breaks join (true if any did).
  void JoinSolve(int flow);
  // Sets f's bottleneck (a shared resource, or -1), keeping bound_ counted.
  void BindTo(Flow& f, int r);
  void JoinComponent();
  void FillSet();
  bool JoinOutsidersItWronged();
  // The level at which shared resource r fills, in the set being solved.
  double Level(size_t r) const { return remaining_[r] > 0 ? remaining_[r] / weight_sum_[r] : 0.0; }
  // Rounds of growing the set before it takes the whole component.
  static constexpr int kLocalRounds = 4;
  std::vector<double> capacity_;
  // The active flows crossing one resource, in arrival order: up to two
  // inline (most links carry one or two), more on the heap, so a flow's
  // arrival on a fresh link allocates nothing.
  class ResourceUsers {
   public:
    size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    int front() const { return data()[0]; }
    const int* begin() const { return data(); }
    const int* end() const { return data() + size_; }
    void push_back(int flow);
    void erase_value(int flow);  // REQUIRES: present; keeps the others in order

   private:
    static constexpr uint32_t kInline = 2;
    const int* data() const { return size_ <= kInline ? inline_ : heap_.data(); }
    int inline_[kInline] = {0, 0};
    std::vector<int> heap_;  // all of them while there are more than kInline
    uint32_t size_ = 0;
  };
  std::vector<ResourceUsers> users_;  // by resource
  std::vector<Flow> flows_;
  std::vector<int> free_ids_;
  std::vector<int> resource_pool_;
  std::vector<double> coefficient_pool_;
  std::vector<std::pair<int, double>> shared_pool_;
  std::vector<uint32_t> shared_index_pool_;     // per shared entry: its index among the flow's resources
  std::vector<uint32_t> shared_position_pool_;  // per resource entry: its position in the shared list
  size_t pool_used_ = 0;  // entries of the pools handed out as blocks
  std::vector<std::vector<uint32_t>> free_blocks_;  // by block class: offsets of unused blocks
  size_t active_ = 0;
  std::vector<int> changed_;        // resources whose flows changed since the last Solve
  std::vector<int> changed_flows_;  // flows added since the last Solve that need one
  std::vector<int> fast_flows_;     // flows added since the last Solve at their private cap
  std::vector<int> fast_scratch_;
  struct HeapEntry {
    double level;
    int resource;  // or -1 - flow: the flow's private cap
  };
  // Scratch, kept between calls to avoid reallocating. "Seen" and "frozen"
  // hold the epoch (Solve call) that last marked the resource or flow.
  uint32_t epoch_ = 0;
  uint32_t solve_epoch_ = 0;  // flow_seen_ at or above it: in this Solve's set
  std::vector<uint32_t> resource_seen_;
  std::vector<uint32_t> flow_seen_;
  std::vector<uint32_t> frozen_;
  std::vector<int> component_resources_;
  std::vector<int> solved_flows_;
  std::vector<double> old_rates_;    // by position in solved_flows_
  std::vector<uint32_t> set_users_;  // by resource: its flows in the set
  std::vector<uint32_t> bound_;      // by resource: the flows whose bottleneck it is
  std::vector<std::pair<int, double>> scratch_;  // AddFlow: resources with coefficients, merged
  std::vector<double> remaining_;
  std::vector<double> weight_sum_;
  std::vector<HeapEntry> heap_;
};

}  // namespace aifabric
