// QosSolver shares capacity-limited resources among flows in traffic
// classes the way an egress scheduler with strict-priority and deficit
// weighted round robin (DWRR) queues does, in the fluid limit: on every
// resource a higher tier is served first, the classes of one tier share
// what it leaves by their weights (per class, not per flow), and the flows
// of one class share their class's part max-min fairly. Self-contained,
// like MaxMinSolver, which does the filling: it knows nothing of networks
// or time. Not thread-safe.
//
// The maths. Resource r has capacity C_r; class q has a tier t_q and a
// weight W_q > 0 (a packet port's strict queues are tiers above its DWRR
// queues, highest priority highest; DWRR queues share one tier by their
// weights). Flow f is in one class. On r, the flows of class q cross a
// lane (r, q) of capacity c_{r,q}; within the lanes the allocation is
// MaxMinSolver's weighted max-min (flow weights, coefficients). The lane
// capacities are the fixed point of, on every r, tier by tier from the top:
//     R_r(top) = C_r,
//     R_r(t - 1) = R_r(t) - sum over q in tier t of u_{r,q},
// u_{r,q} the lane's load (sum of a_{f,r} x_f over its flows), and within
// tier t, with d_q = u_{r,q} when the lane has slack (its flows are all
// held elsewhere: a DWRR queue that does not use its turn) and d_q = inf
// when it is full (it would take more):
//     c_{r,q} = min(R_r(t), W_q L)  where  sum over q in t of min(d_q, W_q L) = R_r(t)
// (L = inf when the demands fit: every lane may take all of R_r(t)). That
// is water-filling among the classes: a class that cannot use its weighted
// share leaves it to the others, as DWRR skips an empty queue
// (work-conserving), and classes that can share in proportion to W_q
// whatever their flow counts — one class of 100 flows and one of 1 flow
// weighted 1:4 get 1/5 and 4/5 of the port. A higher tier is solved as if
// the lower ones were absent (lexicographic max-min: its lanes see R_r(t)
// left by the tiers above only), so a strict class's rates do not depend
// on the traffic below it; a lower tier gets 0 where a higher one fills r.
// Lossless or lossy changes nothing here: a fluid has no queue to drop from
// or to pause.
//
// Solving it. A lane exists only where a second class meets a resource:
// the first class to reach r uses r itself, so flows all in one class make
// exactly MaxMinSolver's problem and cost nothing more. Where classes meet
// (a contested resource), Solve alternates: MaxMinSolver solves the lanes
// at their capacities, then the contested resources whose lanes' loads the
// solve moved get new lane capacities by the rule above, and a changed
// capacity is one more incremental solve (MaxMinSolver::SetCapacity), until
// no capacity moves (at most kMaxRounds rounds: a tier's lanes settle once
// the tiers above have, so a few rounds for the usual two or three tiers;
// past the limit the last capacities stand and the next Solve goes on).
// Each round re-rates only the flows its changes can move.
//
// Flows and resources are dense integer ids, as in MaxMinSolver; a flow's
// resources() are the resources it was given (not its lanes).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "flow/max_min_solver.h"

namespace aifabric {

// A traffic class's place in the scheduler: tiers are served in
// decreasing order (strict priority); the classes of one tier share by
// weight (DWRR).
struct ClassScheduling {
  int tier = 0;
  double weight = 1.0;  // > 0
};

class QosSolver {
 public:
  // One class (0) of tier 0, weight 1: plain weighted max-min.
  QosSolver() : classes_(1) {}
  // Classes 0..n-1. REQUIRES: no flow added yet; every weight > 0.
  void SetClasses(std::span<const ClassScheduling> classes);

