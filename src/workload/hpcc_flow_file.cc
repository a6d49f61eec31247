#include "workload/hpcc_flow_file.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include "core/text_file.h"
#include "workload/host_check.h"

namespace aifabric {
namespace {

constexpr const char* kLineFormat = "`src dst pg dport bytes start_s`";

template <typename T>
bool ParseInt(std::string_view token, T& out) {
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace

std::optional<Time> ParseSecondsExact(std::string_view text) {
  // Grammar: digits [ '.' digits ] [ ('e'|'E') ['+'|'-'] digits ], with at
  // least one mantissa digit. Value = mantissa_digits * 10^(exp - frac_len).
  std::string digits;
  int frac_len = 0;
  size_t i = 0;
  bool seen_digit = false;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    digits += text[i++];
    seen_digit = true;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      digits += text[i++];
      ++frac_len;
      seen_digit = true;
    }
  }
  if (!seen_digit) return std::nullopt;
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative = false;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
    size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      if (i - start > 6) return std::nullopt;  // absurd exponent
      exponent = exponent * 10 + (text[i++] - '0');
    }
    if (i == start) return std::nullopt;
    if (negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;

  // Drop leading zeros; the picosecond value is digits * 10^shift.
  size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Time::Zero();
  digits.erase(0, first);
  const int64_t shift = exponent - frac_len + 12;
  // The integer part of the result has `int_len` digits.
  const int64_t int_len = static_cast<int64_t>(digits.size()) + shift;
  if (int_len > 19) return std::nullopt;  // beyond int64 picoseconds
  unsigned __int128 value = 0;
  for (int64_t k = 0; k < int_len; ++k) {
    const int d = k < static_cast<int64_t>(digits.size()) ? digits[k] - '0' : 0;
    value = value * 10 + d;
  }
  // Round half up on the first dropped digit.
  if (int_len >= 0 && int_len < static_cast<int64_t>(digits.size()) && digits[int_len] >= '5') {
    ++value;
  }
  if (value > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max() - 1)) {
    return std::nullopt;  // Time::Infinite() is reserved
  }
  return Time::FromPs(static_cast<int64_t>(value));
}

Result<std::vector<FlowSpec>> ReadHpccFlowFile(const std::string& path,
                                               const Topology& topology) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Error{path + ": cannot open the HPCC flow file (" + std::strerror(errno) + ")"};
  }
  Result<std::string> text = ReadTextFile(path);
  if (!text) return text.error();
  return ParseHpccFlows(*text, path, topology);
}

Result<std::vector<FlowSpec>> ParseHpccFlows(std::string_view text, const std::string& origin,
                                             const Topology& topology) {
  std::vector<FlowSpec> flows;
  int64_t declared = -1;
  int declared_line = 0;
  int last_line = 0;  // the last non-blank line
  for (const auto& [line_no, line] : SplitLines(text)) {
    const std::vector<std::string_view> f = SplitWhitespace(line);
    if (f.empty()) continue;
    last_line = line_no;
    const std::string where = FileLine(origin, line_no);

    if (declared < 0) {
      if (f.size() != 1 || !ParseInt(f[0], declared) || declared < 0) {
        return Error{where + "expected the flow count (one integer >= 0) on the first line, got '" +
                     std::string(line) + "'"};
      }
      declared_line = line_no;
      flows.reserve(static_cast<size_t>(std::min<int64_t>(declared, 1 << 20)));
      continue;
    }
    if (static_cast<int64_t>(flows.size()) == declared) {
      return Error{where + "more flow lines than the " + std::to_string(declared) +
                   " declared on line " + std::to_string(declared_line)};
    }
    if (f.size() != 6) {
      return Error{where + "expected 6 fields " + kLineFormat + ", got " +
                   std::to_string(f.size())};
    }
    int64_t src = 0, dst = 0, pg = 0, dport = 0;
    uint64_t bytes = 0;
    if (!ParseInt(f[0], src)) {
      return Error{where + "src: expected a node id, got '" + std::string(f[0]) + "'"};
    }
    if (!ParseInt(f[1], dst)) {
      return Error{where + "dst: expected a node id, got '" + std::string(f[1]) + "'"};
    }
    if (!ParseInt(f[2], pg) || pg < 0 || pg > 7) {
      return Error{where + "pg: expected a priority group 0..7, got '" + std::string(f[2]) + "'"};
    }
    if (!ParseInt(f[3], dport) || dport < 0 || dport > 65535) {
      return Error{where + "dport: expected a port 0..65535, got '" + std::string(f[3]) + "'"};
    }
    if (!ParseInt(f[4], bytes) || bytes == 0) {
      return Error{where + "bytes: expected a size in bytes > 0, got '" + std::string(f[4]) + "'"};
    }
    const std::optional<Time> start = ParseSecondsExact(f[5]);
    if (!start) {
      return Error{where + "start_s: expected a start time in seconds >= 0 like 2.000001, got '" +
                   std::string(f[5]) + "'"};
    }
    if (auto problem = HostProblem(topology, src)) return Error{where + "src: " + *problem};
    if (auto problem = HostProblem(topology, dst)) return Error{where + "dst: " + *problem};
    if (src == dst) {
      return Error{where + "src and dst are the same node (" + std::to_string(src) + ")"};
    }
    FlowSpec flow;
    flow.src = static_cast<NodeId>(src);
    flow.dst = static_cast<NodeId>(dst);
    flow.priority = static_cast<uint8_t>(pg);
    flow.dport = static_cast<uint16_t>(dport);
    flow.bytes = bytes;
    flow.start = *start;
    flows.push_back(flow);
  }
  if (declared < 0) {
    return Error{origin + ": empty file; expected the flow count on the first line"};
  }
  if (static_cast<int64_t>(flows.size()) < declared) {
    return Error{FileLine(origin, last_line) + "expected " + std::to_string(declared) +
                 " flows (declared on line " + std::to_string(declared_line) + "), found " +
                 std::to_string(flows.size())};
  }
  return flows;
}

}  // namespace aifabric
