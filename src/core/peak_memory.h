// PeakMemoryMiB: the most resident memory this process has held so far
// (getrusage's ru_maxrss), in MiB; for the wall-time lines runs print.
#pragma once

namespace aifabric {

double PeakMemoryMiB();

}  // namespace aifabric
