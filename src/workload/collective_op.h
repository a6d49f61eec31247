// CollectiveOp names the collective operations aifabric simulates, with the
// spelling nccl-tests uses for its binaries (all_reduce_perf ->
// "all_reduce"). Pure functions; thread-safe.
#pragma once

#include <string_view>

#include "core/result.h"

namespace aifabric {

enum class CollectiveOp : uint8_t {
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kBroadcast,
  kReduce,
  kSendRecv,
};

// "all_reduce", "all_gather", "reduce_scatter", "alltoall", "broadcast",
// "reduce", "sendrecv".
std::string_view CollectiveOpName(CollectiveOp op);

// The inverse of CollectiveOpName; the error lists the accepted names.
Result<CollectiveOp> ParseCollectiveOp(std::string_view name);

}  // namespace aifabric
