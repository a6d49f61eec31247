#include "report/hpcc_fct.h"

#include <algorithm>
#include <vector>

namespace aifabric {

HpccPair HpccPairOf(const Topology& topology, NodeId src, NodeId dst, uint32_t payload_bytes,
                    uint32_t ack_wire_bytes) {
  // Breadth first from dst; parent_port[n] is n's port towards dst on the
  // first path found. Only switches are expanded, so no path crosses a host.
  std::vector<PortId> toward_dst(topology.num_nodes(), kNoPort);
  std::vector<char> seen(topology.num_nodes(), 0);
  std::vector<NodeId> queue{dst};
  seen[dst] = 1;
  for (size_t i = 0; i < queue.size() && !seen[src]; ++i) {
    for (PortId out : topology.node(queue[i]).ports) {
      const NodeId next = topology.port(out).peer;
      if (seen[next]) continue;
      seen[next] = 1;
      toward_dst[next] = topology.port(out).reverse();
      if (topology.node(next).kind == NodeKind::kSwitch) queue.push_back(next);
    }
  }
  HpccPair pair;
  if (!seen[src] || src == dst) return pair;
  pair.bottleneck_bps = UINT64_MAX;
  for (NodeId at = src; at != dst;) {
    const Port& port = topology.port(toward_dst[at]);
    Time hop = port.latency;
    const Node& peer = topology.node(port.peer);
    if (peer.kind == NodeKind::kSwitch) hop += topology.switch_specs()[peer.switch_spec].latency;
    const uint64_t bps = port.rate.bps();
    pair.delay += hop;
    pair.tx_delay_ns += static_cast<int64_t>(uint64_t{payload_bytes} * 8'000'000'000ull / bps);
    pair.bottleneck_bps = std::min(pair.bottleneck_bps, bps);
    // The ACK crosses the reverse port; its switch latency is the same node's.
    const Port& back = topology.port(port.reverse());
    pair.ack_return += back.rate.TransmitTime(ack_wire_bytes) + back.latency;
    if (topology.node(port.node).kind == NodeKind::kSwitch) {
      pair.ack_return += topology.switch_specs()[topology.node(port.node).switch_spec].latency;
    }
    ++pair.hops;
    at = port.peer;
  }
  return pair;
}

int64_t HpccBaseRttNs(const HpccPair& pair) { return pair.delay.ps() / 1000 * 2 + pair.tx_delay_ns; }

int64_t HpccStandaloneFctNs(const HpccPair& pair, uint64_t bytes, uint32_t payload_bytes, uint32_t header_bytes) {
  if (pair.bottleneck_bps == 0) return 0;  // no path
  const uint64_t packets = (bytes - 1) / payload_bytes + 1;
  const uint64_t total_bytes = bytes + packets * header_bytes;
  return HpccBaseRttNs(pair) + static_cast<int64_t>(total_bytes * 8'000'000'000ull / pair.bottleneck_bps);
}

}  // namespace aifabric
