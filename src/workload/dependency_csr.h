// DependencyCsr stores the edges of a DAG of `count` nodes in compressed
// sparse row form: each node's successors, contiguous, and its in-degree.
// Shared by CollectiveDag and JobGraph. Plain value; thread-safe to read.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace aifabric {

struct DependencyCsr {
  std::vector<uint32_t> offsets{0};  // count + 1 entries
  std::vector<uint32_t> successors;
  std::vector<uint32_t> in_degree;

  // REQUIRES: every edge joins nodes < count.
  void Assign(size_t count, const std::vector<std::pair<uint32_t, uint32_t>>& edges);
  std::span<const uint32_t> of(uint32_t node) const {
    return {successors.data() + offsets[node], successors.data() + offsets[node + 1]};
  }
  // Kahn's algorithm: a topological order, shorter than `count` when a
  // cycle leaves nodes out.
  std::vector<uint32_t> TopologicalOrder() const;
};

}  // namespace aifabric
