// EASY backfilling's reservation (Lifka 1995; Slurm's sched/backfill):
// when the job at the head of the queue cannot start, it reserves the
// earliest time enough GPUs will be free, from the running jobs' expected
// ends; a later job may start now only if it ends by then or fits in the
// GPUs the head will not need. Counts GPUs, not their topology, as
// schedulers' reservations do. Pure functions; thread-safe.
#pragma once

#include <span>

#include "core/time.h"

namespace aifabric {

struct RunningJobEnd {
  Time expected_end;  // when the job should finish (past ends count as now)
  int gpus = 0;
};

struct BackfillReservation {
  Time shadow = Time::Infinite();  // when the head job can start
  int extra_gpus = 0;              // GPUs free then beyond the head's need
};

// The head needs `head_gpus`; `free_gpus` are free now. Running jobs free
// their GPUs at their expected ends (sorted here by end, then given order).
// If the head fits now, shadow = now.
BackfillReservation ReserveForHead(Time now, int head_gpus, int free_gpus, std::span<const RunningJobEnd> running);

// Whether a job of `gpus` expected to run `run` may start at `now` without
// delaying the head: it ends by the shadow, or it fits in the extra GPUs.
inline bool MayBackfill(const BackfillReservation& r, Time now, Time run, int gpus) {
  return (!r.shadow.IsInfinite() && now + run <= r.shadow) || gpus <= r.extra_gpus;
}

}  // namespace aifabric
