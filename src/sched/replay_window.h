// ReplayWindow is the slice of a scheduling replay handed to the packet
// level (ReplayOptions::window_start_s and window_s): whether an instant
// falls inside it, and the flows (WindowFlow, cluster_replay.h) the replay
// records there as coflows start in it or are in flight when it opens.
// Not thread-safe.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "core/time.h"
#include "sched/cluster_replay.h"
#include "sched/replay_fabric.h"

namespace aifabric {

class ReplayWindow {
 public:
  // [start_s, start_s + length_s) of the replay's time; a negative start_s
  // is no window.
  ReplayWindow(double start_s, double length_s) : start_s_(start_s), length_s_(length_s) {}

  bool enabled() const { return start_s_ >= 0; }
  // Whether `now` falls inside (both ends at the engine's whole picoseconds).
  bool Contains(Time now) const;
  // Records `edges` of job `job_id` (but those from a NIC to itself or
  // without bytes) as flows of kind `what` carrying `scale` times their
  // bytes, starting at `now`. REQUIRES: enabled().
  void Record(const std::string& job_id, const char* what, std::span<const CommEdge> edges, double scale, Time now);
  // The flows recorded, in record order; leaves none.
  std::vector<WindowFlow> TakeFlows() { return std::move(flows_); }

 private:
  // Fixed at construction.
  const double start_s_;
  const double length_s_;

  std::vector<WindowFlow> flows_;
};

}  // namespace aifabric
