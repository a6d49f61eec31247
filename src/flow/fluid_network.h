// FluidNetwork moves transfers as fluids over capacity-limited resources:
// at every moment each active transfer runs at its weighted max-min fair
// rate within its traffic class, the classes sharing each resource by
// strict priority and weights (QosSolver), and rates are re-solved only when a transfer starts
// or finishes: once per instant, so a thousand transfers starting together
// cost one solve (starts mark the rates stale and schedule one solve event
// at the same time, which runs after them). It keeps one live event in the
// simulator (the next finish or that solve). A transfer is done when its
// last byte has drained plus its fixed latency (pipe delay). Used for the
// links inside a server (NVLink ports), and as the core of the flow-level
// network model.
//
// Cost. Each transfer keeps its remaining bytes as of the last change of
// its rate and its predicted drain time in a heap; a solve touches only the
// transfers it re-rated (those the change could move), so an
// event costs that component plus a heap operation, not every active
// transfer.
//
// Coflows (StartCoflow): one fluid that crosses resources at several
// multiples of its rate: the edges of a collective progressing together.
// Lives in one Simulator; not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/data_rate.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/network_model.h"
#include "flow/qos_solver.h"

namespace aifabric {

class FluidNetwork final : public EventHandler {
 public:
  // Called once per transfer with its id and the time its last byte arrived
  // plus its latency.
  using DoneCallback = std::function<void(uint64_t id, Time finish)>;

  FluidNetwork(Simulator& sim, DoneCallback done);
  FluidNetwork(const FluidNetwork&) = delete;
  FluidNetwork& operator=(const FluidNetwork&) = delete;

  // The traffic classes transfers may name (QosSolver::SetClasses);
  // without it, one class. REQUIRES: no transfer started yet.
  void SetClasses(std::span<const ClassScheduling> classes) { solver_.SetClasses(classes); }
  // REQUIRES: rate > 0.
  int AddResource(DataRate capacity);
  // A capacity in bit/s that need not be whole (e.g. a link rate times the
  // payload efficiency of its packets). REQUIRES: capacity_bps > 0.
  int AddResource(double capacity_bps);
  // Starts `bytes` now over `resources` (each an AddResource id; non-empty).
  // A zero-byte transfer completes after `latency` alone. Its weight counts
  // among the transfers of its class.
  void Start(uint64_t id, uint64_t bytes, std::span<const int> resources, Time latency, double weight = 1.0,
             int traffic_class = 0);
  // The same for a transfer that crosses resources[i] with a fraction
  // coefficients[i] of its bytes (a transfer spread over several paths).
  // REQUIRES: same lengths, coefficients > 0.
  void Start(uint64_t id, uint64_t bytes, std::span<const int> resources, std::span<const double> coefficients,
             Time latency, double weight = 1.0, int traffic_class = 0);
  // Starts a coflow: `bytes` of a reference edge, crossing resources[i] with
  // coefficients[i] bytes per reference byte (a resource listed twice
  // carries the sum). With D the time its reference bytes take to drain,
  // it is done at start + max(chain + depth x D, (1 + fill_depth) x D +
  // fill) + latency (CoflowTiming, fabric/network_model.h).
  // REQUIRES: same lengths, non-empty, coefficients > 0, depths >= 0.
  void StartCoflow(uint64_t id, uint64_t bytes, std::span<const int> resources, std::span<const double> coefficients,
                   const CoflowTiming& timing, double weight = 1.0, int traffic_class = 0);

  // A resource's capacity from now on (a link that fails: 0, and the
  // transfers crossing it stall at rate 0 until it is back or they move;
  // one that runs slower: less). REQUIRES: capacity_bps >= 0.
  void SetCapacity(int resource, double capacity_bps);
  // What Revise may change of an active transfer or coflow from now.
  struct Revision {
    // (Reference) bytes it must send again (what a dead link destroyed).
    double extra_bytes = 0;
    // Whether it crosses `resources` (at `coefficients`, empty: all 1)
    // from now instead, with `latency` after it drains if given.
    bool reroute = false;
    std::vector<int> resources;
    std::vector<double> coefficients;
    std::optional<Time> latency;
  };
  // Offers every active transfer and coflow, in start order, to `revise`:
  // its id, its rate now (bit/s), its resources and coefficients. Where
  // `revise` returns true, its Revision applies from now (the bytes it
  // carried so far stay with its old resources). Solves first if starts
  // are pending; the rates are re-solved at this instant.
  using ReviseFn = std::function<bool(uint64_t id, double rate_bps, std::span<const int> resources,
                                      std::span<const double> coefficients, Revision& out)>;
  void Revise(const ReviseFn& revise);

