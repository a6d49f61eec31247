// FluidNetwork moves transfers as fluids over capacity-limited resources:
// at every moment each active transfer runs at its weighted max-min fair
// rate (MaxMinSolver), and rates are re-solved only when a transfer starts
// or finishes. It keeps one pending event in the simulator (the next
// finish). A transfer is done when its last byte has drained plus its fixed
// latency (pipe delay). Used for the links inside a server (NVLink ports),
// and as the core of the flow-level network model. Lives in one Simulator;
// not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/data_rate.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "flow/max_min_solver.h"

namespace aifabric {

class FluidNetwork final : public EventHandler {
 public:
  // Called once per transfer with its id and the time its last byte arrived.
  using DoneCallback = std::function<void(uint64_t id, Time finish)>;

  FluidNetwork(Simulator& sim, DoneCallback done);
  FluidNetwork(const FluidNetwork&) = delete;
  FluidNetwork& operator=(const FluidNetwork&) = delete;

  // REQUIRES: rate > 0.
  int AddResource(DataRate capacity);
  // Starts `bytes` now over `resources` (each an AddResource id; non-empty).
  // A zero-byte transfer completes after `latency` alone.
  void Start(uint64_t id, uint64_t bytes, std::span<const int> resources, Time latency, double weight = 1.0);

  size_t active() const { return active_.size(); }
  // Current rate of the active transfer with `id`, in bit/s (0 if none).
  double rate_bps(uint64_t id) const;
  // Bytes that have crossed `resource` so far (updated at each re-solve).
  double bytes_carried(int resource) const { return carried_[static_cast<size_t>(resource)]; }

  void OnEvent(uint64_t tag) override;

 private:
  struct Active {
    uint64_t id;
    int flow;               // MaxMinSolver flow id
    double remaining_bytes;
    Time latency;
  };
  // Drains every active transfer at its current rate from last_update_ to now.
  void Advance();
  // Re-solves the rates and schedules the earliest finish.
  void Reschedule();
  void Finish(const Active& a);

  Simulator& sim_;
  DoneCallback done_;
  MaxMinSolver solver_;
  std::vector<Active> active_;
  std::vector<double> carried_;
  Time last_update_;
  uint64_t generation_ = 0;   // tags the one live finish event
};

}  // namespace aifabric
