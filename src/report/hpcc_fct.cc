#include "report/hpcc_fct.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace aifabric {

namespace {

// Breadth first from `root` through switches only, as HPCC's CalculateRoute:
// toward_root[n] is n's port towards root on the first path found.
// `stop` (if not kNoNode) ends the search once that node is reached.
void TreeTo(const Topology& topology, NodeId root, NodeId stop, std::vector<PortId>& toward_root) {
  toward_root.assign(topology.num_nodes(), kNoPort);
  std::vector<NodeId> queue{root};
  std::vector<char> seen(topology.num_nodes(), 0);
  seen[root] = 1;
  for (size_t i = 0; i < queue.size() && (stop == kNoNode || !seen[stop]); ++i) {
    for (PortId out : topology.node(queue[i]).ports) {
      const NodeId next = topology.port(out).peer;
      if (seen[next]) continue;
      seen[next] = 1;
      toward_root[next] = topology.port(out).reverse();
      if (topology.node(next).kind == NodeKind::kSwitch) queue.push_back(next);
    }
  }
}

void AddHop(const Topology& topology, const Port& port, uint32_t payload_bytes, uint32_t ack_wire_bytes,
            HpccPair& pair) {
  const Node& peer = topology.node(port.peer);
  pair.delay += port.latency;
  if (peer.kind == NodeKind::kSwitch) pair.delay += topology.switch_specs()[peer.switch_spec].latency;
  const uint64_t bps = port.rate.bps();
  pair.tx_delay_ns += static_cast<int64_t>(uint64_t{payload_bytes} * 8'000'000'000ull / bps);
  pair.bottleneck_bps = std::min(pair.bottleneck_bps, bps);
  // The ACK crosses the reverse port; the switch it leaves is this hop's sender.
  const Port& back = topology.port(port.reverse());
  pair.ack_return += back.rate.TransmitTime(ack_wire_bytes) + back.latency;
  const Node& from = topology.node(port.node);
  if (from.kind == NodeKind::kSwitch) pair.ack_return += topology.switch_specs()[from.switch_spec].latency;
  ++pair.hops;
}

// The pair from src along a tree rooted at `root`, then `last` (or none).
HpccPair Walk(const Topology& topology, const std::vector<PortId>& toward_root, NodeId src, NodeId root,
              PortId last, uint32_t payload_bytes, uint32_t ack_wire_bytes) {
  HpccPair pair;
  if (src == root || toward_root[src] == kNoPort) return pair;
  pair.bottleneck_bps = UINT64_MAX;
  for (NodeId at = src; at != root;) {
    const Port& port = topology.port(toward_root[at]);
    AddHop(topology, port, payload_bytes, ack_wire_bytes, pair);
    at = port.peer;
  }
  if (last != kNoPort) AddHop(topology, topology.port(last), payload_bytes, ack_wire_bytes, pair);
  return pair;
}

// A host with one cable to a switch: a search from it goes to that switch
// first and then on exactly as one from the switch, so the switch's tree
// serves every such host beneath it.
NodeId SoleSwitch(const Topology& topology, NodeId host) {
  const Node& n = topology.node(host);
  if (n.ports.size() != 1) return kNoNode;
  const NodeId peer = topology.port(n.ports[0]).peer;
  return topology.node(peer).kind == NodeKind::kSwitch ? peer : kNoNode;
}

}  // namespace

HpccPair HpccPairOf(const Topology& topology, NodeId src, NodeId dst, uint32_t payload_bytes,
                    uint32_t ack_wire_bytes) {
  std::vector<PortId> tree;
  TreeTo(topology, dst, src, tree);
  return Walk(topology, tree, src, dst, kNoPort, payload_bytes, ack_wire_bytes);
}

std::vector<HpccPair> HpccPairsOf(const Topology& topology, const std::vector<std::pair<NodeId, NodeId>>& pairs,
                                  uint32_t payload_bytes, uint32_t ack_wire_bytes) {
  std::vector<HpccPair> out(pairs.size());
  // Group the pairs by the root of their search: the destination's switch
  // when it has one cable, else the destination; one search per root.
  std::vector<std::pair<NodeId, size_t>> by_root;
  by_root.reserve(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const NodeId sw = SoleSwitch(topology, pairs[i].second);
    by_root.push_back({sw != kNoNode ? sw : pairs[i].second, i});
  }
  std::sort(by_root.begin(), by_root.end());
  std::vector<PortId> tree;
  for (size_t g = 0; g < by_root.size();) {
    const NodeId root = by_root[g].first;
    TreeTo(topology, root, kNoNode, tree);
    for (; g < by_root.size() && by_root[g].first == root; ++g) {
      const auto [src, dst] = pairs[by_root[g].second];
      if (root == dst) {
        out[by_root[g].second] = Walk(topology, tree, src, dst, kNoPort, payload_bytes, ack_wire_bytes);
      } else if (src == dst) {
        out[by_root[g].second] = HpccPair{};
      } else {
        // Into the switch on the tree, then its cable down to dst.
        const PortId down = topology.port(topology.node(dst).ports[0]).reverse();
        HpccPair p = Walk(topology, tree, src, root, down, payload_bytes, ack_wire_bytes);
        if (src == root) p = HpccPair{};  // a switch is no flow's source
        out[by_root[g].second] = p;
      }
    }
  }
  return out;
}

int64_t HpccBaseRttNs(const HpccPair& pair) { return pair.delay.ps() / 1000 * 2 + pair.tx_delay_ns; }

int64_t HpccStandaloneFctNs(const HpccPair& pair, uint64_t bytes, uint32_t payload_bytes, uint32_t header_bytes) {
  if (pair.bottleneck_bps == 0) return 0;  // no path
  const uint64_t packets = bytes == 0 ? 1 : (bytes - 1) / payload_bytes + 1;
  const uint64_t total_bytes = bytes + packets * header_bytes;
  // 128 bits: bytes x 8e9 passes 2^64 from about 2.3 GB.
  const unsigned __int128 wire_ns =
      static_cast<unsigned __int128>(total_bytes) * 8'000'000'000ull / pair.bottleneck_bps;
  return HpccBaseRttNs(pair) + static_cast<int64_t>(wire_ns);
}

}  // namespace aifabric
