// Parsing and printing of quantities written with units in scenario files:
// sizes ("4KiB", "1MB", "512"), rates ("400Gbps", "100G"), times ("500ns",
// "1.5us", "0.001ms"). Pure functions; thread-safe.
//
// Sizes: B, KB/MB/GB/TB (powers of 1000), KiB/MiB/GiB/TiB (powers of 1024),
//        K/M/G/T (powers of 1024, as nccl-tests reads them); a bare number is bytes.
// Rates: bps, Kbps, Mbps, Gbps, Tbps (powers of 1000); "G"/"T" alone mean Gbps/Tbps.
// Times: ps, ns, us, ms, s; a bare number is rejected (the unit is required).
// Numbers may have a fraction ("1.5us"); the result must be a whole number of
// the internal unit (bytes, bits/s, ps) after rounding to nearest.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/data_rate.h"
#include "core/result.h"
#include "core/time.h"

namespace aifabric {

// Errors say what was expected, e.g. "expected a size like 4KiB or 1MB, got 'x'".
Result<uint64_t> ParseBytes(std::string_view text);
Result<DataRate> ParseRate(std::string_view text);
Result<Time> ParseTime(std::string_view text);

// Human-readable forms for printing ("4KiB", "400Gbps", "1.5us").
std::string FormatBytes(uint64_t bytes);
std::string FormatRate(DataRate rate);
std::string FormatTime(Time t);

}  // namespace aifabric
