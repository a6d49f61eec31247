#include "core/peak_memory.h"

#include <sys/resource.h>

namespace aifabric {

double PeakMemoryMiB() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace aifabric
