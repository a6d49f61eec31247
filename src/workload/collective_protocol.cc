#include "workload/collective_protocol.h"

#include <cmath>
#include <string>

#include "workload/training_calibration.h"

namespace aifabric {

ProtocolSpec GetProtocolSpec(CollectiveProtocol protocol) { return GetProtocolSpec(protocol, BuiltInCalibration()); }

ProtocolSpec GetProtocolSpec(CollectiveProtocol protocol, const CalibrationSpec& c) {
  // The latencies are the Ring rows of NCCL's tables in
  // data/calibration.yaml (columns LL, LL128, Simple).
  const size_t column = protocol == CollectiveProtocol::kLl ? 0 : protocol == CollectiveProtocol::kLl128 ? 1 : 2;
  auto us = [](double v) { return Time::FromPs(static_cast<int64_t>(v * 1e6 + 0.5)); };
  ProtocolSpec spec;
  spec.line_bytes = protocol == CollectiveProtocol::kLl ? 16 : protocol == CollectiveProtocol::kLl128 ? 128 : 1;
  spec.payload_per_line = protocol == CollectiveProtocol::kLl ? 8 : protocol == CollectiveProtocol::kLl128 ? 120 : 1;
  spec.step_latency = us(c.nccl_nvlink_us.ring[column]);
  spec.net_step_latency = us(c.nccl_net_us.ring[column]);
  spec.base_latency = us(c.nccl_base_us.ring[column]);
  spec.bus_efficiency = c.protocol_bus_efficiency[column];
  spec.nvls_tree_efficiency = c.nvls_tree_bus_efficiency;
  return spec;
}

uint64_t WireBytes(CollectiveProtocol protocol, uint64_t payload_bytes) {
  const ProtocolSpec spec = GetProtocolSpec(protocol);
  const uint64_t lines = (payload_bytes + spec.payload_per_line - 1) / spec.payload_per_line;
  return lines * spec.line_bytes;
}

uint64_t EffectiveWireBytes(CollectiveProtocol protocol, uint64_t payload_bytes, double efficiency) {
  const uint64_t wire = WireBytes(protocol, payload_bytes);
  if (efficiency == 1.0) return wire;
  return static_cast<uint64_t>(std::ceil(static_cast<double>(wire) / efficiency));
}

std::string_view CollectiveProtocolName(CollectiveProtocol protocol) {
  switch (protocol) {
    case CollectiveProtocol::kLl: return "ll";
    case CollectiveProtocol::kLl128: return "ll128";
    case CollectiveProtocol::kSimple: break;
  }
  return "simple";
}

Result<CollectiveProtocol> ParseCollectiveProtocol(std::string_view name) {
  for (CollectiveProtocol p :
       {CollectiveProtocol::kSimple, CollectiveProtocol::kLl, CollectiveProtocol::kLl128}) {
    if (CollectiveProtocolName(p) == name) return p;
  }
  std::string message = "unknown protocol '";
  message += name;
  message += "' (expected simple, ll or ll128)";
  return Error{message};
}

}  // namespace aifabric
