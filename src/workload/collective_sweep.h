// The parts of an nccl-tests sweep that need no network: size arguments
// with nccl-tests' suffixes, the list of sizes of -b/-e/-f/-i, each op's
// element count and printed size, and the algbw/busbw formulas
// (nccl-tests doc/PERFORMANCE.md). Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "workload/collective_op.h"

namespace aifabric {

// nccl-tests' parsesize: a number (a fraction is allowed: "1.5K"), optional
// white space, then optionally one of K, M, G (either case; powers of 1024).
// As in nccl-tests, anything after that one letter is ignored ("8GB" is
// 8G) and the product is truncated to whole bytes. Errors: no number, a
// negative number, any other letter ("8T", "8x").
Result<uint64_t> ParseNcclTestsSize(std::string_view text);

// -b MIN -e MAX and either -f FACTOR (> 1: multiply) or -i STEP (add).
struct SizeSweep {
  uint64_t min_bytes = 32ull << 20;  // nccl-tests' defaults
  uint64_t max_bytes = 32ull << 20;
  uint64_t step_factor = 1;          // -f; > 1 wins over step_bytes
  uint64_t step_bytes = 1ull << 20;  // -i
};

// min, then min*f (or min+i), ... while <= max, as nccl-tests loops.
// Errors (instead of looping forever): min > max, a step that cannot grow
// (factor <= 1 with step 0, or factor > 1 from 0 bytes), more than 100000 sizes.
Result<std::vector<uint64_t>> SweepSizes(const SizeSweep& sweep);

// One row's sizes as nccl-tests prints them for a requested size and n
// ranks, with its element type (float: 4 bytes): `count` is the count passed
// to NCCL (per rank for all_gather's input, reduce_scatter's output and each
// alltoall peer — there rounded down to whole 16-byte lines — else the
// buffer), and `bytes` = max(send, receive) buffer bytes, the size column
// and the S the collective moves.
struct NcclTestsSizes {
  uint64_t count = 0;
  uint64_t bytes = 0;
};
NcclTestsSizes SizesFor(CollectiveOp op, uint64_t requested_bytes, int32_t ranks, uint32_t element_bytes = 4);

// busbw / algbw: 2(n-1)/n for all_reduce; (n-1)/n for all_gather,
// reduce_scatter, alltoall; 1 for broadcast, reduce, sendrecv.
double BusBandwidthFactor(CollectiveOp op, int32_t ranks);

// algbw = bytes / time in GB/s (10^9 bytes/s); busbw = algbw * factor.
struct Bandwidth {
  double alg_gb_per_s = 0;
  double bus_gb_per_s = 0;
};
// A zero time gives zero bandwidths.
Bandwidth BandwidthFor(CollectiveOp op, int32_t ranks, uint64_t bytes, Time time);

// The redop and root columns nccl-tests prints: all_reduce, reduce_scatter,
// sendrecv "sum" -1; all_gather, alltoall "none" -1; broadcast "none" root;
// reduce "sum" root.
std::string_view NcclTestsRedop(CollectiveOp op);
int32_t NcclTestsRoot(CollectiveOp op, int32_t root);

}  // namespace aifabric
