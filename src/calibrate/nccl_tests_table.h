// ParseNcclTestsTable reads a published nccl-tests result kept as a CSV
// table (the format of data/validation/, its README): `#` comment lines
// (system, command, source), then the header
//   op,size_bytes,time_us,algbw_gbps,busbw_gbps
// and one row per size, the out-of-place columns as the source printed
// them. It gives the NcclTestsLog a log of the same run would give, so
// `aifabric calibrate` fits a table as it fits a log: the op from the rows
// (one collective per table), the rank count from busbw/algbw as for a log
// without rank lines, and the hosts and ranks from a "# system: N node(s)
// x G GPUs" comment where the file has one. No in-place half and no
// NCCL_DEBUG choices: a table has neither.
//
// Pure function; thread-safe. Errors name origin:line and the field.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "calibrate/nccl_tests_log.h"
#include "core/result.h"
#include "workload/collective_op.h"

namespace aifabric {

// The header line a table starts its rows with.
inline constexpr std::string_view kNcclTestsTableHeader = "op,size_bytes,time_us,algbw_gbps,busbw_gbps";

// `op`, when given, must be the rows' op.
Result<NcclTestsLog> ParseNcclTestsTable(std::string_view text, const std::string& origin,
                                         std::optional<CollectiveOp> op = std::nullopt);

// True if `path` ends in ".csv" or the first line of `text` that is not a
// comment or blank is the table header: what ReadNcclTestsLog reads as a
// table rather than as a log.
bool IsNcclTestsTable(const std::string& path, std::string_view text);

}  // namespace aifabric
