#include "diagnosis/pause_forest.h"

#include <algorithm>
#include <map>
#include <utility>

namespace aifabric {
namespace {

enum class Visit : uint8_t { kNew, kOnChain, kDone };

}  // namespace

PauseForest BuildPauseForest(size_t num_ports, const std::vector<PauseCause>& causes) {
  PauseForest f;
  f.cause.assign(num_ports, kNoPort);
  f.frames_paused.assign(num_ports, 0);
  f.frames_caused.assign(num_ports, 0);
  f.root.assign(num_ports, kNoPort);
  f.depth.assign(num_ports, 0);
  f.cycle.assign(num_ports, -1);

  // Frames per (paused, cause) pair; the map orders pairs so the dominant
  // cause's tie-break (lowest id) falls out of the scan.
  const auto in_range = [&](PortId p) { return p >= 0 && static_cast<size_t>(p) < num_ports; };
  std::map<std::pair<PortId, PortId>, uint64_t> edges;
  for (const PauseCause& c : causes) {
    if (!in_range(c.paused) || !in_range(c.cause) || c.paused == c.cause || c.frames == 0) continue;
    edges[{c.paused, c.cause}] += c.frames;
  }
  std::vector<uint64_t> best(num_ports, 0);
  for (const auto& [edge, frames] : edges) {
    const auto [paused, cause] = edge;
    f.frames_paused[paused] += frames;
    f.frames_caused[cause] += frames;
    if (frames > best[paused]) {
      best[paused] = frames;
      f.cause[paused] = cause;
    }
  }

  // Follow each chain once; ports already resolved end a walk early, so
  // the whole pass is linear.
  std::vector<Visit> visit(num_ports, Visit::kNew);
  std::vector<int> chain_pos(num_ports, -1);
  std::vector<PortId> chain;
  for (PortId start = 0; static_cast<size_t>(start) < num_ports; ++start) {
    if (!f.HasCause(start) || visit[start] != Visit::kNew) continue;
    chain.clear();
    PortId q = start;
    while (true) {
      if (visit[q] == Visit::kDone) break;
      if (visit[q] == Visit::kOnChain) {
        // The chain came back to q: chain[chain_pos[q]..] is a cycle.
        std::vector<PortId> members(chain.begin() + chain_pos[q], chain.end());
        const auto lowest = std::min_element(members.begin(), members.end());
        std::rotate(members.begin(), lowest, members.end());
        const int index = static_cast<int>(f.cycles.size());
        for (PortId m : members) {
          f.root[m] = members.front();
          f.cycle[m] = index;
          visit[m] = Visit::kDone;
        }
        chain.resize(chain_pos[q]);
        f.cycles.push_back(std::move(members));
        break;
      }
      if (!f.HasCause(q)) {  // the root
        f.root[q] = q;
        visit[q] = Visit::kDone;
        break;
      }
      visit[q] = Visit::kOnChain;
      chain_pos[q] = static_cast<int>(chain.size());
      chain.push_back(q);
      q = f.cause[q];
    }
    // Everything left on the chain leads to q, resolved above.
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const PortId next = f.cause[*it];
      f.root[*it] = f.root[next];
      f.depth[*it] = f.depth[next] + 1;
      f.cycle[*it] = f.cycle[next];
      visit[*it] = Visit::kDone;
    }
  }
  for (PortId p = 0; static_cast<size_t>(p) < num_ports; ++p) {
    if (f.HasCause(p) && f.cycle[p] < 0) f.roots.push_back(f.root[p]);
  }
  std::sort(f.roots.begin(), f.roots.end());
  f.roots.erase(std::unique(f.roots.begin(), f.roots.end()), f.roots.end());
  return f;
}

}  // namespace aifabric
