// ComputeSlowdowns are the windows in which GPUs compute slower than
// nominal (a scenario's `straggler` faults, docs/faults.md): GPU `gpu`
// runs its kernels at `factor` times its speed from `at` to `until`.
// KernelEnd says when a kernel of a given nominal duration finishes: it
// progresses at full speed outside every window and at the window's speed
// inside, so a kernel that straddles a window's edge is stretched only for
// its part inside (where windows of one GPU overlap, the slowest speed
// holds). An immutable value; thread-safe.
#pragma once

#include <vector>

#include "fabric/cluster_layout.h"
#include "core/time.h"

namespace aifabric {

struct SlowWindow {
  GpuId gpu = 0;
  Time at;
  Time until = Time::Infinite();
  double factor = 1;  // speed in (0, 1]
};

class ComputeSlowdowns {
 public:
  ComputeSlowdowns() = default;
  // REQUIRES: every window has at < until and factor in (0, 1].
  explicit ComputeSlowdowns(std::vector<SlowWindow> windows);

  bool empty() const { return windows_.empty(); }
  const std::vector<SlowWindow>& windows() const { return windows_; }

  // The end of a kernel of nominal `duration` started on `gpu` at `start`:
  // start + duration when no window of the GPU overlaps it; otherwise each
  // stretch of it inside a window at speed f lasts 1/f as long (rounded up
  // to the picosecond at the kernel's end).
  Time KernelEnd(GpuId gpu, Time start, Time duration) const;

 private:
  std::vector<SlowWindow> windows_;  // by GPU, then start
};

}  // namespace aifabric
