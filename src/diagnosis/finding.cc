#include "diagnosis/finding.h"

#include <iterator>

namespace aifabric {

int FindingKindRank(const std::string& kind) {
  static constexpr const char* kOrder[] = {kPfcDeadlockCycle, kStraggler,     kGrayLink,
                                           kIncast,           kOversubscribedUplink,
                                           kEcmpCollision,    kPfcPauseRoot,  kSaturatedLink,
                                           kPfcPause,         kDrops};
  for (size_t i = 0; i < std::size(kOrder); ++i) {
    if (kind == kOrder[i]) return static_cast<int>(i);
  }
  return static_cast<int>(std::size(kOrder));
}

}  // namespace aifabric
