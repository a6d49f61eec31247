// Reads a set of Chakra execution traces (one file per rank, as ASTRA-sim
// takes them) into one JobGraph over GPUs. The mapping, in short (the full
// rules are in docs/chakra.md):
//   COMP_NODE       -> a compute node on the rank's GPU (duration_micros, or
//                      num_ops at options.peak_flops_per_s)
//   COMM_COLL_NODE  -> one collective per matched set: the k-th collective
//                      of communicator pg_name on each rank of its group
//   COMM_SEND_NODE  -> one transfer with the matching COMM_RECV_NODE: the
//   COMM_RECV_NODE     k-th send (src, dst, comm_tag) with the k-th recv
//   anything else   -> passed through: no work, dependencies carry over
// Both data_deps and ctrl_deps are dependencies. Errors name the file and
// node id: "file: node ID (name): what". Pure functions; thread-safe.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "chakra/chakra_options.h"
#include "chakra/chakra_trace_file.h"
#include "core/result.h"
#include "workload/job_graph.h"

namespace aifabric {

// Reads the files (file r is rank r) one at a time and builds the graph.
Result<JobGraph> ReadChakraTraces(const std::vector<std::string>& files_per_rank, const ChakraOptions& options = {});

// FindChakraTraceFiles(prefix), then ReadChakraTraces.
Result<JobGraph> ReadChakraTracePrefix(const std::string& prefix, const ChakraOptions& options = {});

// The same from traces in memory; origins[r] names rank r in messages.
// REQUIRES: origins.size() == ranks.size()
Result<JobGraph> BuildChakraJobGraph(const std::vector<ChakraRankTrace>& ranks, const std::vector<std::string>& origins,
                                     const ChakraOptions& options = {});

// ASTRA-sim's communicator-group file: a JSON object from group name to
// its ranks, {"1": [0, 1, 2, 3], "2": [4, 5, 6, 7]}. Errors name the path.
Result<std::map<std::string, std::vector<int32_t>>> ReadChakraCommGroups(const std::string& path);

}  // namespace aifabric
