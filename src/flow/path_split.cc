#include "flow/path_split.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

PathSplitter::PathSplitter(const Topology& topology, const RoutingTable& routes)
    : topology_(topology), routes_(&routes), reached_(topology.num_nodes(), 0.0) {
  rate_gbps_.reserve(topology.ports().size());
  for (const Port& p : topology.ports()) rate_gbps_.push_back(static_cast<double>(p.rate.bps()) * 1e-9);
}

void PathSplitter::Split(NodeId src, NodeId dst, std::span<const double> load, std::vector<PortShare>& out) {
  assert(src != dst && routes_->Distance(src, dst) > 0);
  level_.assign(1, src);
  reached_[src] = 1.0;
  while (!level_.empty()) {
    next_.clear();
    for (NodeId n : level_) {
      const double fraction = reached_[n];
      reached_[n] = 0;
      const std::span<const PortId> hops = routes_->NextHops(n, dst);
      const size_t first = out.size();
      if (load.empty() || hops.size() == 1) {
        const double each = fraction / static_cast<double>(hops.size());
        for (PortId p : hops) out.push_back(PortShare{p, each});
      } else {
        Fill(hops, fraction, load, out);
      }
      for (size_t i = first; i < out.size(); ++i) {
        const NodeId m = topology_.port(out[i].port).peer;
        if (m == dst) continue;
        if (reached_[m] == 0) next_.push_back(m);
        reached_[m] += out[i].fraction;
      }
    }
    std::swap(level_, next_);
  }
}

void PathSplitter::Fill(std::span<const PortId> hops, double fraction, std::span<const double> load,
                        std::vector<PortShare>& out) {
  // Ports by load / rate (ties by next-hop order); the level lambda fills
  // the first m of them, the least m for which lambda stays at or below the
  // next one's load / rate.
  order_.clear();
  for (uint32_t i = 0; i < hops.size(); ++i) {
    const size_t p = static_cast<size_t>(hops[i]);
    order_.emplace_back(load[p] / rate_gbps_[p], i);
  }
  std::sort(order_.begin(), order_.end());
  double loads = 0, rates = 0, level = 0;
  size_t filled = 0;
  while (filled < order_.size()) {
    const size_t p = static_cast<size_t>(hops[order_[filled].second]);
    loads += load[p];
    rates += rate_gbps_[p];
    ++filled;
    level = (fraction + loads) / rates;
    if (filled == order_.size() || level <= order_[filled].first) break;
  }
  // In next-hop order, so the output does not depend on the sort's ties.
  std::sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(filled),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  for (size_t k = 0; k < filled; ++k) {
    const size_t p = static_cast<size_t>(hops[order_[k].second]);
    const double share = level * rate_gbps_[p] - load[p];
    if (share > 1e-12 * fraction) out.push_back(PortShare{hops[order_[k].second], share});
  }
}

}  // namespace aifabric
