#include "fabric/host_distance.h"

#include <deque>

namespace aifabric {

std::vector<int> HostDistances(const Topology& topology) {
  std::vector<int> distance(topology.num_nodes(), -1);
  std::deque<NodeId> queue;
  for (NodeId h : topology.hosts()) {
    distance[h] = 0;
    queue.push_back(h);
  }
  while (!queue.empty()) {
    const NodeId n = queue.front();
    queue.pop_front();
    for (PortId p : topology.node(n).ports) {
      const NodeId peer = topology.port(p).peer;
      if (distance[peer] < 0) {
        distance[peer] = distance[n] + 1;
        queue.push_back(peer);
      }
    }
  }
  return distance;
}

void SetTiersFromHostDistance(Topology& topology) {
  const std::vector<int> distance = HostDistances(topology);
  for (NodeId sw : topology.switches()) topology.MarkSwitch(sw, distance[sw], topology.node(sw).switch_spec);
}

}  // namespace aifabric
