#include "packet/pfc_headroom.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>

namespace aifabric {

uint64_t PfcPeerResponseQuanta(DataRate rate) {
  const double g = rate.gbps();
  if (g >= 400) return 905;
  if (g >= 200) return 453;
  if (g >= 100) return 394;
  if (g >= 50) return 147;
  if (g >= 40) return 118;
  if (g >= 25) return 80;
  return 67;
}

uint64_t PfcHeadroomBytes(const Port& port, Time switch_latency, uint32_t max_wire_bytes) {
  const Time in_flight = port.latency * 2 + switch_latency + port.rate.TransmitTime(kPfcFrameWireBytes);
  const uint64_t response = PfcPeerResponseQuanta(port.rate) * 512 / 8;
  return port.rate.BytesIn(in_flight) + response + 2ull * max_wire_bytes;
}

LosslessBufferNeed SwitchLosslessBufferNeed(const Topology& topology, NodeId id, const PacketConfig& config) {
  const Node& node = topology.node(id);
  assert(node.kind == NodeKind::kSwitch);
  LosslessBufferNeed need;
  need.ports = static_cast<int>(node.ports.size());
  if (!config.pfc.enabled || config.kind == FabricKind::kIb) return need;
  need.lossless_priorities = std::popcount(static_cast<unsigned>(config.pfc.lossless_mask));
  if (need.lossless_priorities == 0) return need;
  const Time latency = topology.switch_specs()[node.switch_spec].latency;
  const uint32_t max_wire = config.mtu_bytes + config.wire_overhead_bytes;
  uint64_t first = 0;
  for (size_t i = 0; i < node.ports.size(); ++i) {
    const uint64_t h = PfcHeadroomBytes(topology.port(node.ports[i]), latency, max_wire);
    if (i == 0) first = h;
    if (h != first) need.uniform_headroom = false;
    need.max_port_headroom_bytes = std::max(need.max_port_headroom_bytes, h);
    need.headroom_bytes += h * static_cast<uint64_t>(need.lossless_priorities);
  }
  const double alpha = config.pfc.alpha;
  need.shared_bytes = static_cast<uint64_t>(std::ceil(
      ((1.0 + alpha) * static_cast<double>(need.max_port_headroom_bytes) + config.pfc.xon_offset_bytes) / alpha));
  return need;
}

}  // namespace aifabric
