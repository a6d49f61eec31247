// TrafficInjector starts a workload's flows on a NetworkModel at their start
// times. It keeps exactly one pending event in the simulator (the next
// start), so a million-flow workload costs one queue slot, not a million
// callbacks. Owned by whoever wires the run (src/run); lives inside one
// Simulator; not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "engine/simulator.h"
#include "fabric/network_model.h"
#include "workload/traffic_spec.h"

namespace aifabric {

class TrafficInjector final : public EventHandler {
 public:
  // REQUIRES: `flows` sorted by start (BuildFlows' order). `sim` and `model`
  // outlive the injector, and the injector outlives the simulation run (its
  // pending event points at it).
  TrafficInjector(Simulator& sim, NetworkModel& model, std::vector<FlowSpec> flows);
  TrafficInjector(const TrafficInjector&) = delete;
  TrafficInjector& operator=(const TrafficInjector&) = delete;

  // Schedules the first start. A flow whose start is already past when its
  // turn comes starts at once (at Now()). Call once.
  void Start();

  // The UDP source port a flow is given: 10000 + id mod 50000, so ECMP
  // hashing sees a different five-tuple per flow, reproducibly.
  static uint16_t SourcePort(FlowId id);
  // The transfer the injector starts for a flow (with its SourcePort).
  static TransferRequest RequestFor(const FlowSpec& flow);

  size_t flows_started() const { return next_; }
  size_t flows_total() const { return flows_.size(); }
  const std::vector<FlowSpec>& flows() const { return flows_; }

  void OnEvent(uint64_t tag) override;

 private:
  void ScheduleNext();

  // Fixed at construction.
  Simulator& sim_;
  NetworkModel& model_;
  const std::vector<FlowSpec> flows_;

  size_t next_ = 0;  // index of the next flow to start
  bool started_ = false;
};

}  // namespace aifabric
