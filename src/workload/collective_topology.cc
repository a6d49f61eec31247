#include "workload/collective_topology.h"

#include <cassert>

namespace aifabric {

std::vector<CollectiveRank> ChannelRingOrder(int32_t ranks, int32_t ranks_per_server, int32_t channel) {
  assert(ranks_per_server >= 1 && ranks % ranks_per_server == 0 && channel >= 0);
  std::vector<CollectiveRank> ring;
  ring.reserve(static_cast<size_t>(ranks));
  const int32_t servers = ranks / ranks_per_server;
  for (int32_t s = 0; s < servers; ++s) {
    for (int32_t j = 0; j < ranks_per_server; ++j) {
      ring.push_back(s * ranks_per_server + (j + channel) % ranks_per_server);
    }
  }
  return ring;
}

std::vector<int32_t> BinaryTreeParents(int32_t nodes) {
  std::vector<int32_t> parent(static_cast<size_t>(nodes), -1);
  for (int32_t r = 1; r < nodes; ++r) {
    int32_t bit = 1;
    while (!(r & bit)) bit <<= 1;  // lowest set bit of r
    int32_t up = (r ^ bit) | (bit << 1);
    if (up >= nodes) up = r ^ bit;
    parent[static_cast<size_t>(r)] = up;
  }
  return parent;
}

std::vector<int32_t> DoubleBinaryTreeParents(int32_t nodes, int tree) {
  std::vector<int32_t> base = BinaryTreeParents(nodes);
  if (tree == 0) return base;
  // map(i): where node i of tree 0 sits in tree 1.
  auto map = [nodes](int32_t i) { return nodes % 2 == 0 ? nodes - 1 - i : (i + 1) % nodes; };
  std::vector<int32_t> parent(static_cast<size_t>(nodes), -1);
  for (int32_t i = 0; i < nodes; ++i) {
    const int32_t p = base[static_cast<size_t>(i)];
    parent[static_cast<size_t>(map(i))] = p < 0 ? -1 : map(p);
  }
  return parent;
}

uint64_t SplitPart(uint64_t total, uint64_t parts, uint64_t i) {
  assert(parts >= 1 && i < parts);
  return total / parts + (i < total % parts ? 1 : 0);
}

}  // namespace aifabric
