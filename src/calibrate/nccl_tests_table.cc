#include "calibrate/nccl_tests_table.h"

#include <charconv>
#include <cmath>

#include "core/text_file.h"

namespace aifabric {
namespace {

bool IsComment(std::string_view line) {
  const std::vector<std::string_view> t = SplitWhitespace(line);
  return t.empty() || t[0].starts_with("#");
}

// A non-negative finite number; an empty cell is "not published".
std::optional<double> Cell(std::string_view s) {
  double v = 0;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0) return std::nullopt;
  return v;
}

// "# system: 2 nodes x 8 GPUs ..." -> (2, 8); nothing if the line says otherwise.
std::optional<std::pair<int32_t, int32_t>> SystemLine(std::string_view line) {
  const std::vector<std::string_view> t = SplitWhitespace(line);
  if (t.size() < 6 || t[0] != "#" || t[1] != "system:") return std::nullopt;
  int64_t nodes = 0, gpus = 0;
  if (!ParseInt64(t[2], nodes) || (t[3] != "node" && t[3] != "nodes") || t[4] != "x" || !ParseInt64(t[5], gpus)) {
    return std::nullopt;
  }
  if (nodes < 1 || gpus < 1 || nodes * gpus > 100000) return std::nullopt;
  return std::pair{static_cast<int32_t>(nodes), static_cast<int32_t>(gpus)};
}

}  // namespace

bool IsNcclTestsTable(const std::string& path, std::string_view text) {
  if (path.ends_with(".csv")) return true;
  for (const TextLine& line : SplitLines(text)) {
    if (IsComment(line.text)) continue;
    return line.text == kNcclTestsTableHeader;
  }
  return false;
}

Result<NcclTestsLog> ParseNcclTestsTable(std::string_view text, const std::string& origin,
                                         std::optional<CollectiveOp> op) {
  if (text.size() > kMaxNcclTestsLogBytes) {
    return Error{origin + ": " + std::to_string(text.size()) + " bytes; a table may hold at most " +
                 std::to_string(kMaxNcclTestsLogBytes)};
  }
  NcclTestsLog log;
  log.origin = origin;
  log.op_from = "table";
  std::optional<std::pair<int32_t, int32_t>> system;
  int system_line = 0;
  std::optional<CollectiveOp> rows_op;
  bool header = false;
  int last = 0;
  for (const TextLine& line : SplitLines(text)) {
    last = line.number;
    const std::string at = FileLine(origin, line.number);
    if (IsComment(line.text)) {
      if (!header && !system) {
        system = SystemLine(line.text);
        system_line = line.number;
      }
      continue;
    }
    if (!header) {
      if (line.text != kNcclTestsTableHeader) {
        return Error{at + "expected the table header " + std::string(kNcclTestsTableHeader) +
                     " (data/validation/README.md), got " + Quote(line.text)};
      }
      header = true;
      continue;
    }
    const std::vector<std::string_view> f = SplitTrimmed(line.text, ',');
    if (f.size() != 5) {
      return Error{at + "expected 5 fields (" + std::string(kNcclTestsTableHeader) + "), got " +
                   std::to_string(f.size())};
    }
    Result<CollectiveOp> row_op = ParseCollectiveOp(f[0]);
    if (!row_op.ok()) return Error{at + "op: " + row_op.error().message};
    if (rows_op && *rows_op != *row_op) {
      return Error{at + "op: " + Quote(f[0]) + ", but the rows above are " +
                   std::string(CollectiveOpName(*rows_op)) + "; a table holds one collective"};
    }
    rows_op = *row_op;
    NcclTestsRow row;
    row.line = line.number;
    int64_t bytes = 0;
    if (!ParseInt64(f[1], bytes) || bytes <= 0) {
      return Error{at + "size_bytes: expected a whole number of bytes > 0, got " + Quote(f[1])};
    }
    row.bytes = static_cast<uint64_t>(bytes);
    const std::optional<double> time = Cell(f[2]);
    if (!time || *time <= 0) return Error{at + "time_us: expected a time > 0 (us), got " + Quote(f[2])};
    row.out_of_place.time_us = *time;
    const char* names[] = {"algbw_gbps", "busbw_gbps"};
    double* fields[] = {&row.out_of_place.algbw_gb_per_s, &row.out_of_place.busbw_gb_per_s};
    for (int k = 0; k < 2; ++k) {
      if (f[3 + k].empty()) continue;  // not published
      const std::optional<double> v = Cell(f[3 + k]);
      if (!v) return Error{at + names[k] + ": expected a non-negative number or nothing, got " + Quote(f[3 + k])};
      *fields[k] = *v;
    }
    if (log.rows.size() >= 100000) return Error{at + "more than 100000 rows"};
    log.rows.push_back(std::move(row));
  }
  if (!header) return Error{FileLine(origin, 1) + "no table header " + std::string(kNcclTestsTableHeader)};
  if (log.rows.empty()) return Error{FileLine(origin, last) + "the table has no rows"};
  if (op && *op != *rows_op) {
    return Error{origin + ": given as " + std::string(CollectiveOpName(*op)) + ", but its rows are " +
                 std::string(CollectiveOpName(*rows_op))};
  }
  log.op = *rows_op;
  log.ranks = RanksFromBandwidths(log);
  if (system) {
    const int32_t ranks = system->first * system->second;
    if (log.ranks != 0 && log.ranks != ranks) {
      return Error{FileLine(origin, system_line) + std::to_string(system->first) + " node(s) x " +
                   std::to_string(system->second) + " GPUs, but the rows' busbw/algbw say " +
                   std::to_string(log.ranks) + " ranks"};
    }
    log.hosts = system->first;
    log.ranks = ranks;
  }
  return log;
}

}  // namespace aifabric
