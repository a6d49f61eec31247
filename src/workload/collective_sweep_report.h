// The nccl-tests result table and JSON for a simulated sweep: one row per
// size with out-of-place and in-place halves (time, algbw, busbw, #wrong),
// header and footer lines starting with '#', the closing "Out of bounds
// values" and "Avg bus bandwidth" lines, formatted as nccl-tests 2.17 prints
// them (src/util.cu), so scripts that parse nccl-tests output read ours.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/time.h"
#include "workload/collective_op.h"
#include "workload/collective_sweep.h"

namespace aifabric {

struct SweepHalf {
  double time_us = 0;
  Bandwidth bandwidth;
  bool wrong_reported = true;  // false: nccl-tests prints N/A (no data check)
};

struct SweepRow {
  uint64_t bytes = 0;   // size column
  uint64_t count = 0;   // count column (elements)
  std::string type = "float";
  std::string redop;
  int32_t root = -1;
  SweepHalf out_of_place;
  SweepHalf in_place;
};

// A row for `requested_bytes` (-b/-e sizes) with the simulated times.
// With data_check, #wrong is 0 (the simulator moves no data to check), except
// the in-place halves of alltoall and sendrecv, which nccl-tests never checks
// (N/A); without it every #wrong is N/A, as nccl-tests -c 0 prints.
SweepRow MakeSweepRow(CollectiveOp op, int32_t ranks, uint64_t requested_bytes, int32_t root,
                      Time out_of_place, Time in_place, bool data_check);

// nccl-tests' number format for a field of `width` characters: two
// decimals while they fit, then one, then none, then exponent notation.
std::string FormatNcclTestsNumber(double value, int width);

// The "#" line and the three header lines above the rows.
std::string FormatSweepHeader();
// One row, with its newline.
std::string FormatSweepRow(const SweepRow& row);
// The mean busbw over every half of every row (nccl-tests' average).
double AverageBusBandwidth(const std::vector<SweepRow>& rows);
// The closing lines; `program` as nccl-tests names itself ("all_reduce_perf").
std::string FormatSweepFooter(double average_bus_gb_per_s, std::string_view program);
// Header, rows and footer.
std::string FormatSweepTable(const std::vector<SweepRow>& rows, std::string_view program);

// nccl-tests' JSON (-J) layout: "config", "results" (per row: size, count,
// type, redop, root — a 6-wide string, as nccl-tests writes it —
// out_of_place/in_place {time, alg_bw, bus_bw, nwrong}), "out_of_bounds",
// "average_bus_bandwidth"; plus an "aifabric" object the caller fills.
nlohmann::json SweepJson(const std::vector<SweepRow>& rows, const SizeSweep& sweep, int32_t ranks,
                         nlohmann::json aifabric);

}  // namespace aifabric
