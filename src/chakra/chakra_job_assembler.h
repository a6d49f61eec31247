// AssembleChakraJob joins the reduced traces of all ranks into one
// JobGraph: it matches the copies of each collective across the ranks of
// its communicator and each send with its recv, gives every node its GPU,
// and turns the per-rank dependencies into edges between JobGraph nodes
// (through pass-through nodes). The rules are in docs/chakra.md. Pure
// function; thread-safe.
#pragma once

#include <vector>

#include "chakra/chakra_options.h"
#include "chakra/chakra_rank_nodes.h"
#include "core/result.h"
#include "workload/job_graph.h"

namespace aifabric {

// REQUIRES: ranks[r] is rank r of ranks.size(); CheckChakraOptions(options,
// ranks.size()) passed; `names` holds the names the ranks refer to.
Result<JobGraph> AssembleChakraJob(const std::vector<ChakraRankNodes>& ranks, const ChakraNames& names,
                                   const ChakraOptions& options);

}  // namespace aifabric
