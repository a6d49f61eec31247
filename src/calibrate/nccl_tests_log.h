// NcclTestsLog is one nccl-tests run (all_reduce_perf, all_gather_perf,
// reduce_scatter_perf, alltoall_perf, sendrecv_perf, broadcast_perf,
// reduce_perf) as the tools print it: the "# nThread ... nGpus ..." header,
// the "#  Rank  N Group G Pid P on HOST device D [0x..] NAME" lines (older
// versions: without "Group"), the result table with its out-of-place and
// in-place halves (columns read from the table's own header line, so the
// older layouts without a root column or with "error" for "#wrong" read
// too), the "# Avg bus bandwidth" footer, and NCCL_DEBUG=INFO lines where
// present: "NCCL version", "Using network X", "Channel 00/NN", and the
// tuner's choice per size ("N Bytes -> Algo A proto P", or "... count C
// ... algorithm NAME protocol NAME"). mpirun's "[1,0]<stdout>:" tags are
// stripped. Other lines (warnings, the shell's echo) are skipped.
//
// ParseNcclTestsLog is a pure function; thread-safe. Errors name
// origin:line and what was expected there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "workload/collective_op.h"

namespace aifabric {

// One "#  Rank ..." line.
struct NcclTestsRank {
  int32_t rank = 0;
  std::string host;
  int32_t device = 0;
  std::string gpu;  // "NVIDIA A100-SXM4-40GB"
};

struct NcclTestsHalf {
  double time_us = 0;
  double algbw_gb_per_s = 0;
  double busbw_gb_per_s = 0;
};

struct NcclTestsRow {
  int32_t line = 0;  // 1-based line in the log
  uint64_t bytes = 0;
  uint64_t count = 0;
  std::string type;   // "float", "bfloat16", ...
  std::string redop;  // "sum", "none"; "" where the layout has no redop column
  int32_t root = -1;  // -1 where the layout has no root column
  NcclTestsHalf out_of_place;
  std::optional<NcclTestsHalf> in_place;
  // NCCL's choice for this size, from NCCL_DEBUG=INFO lines (as NCCL names
  // them, lower-case: "ring", "tree", "nvls", ...; "ll", "ll128", "simple").
  std::string algorithm;
  std::string protocol;
};

struct NcclTestsLog {
  std::string origin;
  CollectiveOp op = CollectiveOp::kAllReduce;
  std::string op_from;       // how op was known: "given", "log text", "file name", "table"
  int32_t ranks = 0;         // rank lines, else inferred from busbw/algbw; 0 = unknown
  int32_t hosts = 0;         // distinct hosts of the rank lines; 0 = unknown
  std::vector<NcclTestsRank> rank_lines;
  int32_t gpus_per_process = 0;  // the header's nGpus; 0 = no header
  std::string nccl_version;      // "2.18.5+cuda12.2"; "" = not printed
  std::string network;           // "IB", "Socket", ...; "" = not printed
  int32_t channels = 0;          // from "Channel 00/NN"; 0 = not printed
  std::vector<NcclTestsRow> rows;
  std::optional<double> average_busbw_gb_per_s;
};

// The largest log a reader accepts (nccl-tests output with NCCL_DEBUG=INFO on
// thousands of ranks stays far below it).
inline constexpr uint64_t kMaxNcclTestsLogBytes = 64ull << 20;

// `op`, when given, wins; else the "<op>_perf" the log's text or its file
// name holds; else what the table says (redop, root, count against size,
// busbw/algbw), when that names one collective.
Result<NcclTestsLog> ParseNcclTestsLog(std::string_view text, const std::string& origin,
                                       std::optional<CollectiveOp> op = std::nullopt);
// Reads and parses a file of at most kMaxNcclTestsLogBytes: a CSV table of
// data/validation/'s format (a ".csv" name or its header line;
// calibrate/nccl_tests_table.h) or else a log.
Result<NcclTestsLog> ReadNcclTestsLog(const std::string& path, std::optional<CollectiveOp> op = std::nullopt);

// The rank count n from busbw/algbw = 2(n-1)/n (all_reduce) or (n-1)/n
// (all_gather, reduce_scatter, alltoall) on the row of the largest algbw,
// for a log without rank lines; 0 if the printed figures fit several n.
int32_t RanksFromBandwidths(const NcclTestsLog& log);

}  // namespace aifabric
