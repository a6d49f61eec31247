#include "fabric/link_fault.h"

namespace aifabric {

const char* FaultKindName(FaultKind kind) {
  switch (kind) {
    case FaultKind::kLinkDown:
      return "link_down";
    case FaultKind::kLinkFlap:
      return "link_flap";
    case FaultKind::kSwitchDown:
      return "switch_down";
    case FaultKind::kNicPortDown:
      return "nic_port_down";
    case FaultKind::kGrayLink:
      return "gray_link";
    case FaultKind::kStraggler:
      return "straggler";
  }
  return "?";
}

}  // namespace aifabric
