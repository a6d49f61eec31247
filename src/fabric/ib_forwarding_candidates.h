// The routing engines' view of the switches (ib_forwarding_tables.cc):
// SwitchGraph, each switch's linked ports in IB port order and the hop
// counts between switches, and CandidateCache, a switch's least-hop ports
// toward each destination switch found once. Internal to the engines; not
// thread-safe.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/ids.h"
#include "fabric/ib_lid_map.h"
#include "fabric/topology.h"

namespace aifabric {
namespace ib_engines {

// The switches as a compact graph, for the routing engines: each switch's
// linked ports in IB port-number order with the switch index of the peer
// (-1 for a CA), and hop counts between switches over switch-to-switch
// links (CAs never forward), by destination switch, each table computed on
// first use and kept as 16-bit counts over the switches only (512 leaves of
// a 1,280-switch fabric: 1.3 MB).
class SwitchGraph {
 public:
  struct Link {
    PortId port;
    int peer;  // switch index, -1 for a CA
  };
  // `link_down` (by LinkId, non-zero: down; empty: none) leaves out the
  // links a sweep would not find.
  SwitchGraph(const Topology& t, const IbLidMap& map, std::span<const uint8_t> link_down = {})
      : index_(t.num_nodes(), -1) {
    for (NodeId sw : t.switches()) {
      index_[sw] = static_cast<int>(switches_.size());
      switches_.push_back(sw);
    }
    start_.push_back(0);
    for (NodeId sw : switches_) {
      for (int ib = 1; ib <= map.MaxIbPort(sw); ++ib) {
        const PortId p = map.PortAt(sw, ib);
        if (p == kNoPort) continue;
        if (!link_down.empty() && link_down[static_cast<size_t>(t.port(p).link)] != 0) continue;
        links_.push_back(Link{p, index_[t.port(p).peer]});
      }
      start_.push_back(static_cast<uint32_t>(links_.size()));
    }
    tables_.resize(switches_.size());
  }
  // Switch `sw`'s links in IB port order.
  std::span<const Link> Links(int sw) const {
    return std::span<const Link>(links_).subspan(start_[sw], start_[sw + 1] - start_[sw]);
  }
  // The table toward switch index `root`: by switch index, -1 if unreachable.
  const std::vector<int16_t>& To(int root) {
    std::vector<int16_t>& dist = tables_[root];
    if (!dist.empty()) return dist;
    dist.assign(switches_.size(), -1);
    queue_.assign(1, root);
    dist[root] = 0;
    for (size_t head = 0; head < queue_.size(); ++head) {
      const int n = queue_[head];
      for (const Link& l : Links(n)) {
        if (l.peer < 0 || dist[l.peer] >= 0) continue;
        dist[l.peer] = static_cast<int16_t>(dist[n] + 1);
        queue_.push_back(l.peer);
      }
    }
    return dist;
  }
  int index(NodeId sw) const { return index_[sw]; }
  size_t size() const { return switches_.size(); }

 private:
  std::vector<int> index_;  // by NodeId: switch index, -1 for hosts
  std::vector<NodeId> switches_;
  std::vector<uint32_t> start_;  // by switch index: its links' offset
  std::vector<Link> links_;
  std::vector<std::vector<int16_t>> tables_;  // by root switch index; empty until asked
  std::vector<int> queue_;
};

// Per switch, the least-hop candidates toward each destination switch, in
// IB port-number order (its ports whose peer switch is one hop closer):
// the candidates toward every host of that switch, found once per (switch,
// destination switch) rather than per host. Equal lists are stored once,
// so equal candidates have equal data pointers. Reset for each switch.
class CandidateCache {
 public:
  explicit CandidateCache(SwitchGraph& graph) : graph_(graph), list_of_(graph.size(), -1) {}
  void Reset(NodeId sw) {
    sw_ = graph_.index(sw);
    for (int leaf : touched_) list_of_[leaf] = -1;
    touched_.clear();
    lists_.clear();
    ports_.clear();
    by_first_.clear();
  }
  // The list of the current switch's candidates toward the hosts of
  // switch `leaf` != it (empty if it cannot reach it): equal lists have
  // equal ids.
  int Toward(NodeId leaf) {
    const int li = graph_.index(leaf);
    if (list_of_[li] < 0) {
      touched_.push_back(li);
      list_of_[li] = Intern(graph_.To(li));
    }
    return list_of_[li];
  }
  // A list's candidates; valid until the next Toward or Reset.
  std::span<const PortId> List(int id) const {
    const auto [start, count] = lists_[id];
    return std::span<const PortId>(ports_).subspan(start, count);
  }

 private:
  int Intern(const std::vector<int16_t>& hops) {
    scratch_.clear();
    const int here = hops[sw_];
    if (here >= 0) {
      for (const SwitchGraph::Link& l : graph_.Links(sw_)) {
        if (l.peer >= 0 && hops[l.peer] == here - 1) scratch_.push_back(l.port);
      }
    }
    // Most often the list equal to this one is the last one that began with
    // the same port (a switch's lists rarely share a first port otherwise).
    const uint64_t key = scratch_.empty() ? ~uint64_t{0} : static_cast<uint64_t>(scratch_[0]);
    const auto same = [&](int i) {
      const auto [start, count] = lists_[i];
      return count == scratch_.size() && std::equal(scratch_.begin(), scratch_.end(), ports_.begin() + start);
    };
    const auto it = by_first_.find(key);
    if (it != by_first_.end() && same(it->second)) return it->second;
    for (size_t i = 0; i < lists_.size(); ++i) {
      if (same(static_cast<int>(i))) return static_cast<int>(i);
    }
    lists_.push_back({static_cast<uint32_t>(ports_.size()), static_cast<uint32_t>(scratch_.size())});
    ports_.insert(ports_.end(), scratch_.begin(), scratch_.end());
    by_first_[key] = static_cast<int>(lists_.size()) - 1;
    return static_cast<int>(lists_.size()) - 1;
  }
  SwitchGraph& graph_;
  int sw_ = -1;
  std::vector<int> list_of_;  // by switch index of the destination switch: its list, -1 if not yet
  std::vector<int> touched_;
  std::vector<std::pair<uint32_t, uint32_t>> lists_;  // distinct lists: (offset, count) in ports_
  std::vector<PortId> ports_;
  std::vector<PortId> scratch_;
  std::unordered_map<uint64_t, int> by_first_;  // first port -> the last list that began with it
};

}  // namespace ib_engines
}  // namespace aifabric
