// The rank orders collective algorithms run over: rings per channel and
// NCCL's double binary tree. Pure functions of their arguments; thread-safe.
//
// Channels and NICs. Ranks are numbered server-major (rank = server *
// ranks_per_server + local rank) and the caller maps local rank l of a
// server to that server's GPU l, whose NIC is rail l in a rail-optimized
// fabric. Channel c's ring visits the servers in order and, inside each
// server, the local ranks rotated by c: c, c+1, ..., c-1 (mod L). So channel
// c enters a server at local rank c and leaves it from local rank c-1: over
// L channels every GPU's NIC sends one channel's inter-server traffic and
// receives another's, spreading the rings over all NICs as NCCL's rings do.
// Trees rotate their intra-server chains the same way.
#pragma once

#include <cstdint>
#include <vector>

#include "workload/collective_dag.h"

namespace aifabric {

// Rank at each position of channel `channel`'s ring.
// REQUIRES: ranks_per_server >= 1 divides ranks; channel >= 0.
std::vector<CollectiveRank> ChannelRingOrder(int32_t ranks, int32_t ranks_per_server, int32_t channel);

// NCCL's binary tree over `nodes` nodes (0..nodes-1): node 0 is the root
// with a single child; a node's parent clears its lowest set bit and sets
// the next one up (or only clears it, if that leaves the range). Returns each
// node's parent, -1 for the root. Depth is about log2(nodes).
std::vector<int32_t> BinaryTreeParents(int32_t nodes);

// Tree `tree` (0 or 1) of NCCL's double binary tree: tree 0 is
// BinaryTreeParents; tree 1 is it mirrored (node i <-> nodes-1-i) for an
// even count, or shifted by one (i -> i+1 mod nodes) for an odd count, so
// most nodes that are interior in one tree are leaves in the other.
std::vector<int32_t> DoubleBinaryTreeParents(int32_t nodes, int tree);

// Splits `total` into `parts` near-equal integers; part i gets one more
// byte than the last parts when total is not a multiple of parts.
// REQUIRES: parts >= 1, 0 <= i < parts.
uint64_t SplitPart(uint64_t total, uint64_t parts, uint64_t i);

}  // namespace aifabric
