#include "workload/rank_waits.h"

#include <algorithm>
#include <cassert>
#include <set>
#include <utility>

namespace aifabric {
namespace {

struct Input {
  GpuId gpu;
  Time at;
};

// Folds one synchronisation point's inputs (any order, a GPU possibly
// several times: its latest counts) into the waits.
void Settle(std::vector<Input>& inputs, std::vector<RankWait>& waits, std::vector<std::set<GpuId>>& peers) {
  std::sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) {
    return a.gpu != b.gpu ? a.gpu < b.gpu : a.at > b.at;
  });
  inputs.erase(std::unique(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.gpu == b.gpu; }),
               inputs.end());
  if (inputs.size() < 2) return;
  // The latest first; among equal times the lowest GPU (stable).
  std::stable_sort(inputs.begin(), inputs.end(), [](const Input& a, const Input& b) { return a.at > b.at; });
  const Input& last = inputs[0];
  if (static_cast<size_t>(last.gpu) >= waits.size() || last.at == inputs[1].at) return;
  RankWait& w = waits[static_cast<size_t>(last.gpu)];
  w.held += last.at - inputs[1].at;
  ++w.last_at;
  for (size_t k = 1; k < inputs.size(); ++k) {
    w.waited_on += last.at - inputs[k].at;
    peers[static_cast<size_t>(last.gpu)].insert(inputs[k].gpu);
  }
}

}  // namespace

std::vector<RankWait> ComputeRankWaits(const JobGraph& graph, std::span<const Time> start,
                                       std::span<const Time> finish, int32_t gpus) {
  const size_t count = static_cast<size_t>(gpus > 0 ? gpus : graph.gpu_count());
  std::vector<RankWait> waits(count);
  for (size_t g = 0; g < count; ++g) waits[g].gpu = static_cast<GpuId>(g);
  const size_t n = graph.size();
  std::vector<std::vector<Input>> inputs(n);
  // The job's end: each GPU's last kernel.
  std::vector<Input> end;
  std::vector<Time> last_kernel(static_cast<size_t>(graph.gpu_count()), Time::FromPs(-1));
  for (JobNodeIndex i = 0; i < n; ++i) {
    assert(!start[i].IsInfinite() && !finish[i].IsInfinite());
    const JobNode& node = graph.node(i);
    if (node.kind == JobNodeKind::kCompute) {
      if (static_cast<size_t>(node.gpu) < count) waits[static_cast<size_t>(node.gpu)].compute += finish[i] - start[i];
      Time& latest = last_kernel[static_cast<size_t>(node.gpu)];
      latest = Max(latest, finish[i]);
    }
    if (node.kind == JobNodeKind::kCollective) continue;  // a group: no one GPU's input
    const Input in{node.gpu, node.kind == JobNodeKind::kCompute ? finish[i] : start[i]};
    for (JobNodeIndex s : graph.successors(i)) inputs[s].push_back(in);
  }
  std::vector<std::set<GpuId>> peers(count);
  for (JobNodeIndex i = 0; i < n; ++i) Settle(inputs[i], waits, peers);
  for (size_t g = 0; g < last_kernel.size(); ++g) {
    if (last_kernel[g] >= Time::Zero()) end.push_back({static_cast<GpuId>(g), last_kernel[g]});
  }
  Settle(end, waits, peers);
  for (size_t g = 0; g < count; ++g) {
    if (peers[g].empty()) continue;
    std::vector<Time> c;
    for (GpuId p : peers[g]) {
      if (static_cast<size_t>(p) < count) c.push_back(waits[static_cast<size_t>(p)].compute);
    }
    if (c.empty()) continue;
    std::sort(c.begin(), c.end());
    // The lower median of an even count: a figure some peer really had.
    waits[g].peer_compute = c[(c.size() - 1) / 2];
  }
  return waits;
}

}  // namespace aifabric