  size_t active() const { return solver_.active_flows(); }
  // Current rate of the active transfer with `id`, in bit/s (0 if none);
  // solves first if starts are pending. Linear in the active transfers.
  double rate_bps(uint64_t id);
  // (Reference) bytes the active transfer or coflow with `id` has still to
  // send now (0 if none, or if only its latency is left); solves first if
  // starts are pending. Linear in the active transfers.
  double remaining_bytes(uint64_t id);
  // Bytes that have crossed `resource` up to now. Linear in the active
  // transfers.
  double bytes_carried(int resource) const;
  // The same for the first out.size() resources at once (out[r]), in one
  // pass over the active transfers. REQUIRES: out.size() <= the number of
  // resources.
  void BytesCarried(std::span<double> out) const;
  // Rate solves so far (one per instant with a start or a finish).
  uint64_t solves() const { return solves_; }
  // Called at each solve with every transfer it re-rated (new ones too):
  // its id, its rate from now in bit/s and the (reference) bytes it has
  // still to send. For a caller that reacts to rates (flow/flow_dcqcn.h);
  // none by default.
  using RateObserver = std::function<void(uint64_t id, double rate_bps, double remaining_bytes)>;
  void SetRateObserver(RateObserver observer) { rate_observer_ = std::move(observer); }
  // The sum of the rates crossing `resource` (times their coefficients),
  // as of the last solve. Linear in the transfers crossing it.
  double load_bps(int resource) const { return solver_.load(resource); }
  double capacity_bps(int resource) const { return solver_.capacity(resource); }

  void OnEvent(uint64_t tag) override;

 private:
  struct Active {
    uint64_t id = 0;
    uint64_t seq = 0;              // start order: ties finish in it
    double bytes = 0;              // the transfer's (reference) size
    double remaining_bytes = 0;    // as of `updated`
    double rate_bps = 0;           // since `updated`
    Time updated;
    Time start;
    CoflowTiming timing;  // a plain transfer: latency alone
    double weight = 1.0;
    int traffic_class = 0;
    Time stalled;                          // time spent at rate 0 so far
    Time stalled_since = Time::Infinite();  // at rate 0 since then
    uint64_t version = 0;          // of its live heap entry; 0 = none
    bool active = false;
  };
  struct Drain {
    int64_t at_ps;
    uint64_t seq;
    int flow;
    uint64_t version;
  };
  static constexpr uint64_t kSolveTag = ~uint64_t{0};
  void Add(int flow, uint64_t id, uint64_t bytes, const CoflowTiming& timing, double weight, int traffic_class);
  // Marks the rates stale and schedules the one solve of this instant.
  void SolveSoon();
  // Predicts when `a` (solver flow `flow`) drains at its current rate.
  void PredictDrain(Active& a, int flow, Time now);
  // Remaining bytes of `a` at `now` at its current rate.
  double RemainingAt(const Active& a, Time now) const;
  // Re-solves the rates, re-predicts the drains of the re-rated transfers
  // and schedules the earliest.
  void Reschedule();
  void ScheduleEarliest();
  void Finish(const Active& a);

  Simulator& sim_;
  DoneCallback done_;
  // Completions due after a latency: one event each, from a slot table
  // (no allocation per transfer, as a std::function callback would make).
  class Completions final : public EventHandler {
   public:
    explicit Completions(FluidNetwork& net) : net_(net) {}
    void Schedule(uint64_t id, Time at);
    void OnEvent(uint64_t tag) override;

   private:
    FluidNetwork& net_;
    std::vector<std::pair<uint64_t, Time>> pending_;
    std::vector<uint32_t> free_;
  };
  Completions completions_;
  QosSolver solver_;
  std::vector<Active> flows_;  // by solver flow id
  std::vector<Drain> drains_;  // min-heap on (at_ps, seq); stale entries skipped
  // Per resource: bytes of the finished transfers that crossed it (active
  // ones are added on demand by bytes_carried).
  std::vector<double> carried_done_;
  std::vector<int> revised_;    // flows Revise changed, re-predicted at the next solve
  uint64_t next_seq_ = 0;
  uint64_t next_version_ = 1;
  uint64_t generation_ = 0;     // tags the one live finish event
  bool solve_pending_ = false;  // a start left the rates stale
  uint64_t solves_ = 0;
  RateObserver rate_observer_;
};

}  // namespace aifabric