  // Returns the new resource's id. REQUIRES: capacity > 0.
  int AddResource(double capacity);
  // As MaxMinSolver::AddFlow, in class `traffic_class`.
  // REQUIRES: 0 <= traffic_class < the number of classes.
  int AddFlow(std::span<const int> resources, double weight = 1.0, int traffic_class = 0);
  int AddFlow(std::span<const int> resources, std::span<const double> coefficients, double weight = 1.0,
              int traffic_class = 0);
  // REQUIRES: `flow` is active.
  void RemoveFlow(int flow);
  // Changes a resource's capacity (a link that fails: 0; one that runs
  // slower: less); the next Solve re-rates what it moves and, where
  // classes meet on it, shares the new capacity among its lanes.
  // REQUIRES: capacity >= 0.
  void SetCapacity(int resource, double capacity);
  // Re-rates every flow a change since the last Solve can move.
  void Solve();

  // Valid after Solve() until the next Add/Remove.
  double rate(int flow) const { return solver_.rate(flow); }
  // Sum over every class of the rates crossing `resource` (times their
  // coefficients).
  double load(int resource) const;
  size_t active_flows() const { return solver_.active_flows(); }
  size_t resource_count() const { return ports_.size(); }
  double capacity(int resource) const { return ports_[static_cast<size_t>(resource)].capacity; }
  // The flow's distinct resources (ids of AddResource) and its coefficient
  // on each, in the same order (not necessarily sorted). Valid until the
  // next AddFlow.
  std::span<const int> resources(int flow) const;
  std::span<const double> coefficients(int flow) const { return solver_.coefficients(flow); }
  // The active flows the last Solve() re-rated, each once.
  const std::vector<int>& solved_flows() const {
    return contested_ever_ ? solved_flows_ : solver_.solved_flows();
  }
  // MaxMinSolver solves the last Solve() took (1 without contested
  // resources).
  int rounds() const { return rounds_; }

  static constexpr int kMaxRounds = 32;

 private:
  struct Lane {
    int resource = -1;       // MaxMinSolver's id
    int traffic_class = -1;  // the class whose flows cross it (while any do)
  };
  struct Port {
    double capacity = 0;
    Lane first;               // its own id: the first class to reach it
    std::vector<Lane> more;   // lanes of the other classes, once any met it
  };
  // True while every flow added has been in `traffic_class`: no lane was
  // made, a port is its own lane, and AddFlow skips the lane lookup (the
  // common case costs nothing). The first flow of a second class gives
  // the ports in use their first class and ends it.
  bool OneClassSoFar(int traffic_class);
  // The lane of class c on port p, made if need be.
  int LaneFor(int port, int traffic_class);
  // The flow just added as `flow`: records its resources (`own`: its
  // lanes are its resources' own ids).
  int Record(int flow, bool own);
  void MarkPort(int port);
  // Sets the capacities of port p's lanes from their loads (the rule in
  // the header comment); true if one moved.
  bool Reallocate(int port);

  MaxMinSolver solver_;
  std::vector<ClassScheduling> classes_;
  std::vector<Port> ports_;
  std::vector<int> port_of_;  // by MaxMinSolver resource: its port
  // Per flow: whether its lanes are its ports (resources() is then the
  // solver's list), else its ports in the solver's order.
  std::vector<uint8_t> own_ports_;
  std::vector<std::vector<int>> ports_of_flow_;
  std::vector<int> lanes_;  // AddFlow scratch
  bool contested_ever_ = false;  // a second lane was ever made
  static constexpr int kNoClassYet = -1;
  static constexpr int kMixedClasses = -2;
  int only_class_ = kNoClassYet;  // the one class of every flow so far, or one of those
  // Solve scratch: ports to reallocate, flows re-rated over the rounds.
  std::vector<int> dirty_ports_;
  std::vector<uint32_t> port_mark_;
  std::vector<uint32_t> flow_mark_;
  uint32_t port_epoch_ = 1;  // port_mark_ == it: in dirty_ports_
  uint32_t flow_epoch_ = 0;  // flow_mark_ == it: in solved_flows_
  std::vector<int> solved_flows_;
  int rounds_ = 0;
  struct Tiered {
    int tier;
    int resource;
    double weight;
    double load = 0;
    bool full = false;       // at its capacity: its class would take more
    bool satisfied = false;  // below its share: its demand is its load
  };
  std::vector<Tiered> tiered_;  // Reallocate scratch
};

}  // namespace aifabric
