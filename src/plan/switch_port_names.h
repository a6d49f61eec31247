// How the configuration files name a switch's or host's ports: by the
// port's position in its node's `ports` list (the order the topology gave
// its links). RoCEv2 switches: SONiC's lane-based names on 8-lane ports,
// "Ethernet" + 8 x position (Ethernet0, Ethernet8, ...); InfiniBand switches
// and every host: the port number 1 + position (IB port numbering, as the
// ibsim net file writes it: docs/infiniband.md). Stateless; thread-safe.
#pragma once

#include <string>

#include "packet/packet_config.h"

namespace aifabric {

inline constexpr int kSonicLanesPerPort = 8;

// "Ethernet<8 x position>".
inline std::string SonicPortName(size_t position) {
  return "Ethernet" + std::to_string(kSonicLanesPerPort * position);
}

// The port's name in cabling.csv: SonicPortName on a RoCEv2 switch, else
// the port number 1 + position.
inline std::string CablingPortName(FabricKind kind, bool is_switch, size_t position) {
  if (is_switch && kind == FabricKind::kRoce) return SonicPortName(position);
  return std::to_string(position + 1);
}

}  // namespace aifabric
