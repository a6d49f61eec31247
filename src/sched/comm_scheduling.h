// The two communication schedulers a scheduling replay may put on top of
// any placement (cluster_replay.h, "Communication scheduling"): Crux's
// max-min weight from a job's rank by GPU intensity (SIGCOMM'24), and
// CASSINI's time shift of a job's first iteration away from the
// communication of the jobs it shares links with (NSDI'24). The replay
// gathers the jobs' figures; these are the rules. Pure functions;
// thread-safe.
#pragma once

#include <span>

namespace aifabric {

// Crux's priority levels: 8 DSCP/traffic classes.
constexpr int kCruxLevels = 8;

// The max-min weight of a job ranked above `lower` of the `total` jobs on
// the fabric by GPU intensity (FLOPs per byte it sends):
//   2^level, level = min(kCruxLevels - 1, floor(lower x kCruxLevels / total)),
// so the jobs fall into kCruxLevels bands by rank; 1 when total is 0.
// REQUIRES: 0 <= lower <= total.
double CruxWeightForRank(int lower, int total);

// A job's iterations as CASSINI sees them: from `start` (seconds), `head`
// seconds of compute, then `comm` of communication, every `period`.
struct CommCycle {
  double start = 0;
  double head = 0;
  double comm = 0;
  double period = 0;  // head + comm
};

// CASSINI's grid of offsets over a period.
constexpr int kCassiniOffsets = 16;

// The offset, in seconds, for a job about to start at `now` whose
// iterations are `head` of compute then `comm` of communication (period
// P = head + comm): of the kCassiniOffsets offsets k P / kCassiniOffsets,
// the one whose communication windows [now + o + i P + head, ... + comm)
// over the next 4 P overlap least with those of `others`, the earliest on
// ties. 0 when comm <= 0, P <= 0 or there are no others.
double CassiniOffsetSeconds(double now, double head, double comm, std::span<const CommCycle> others);

}  // namespace aifabric
