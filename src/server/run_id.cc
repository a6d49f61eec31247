#include "server/run_id.h"

#include <fmt/format.h>

namespace aifabric {

std::string RunIdGenerator::Next(int64_t now_ms) {
  std::lock_guard lock(mutex_);
  last_ms_ = now_ms > last_ms_ ? now_ms : last_ms_ + 1;
  const uint32_t suffix = static_cast<uint32_t>(random_());
  return fmt::format("{:012x}-{:08x}", static_cast<uint64_t>(last_ms_), suffix);
}

}  // namespace aifabric
