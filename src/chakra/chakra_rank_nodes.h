// ChakraRankNodes is one rank's Chakra trace reduced to what a JobGraph
// needs: per node its role (compute, collective, send, recv, or pass-
// through), the figures of that role, and its dependencies resolved to
// indices within the rank, in a compact form. ChakraRankReducer makes it
// one node at a time, so a file's protobuf messages are never all held;
// it checks the rank on its own: unique ids, known dependencies, no cycle,
// well-formed attributes. Not thread-safe (the name table is shared).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chakra/chakra_options.h"
#include "chakra/chakra_trace_file.h"
#include "core/result.h"
#include "core/time.h"
#include "workload/collective_op.h"

namespace aifabric {

// Strings stored once (node names, communicator names), by index.
class ChakraNames {
 public:
  uint32_t Intern(std::string_view s);
  const std::string& operator[](uint32_t i) const { return names_[i]; }
  size_t size() const { return names_.size(); }

 private:
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<std::string> names_;
};

enum class ChakraNodeRole : uint8_t {
  kCompute,      // COMP_NODE
  kCollective,   // COMM_COLL_NODE
  kSend,         // COMM_SEND_NODE
  kRecv,         // COMM_RECV_NODE
  kPassThrough,  // anything else: no work, its dependencies carry over
};

struct ChakraNodeInfo {
  uint64_t id = 0;
  uint32_t name = 0;  // ChakraNames index
  ChakraNodeRole role = ChakraNodeRole::kPassThrough;
  CollectiveOp op = CollectiveOp::kAllReduce;  // collective
  uint32_t pg = 0;       // collective: ChakraNames index of pg_name
  int32_t peer = -1;     // send: the destination rank; recv: the source rank
  int32_t tag = 0;       // send, recv: comm_tag
  uint64_t bytes = 0;    // collective, send, recv: comm_size
  Time duration;         // compute
  double flops = 0;      // compute: num_ops, 0 if absent
  uint32_t deps_begin = 0;  // [deps_begin, deps_end) in ChakraRankNodes::deps
  uint32_t deps_end = 0;
};

struct ChakraRankNodes {
  std::string origin;                 // the file, for messages
  std::vector<ChakraNodeInfo> nodes;  // file order
  std::vector<uint32_t> deps;         // indices into nodes
  std::vector<uint32_t> order;        // every node, each after its dependencies

  // "origin: node ID (name): ", the prefix of a message about node i.
  std::string Where(uint32_t i, const ChakraNames& names) const;
};

// Reduces rank `rank` (of `rank_count`) of a trace set from its nodes in
// file order. Errors are "origin: node ID (name): what".
class ChakraRankReducer {
 public:
  // `options` and `names` must outlive the reducer.
  ChakraRankReducer(const std::string& origin, int32_t rank, int32_t rank_count, const ChakraOptions& options,
                    ChakraNames& names);

  // The next node of the file.
  Status Add(const ChakraProtoMsg::Node& node);

  // Resolves the dependencies (a node may depend on a later one) and
  // orders the nodes.
  Result<ChakraRankNodes> Finish() &&;

 private:
  // Fixed at construction:
  const int32_t rank_;
  const int32_t rank_count_;
  const ChakraOptions& options_;
  ChakraNames& names_;

  ChakraRankNodes out_;
  std::vector<uint64_t> dep_ids_;  // deps_begin/deps_end index these until Finish
  std::unordered_map<uint64_t, uint32_t> by_id_;
};

}  // namespace aifabric
