#include "workload/collective_protocol.h"

#include <string>

namespace aifabric {

ProtocolSpec GetProtocolSpec(CollectiveProtocol protocol) {
  switch (protocol) {
    case CollectiveProtocol::kLl: return {16, 8, Time::FromNs(600), Time::FromNs(2700), Time::FromNs(6600)};
    case CollectiveProtocol::kLl128: return {128, 120, Time::FromNs(1900), Time::FromNs(4000), Time::FromUs(14)};
    case CollectiveProtocol::kSimple: break;
  }
  return {1, 1, Time::FromNs(3400), Time::FromUs(14), Time::FromNs(8400)};
}

uint64_t WireBytes(CollectiveProtocol protocol, uint64_t payload_bytes) {
  const ProtocolSpec spec = GetProtocolSpec(protocol);
  const uint64_t lines = (payload_bytes + spec.payload_per_line - 1) / spec.payload_per_line;
  return lines * spec.line_bytes;
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
