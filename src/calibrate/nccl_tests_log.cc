#include "calibrate/nccl_tests_log.h"

#include <cctype>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "calibrate/nccl_tests_table.h"
#include "core/text_file.h"

namespace aifabric {
namespace {

std::vector<std::string> Tokens(std::string_view line) {
  std::vector<std::string> out;
  std::istringstream in{std::string(line)};
  for (std::string t; in >> t;) out.push_back(t);
  return out;
}

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

std::optional<double> Number(const std::string& s) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<int64_t> Integer(const std::string& s) {
  if (s.empty()) return std::nullopt;
  const bool negative = s[0] == '-';
  if (!AllDigits(negative ? std::string_view(s).substr(1) : std::string_view(s)) || s.size() > 19) return std::nullopt;
  return std::strtoll(s.c_str(), nullptr, 10);
}

// mpirun --tag-output's "[1,0]<stdout>:" and srun --label's "[0] " ahead of a line.
std::string_view StripTag(std::string_view line) {
  if (line.empty() || line[0] != '[') return line;
  size_t i = 1;
  while (i < line.size() && (std::isdigit(static_cast<unsigned char>(line[i])) || line[i] == ',')) ++i;
  if (i == 1 || i >= line.size() || line[i] != ']') return line;
  std::string_view rest = line.substr(i + 1);
  for (std::string_view stream : {"<stdout>:", "<stderr>:"}) {
    if (rest.starts_with(stream)) return rest.substr(stream.size());
  }
  if (rest.starts_with(" ")) return rest.substr(1);
  return line;
}

// The table's columns, from its header line ("#  size  count  type  redop
// root  time  algbw  busbw  #wrong  time ..."); the second time/algbw/busbw/
// wrong group is the in-place half.
struct Columns {
  int size = -1, count = -1, type = -1, redop = -1, root = -1;
  int time[2] = {-1, -1}, algbw[2] = {-1, -1}, busbw[2] = {-1, -1};
  int total = 0;
};

std::optional<Columns> ReadColumns(const std::vector<std::string>& t) {
  Columns c;
  int half = -1;
  for (size_t i = 1; i < t.size(); ++i) {  // t[0] is "#"
    const int k = static_cast<int>(i) - 1;
    const std::string& n = t[i];
    if (n == "size" || n == "bytes") c.size = k;
    else if (n == "count" || n == "N") c.count = k;
    else if (n == "type") c.type = k;
    else if (n == "redop" || n == "op") c.redop = k;
    else if (n == "root") c.root = k;
    else if (n == "time") {
      if (++half > 1) return std::nullopt;
      c.time[half] = k;
    } else if (n == "algbw" && half >= 0) c.algbw[half] = k;
    else if (n == "busbw" && half >= 0) c.busbw[half] = k;
    else if (n != "#wrong" && n != "error" && n != "res" && n != "wrong") return std::nullopt;
    c.total = k + 1;
  }
  if (c.size < 0 || c.count < 0 || c.time[0] < 0 || c.algbw[0] < 0 || c.busbw[0] < 0) return std::nullopt;
  return c;
}

bool IsColumnHeader(const std::vector<std::string>& t) {
  if (t.size() < 5 || t[0] != "#") return false;
  bool size = false, time = false, algbw = false;
  for (const std::string& s : t) {
    size |= s == "size" || s == "bytes";
    time |= s == "time";
    algbw |= s == "algbw";
  }
  return size && time && algbw;
}

// "#  Rank  0 Group  0 Pid 1234 on HOST device  0 [0x0f] NVIDIA A100-SXM4-40GB"
// or, before nccl-tests 2.10, without "Group  0".
std::optional<NcclTestsRank> ReadRankLine(const std::vector<std::string>& t) {
  if (t.size() < 9 || t[0] != "#" || t[1] != "Rank") return std::nullopt;
  size_t i = 3;
  if (t[i] == "Group") i += 2;
  if (i + 6 > t.size() || t[i] != "Pid" || t[i + 2] != "on" || t[i + 4] != "device") return std::nullopt;
  const std::optional<int64_t> rank = Integer(t[2]), device = Integer(t[i + 5]);
  if (!rank || !device) return std::nullopt;
  NcclTestsRank r;
  r.rank = static_cast<int32_t>(*rank);
  r.host = t[i + 3];
  r.device = static_cast<int32_t>(*device);
  size_t name = i + 6;
  if (name < t.size() && t[name].starts_with("[")) ++name;
  for (; name < t.size(); ++name) r.gpu += (r.gpu.empty() ? "" : " ") + t[name];
  return r;
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// NCCL's algorithm and protocol indices (src/include/device.h: NCCL_ALGO_*, NCCL_PROTO_*).
std::string AlgorithmName(int64_t i) {
  static const char* const kNames[] = {"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"};
  return i >= 0 && i < 7 ? kNames[i] : "";
}
std::string ProtocolName(int64_t i) {
  static const char* const kNames[] = {"ll", "ll128", "simple"};
  return i >= 0 && i < 3 ? kNames[i] : "";
}

struct Choice {
  std::string algorithm, protocol;
};

// What an NCCL INFO line tells: version, network, channels, a size's choice.
struct InfoFacts {
  std::vector<std::pair<uint64_t, Choice>> by_bytes;  // "N Bytes -> Algo A proto P"
  std::vector<std::pair<uint64_t, Choice>> by_count;  // "count C ... algorithm X protocol Y"
};

void ReadInfoLine(const std::vector<std::string>& t, NcclTestsLog& log, InfoFacts& facts) {
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == "Using" && i + 2 < t.size() && t[i + 1] == "network") log.network = t[i + 2];
    if (t[i] == "Channel" && i + 1 < t.size()) {
      const std::string& c = t[i + 1];
      const size_t slash = c.find('/');
      if (slash != std::string::npos) {
        if (std::optional<int64_t> n = Integer(c.substr(slash + 1)); n && *n > log.channels && *n <= 64) {
          log.channels = static_cast<int32_t>(*n);
        }
      }
    }
    if (t[i] == "Bytes" && i >= 1 && i + 5 < t.size() && t[i + 1] == "->" && t[i + 2] == "Algo" &&
        t[i + 4] == "proto") {
      const std::optional<int64_t> bytes = Integer(t[i - 1]), algo = Integer(t[i + 3]), proto = Integer(t[i + 5]);
      if (bytes && algo && proto && *bytes >= 0) {
        facts.by_bytes.push_back({static_cast<uint64_t>(*bytes), Choice{AlgorithmName(*algo), ProtocolName(*proto)}});
      }
    }
  }
  std::optional<int64_t> count;
  Choice choice;
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    if (t[i] == "count") count = Integer(t[i + 1]);
    if (t[i] == "algorithm") choice.algorithm = Lower(t[i + 1]);
    if (t[i] == "protocol") choice.protocol = Lower(t[i + 1]);
  }
  if (count && *count >= 0 && !choice.algorithm.empty() && !choice.protocol.empty()) {
    facts.by_count.push_back({static_cast<uint64_t>(*count), choice});
  }
}

std::string Where(const std::string& origin, int line) { return origin + ":" + std::to_string(line) + ": "; }

Result<NcclTestsRow> ReadRow(const std::vector<std::string>& t, const Columns& c, const std::string& origin,
                             int line) {
  if (static_cast<int>(t.size()) != c.total) {
    return Error{Where(origin, line) + "expected " + std::to_string(c.total) +
                 " fields as the table header names them, got " + std::to_string(t.size())};
  }
  NcclTestsRow row;
  row.line = line;
  const std::optional<int64_t> size = Integer(t[c.size]), count = Integer(t[c.count]);
  if (!size || *size < 0) return Error{Where(origin, line) + "size: expected a whole number of bytes, got '" + t[c.size] + "'"};
  if (!count || *count < 0) return Error{Where(origin, line) + "count: expected a whole number, got '" + t[c.count] + "'"};
  row.bytes = static_cast<uint64_t>(*size);
  row.count = static_cast<uint64_t>(*count);
  if (c.type >= 0) row.type = t[c.type];
  if (c.redop >= 0) row.redop = t[c.redop];
  if (c.root >= 0) {
    const std::optional<int64_t> root = Integer(t[c.root]);
    if (!root || *root < -1) return Error{Where(origin, line) + "root: expected -1 or a rank, got '" + t[c.root] + "'"};
    row.root = static_cast<int32_t>(*root);
  }
  for (int h = 0; h < 2; ++h) {
    if (c.time[h] < 0) continue;
    NcclTestsHalf half;
    const char* names[] = {"time", "algbw", "busbw"};
    const int cols[] = {c.time[h], c.algbw[h], c.busbw[h]};
    double* fields[] = {&half.time_us, &half.algbw_gb_per_s, &half.busbw_gb_per_s};
    for (int f = 0; f < 3; ++f) {
      const std::optional<double> v = cols[f] >= 0 ? Number(t[cols[f]]) : std::optional<double>(0.0);
      if (!v || *v < 0) {
        return Error{Where(origin, line) + (h == 0 ? "out-of-place " : "in-place ") + names[f] +
                     ": expected a non-negative number, got '" + t[cols[f]] + "'"};
      }
      *fields[f] = *v;
    }
    if (h == 0) row.out_of_place = half;
    else row.in_place = half;
  }
  if (row.bytes > 0 && row.out_of_place.time_us <= 0) {
    return Error{Where(origin, line) + "out-of-place time: expected > 0 us for " + t[c.size] + " bytes"};
  }
  return row;
}

// The "<op>_perf" a text names, if exactly one.
std::optional<CollectiveOp> OpNamedIn(std::string_view text) {
  std::optional<CollectiveOp> found;
  for (CollectiveOp op : {CollectiveOp::kAllReduce, CollectiveOp::kAllGather, CollectiveOp::kReduceScatter,
                          CollectiveOp::kAllToAll, CollectiveOp::kBroadcast, CollectiveOp::kReduce,
                          CollectiveOp::kSendRecv}) {
    const std::string name = std::string(CollectiveOpName(op)) + "_perf";
    size_t at = text.find(name);
    // "reduce_perf" is inside "all_reduce_perf": require no letter or '_' before.
    while (at != std::string_view::npos && at > 0 && (std::isalpha(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) {
      at = text.find(name, at + 1);
    }
    if (at == std::string_view::npos) continue;
    if (found && *found != op) return std::nullopt;
    found = op;
  }
  return found;
}

// What the table alone says, where only one collective prints it so.
std::optional<CollectiveOp> OpFromTable(const NcclTestsLog& log) {
  const NcclTestsRow* r = nullptr;
  for (const NcclTestsRow& row : log.rows) {
    if (row.bytes > 0 && row.count > 0 && (!r || row.out_of_place.algbw_gb_per_s > r->out_of_place.algbw_gb_per_s)) r = &row;
  }
  if (!r || r->redop.empty()) return std::nullopt;
  if (r->root >= 0) return r->redop == "none" ? CollectiveOp::kBroadcast : CollectiveOp::kReduce;
  if (r->redop == "none") return std::nullopt;  // all_gather or alltoall
  const double factor = r->out_of_place.algbw_gb_per_s > 0.5
                            ? r->out_of_place.busbw_gb_per_s / r->out_of_place.algbw_gb_per_s
                            : 0;
  const bool whole_buffer = r->bytes % r->count == 0 && r->bytes / r->count <= 8;
  if (!whole_buffer) return CollectiveOp::kReduceScatter;  // count is one rank's share
  if (factor > 1.05) return CollectiveOp::kAllReduce;      // 2(n-1)/n > 1 from n = 3
  return std::nullopt;                                      // all_reduce on 2 ranks or sendrecv
}

}  // namespace

int32_t RanksFromBandwidths(const NcclTestsLog& log) {
  const NcclTestsRow* r = nullptr;
  for (const NcclTestsRow& row : log.rows) {
    if (!r || row.out_of_place.algbw_gb_per_s > r->out_of_place.algbw_gb_per_s) r = &row;
  }
  if (!r || r->out_of_place.algbw_gb_per_s < 1) return 0;
  const double f = r->out_of_place.busbw_gb_per_s / r->out_of_place.algbw_gb_per_s;
  double n = 0;
  if (log.op == CollectiveOp::kAllReduce && f < 1.999) n = 2 / (2 - f);
  if ((log.op == CollectiveOp::kAllGather || log.op == CollectiveOp::kReduceScatter ||
       log.op == CollectiveOp::kAllToAll) && f < 0.999) {
    n = 1 / (1 - f);
  }
  const double whole = std::round(n);
  if (whole < 2 || whole > 100000) return 0;
  // The printed figures have two decimals (each off by up to 0.005): accept
  // n only if no neighbour's factor also rounds to them.
  auto fits = [&](double m) {
    const double expected = log.op == CollectiveOp::kAllReduce ? 2 * (m - 1) / m : (m - 1) / m;
    return std::fabs(expected * r->out_of_place.algbw_gb_per_s - r->out_of_place.busbw_gb_per_s) <= 0.015;
  };
  int matches = 0;
  for (double m = std::max(2.0, whole - 3); m <= whole + 3; ++m) matches += fits(m) ? 1 : 0;
  return matches == 1 && fits(whole) ? static_cast<int32_t>(whole) : 0;
}

Result<NcclTestsLog> ParseNcclTestsLog(std::string_view text, const std::string& origin,
                                       std::optional<CollectiveOp> op) {
  if (text.size() > kMaxNcclTestsLogBytes) {
    return Error{origin + ": " + std::to_string(text.size()) + " bytes; a log may hold at most " +
                 std::to_string(kMaxNcclTestsLogBytes)};
  }
  NcclTestsLog log;
  log.origin = origin;
  InfoFacts facts;
  std::optional<Columns> columns;
  int line_no = 0;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view raw = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    const std::string_view line = StripTag(raw);
    const std::vector<std::string> t = Tokens(line);
    if (t.empty()) {
      if (end == text.size()) break;
      continue;
    }
    if (t[0] == "#" || t[0].starts_with("#")) {
      if (IsColumnHeader(t)) {
        columns = ReadColumns(t);
        if (!columns) return Error{Where(origin, line_no) + "a result table header with columns this reader does not know"};
      } else if (std::optional<NcclTestsRank> rank = ReadRankLine(t)) {
        log.rank_lines.push_back(*rank);
      } else if (t.size() >= 4 && t[1] == "nThread") {
        for (size_t i = 1; i + 1 < t.size(); ++i) {
          if (t[i] == "nGpus") {
            if (std::optional<int64_t> g = Integer(t[i + 1]); g && *g > 0 && *g < 100000) log.gpus_per_process = static_cast<int32_t>(*g);
          }
        }
      } else if (t.size() >= 5 && t[1] == "Avg" && t[2] == "bus" && t[3] == "bandwidth") {
        if (std::optional<double> v = Number(t.back())) log.average_busbw_gb_per_s = *v;
      }
    } else if (line.find("NCCL INFO") != std::string_view::npos) {
      ReadInfoLine(t, log, facts);
    } else if (t.size() >= 3 && t[0] == "NCCL" && t[1] == "version") {
      log.nccl_version = t[2];
    } else if (columns && AllDigits(t[0])) {
      if (log.rows.size() >= 100000) return Error{Where(origin, line_no) + "more than 100000 rows"};
      Result<NcclTestsRow> row = ReadRow(t, *columns, origin, line_no);
      if (!row.ok()) return row.error();
      log.rows.push_back(std::move(row).value());
    }
    if (end == text.size()) break;
  }
  if (!columns) {
    return Error{origin + ":1: no nccl-tests result table (its '#  size  count  type ... time  algbw  busbw' header line)"};
  }
  if (log.rows.empty()) return Error{origin + ":" + std::to_string(line_no) + ": the result table has no rows"};

  std::string file_name = std::filesystem::path(origin).filename().string();
  if (op) {
    log.op = *op;
    log.op_from = "given";
  } else if (std::optional<CollectiveOp> named = OpNamedIn(text)) {
    log.op = *named;
    log.op_from = "log text";
  } else if (std::optional<CollectiveOp> in_name = OpNamedIn(file_name)) {
    log.op = *in_name;
    log.op_from = "file name";
  } else if (std::optional<CollectiveOp> table = OpFromTable(log)) {
    log.op = *table;
    log.op_from = "table";
  } else {
    return Error{origin + ": cannot tell which collective this log measured; name the file after its tool "
                          "(e.g. all_gather_perf.log) or write OP=FILE (e.g. alltoall=" + file_name + ")"};
  }

  std::set<int32_t> ranks;
  std::set<std::string> hosts;
  for (const NcclTestsRank& r : log.rank_lines) {
    ranks.insert(r.rank);
    hosts.insert(r.host);
  }
  log.ranks = static_cast<int32_t>(ranks.size());
  log.hosts = static_cast<int32_t>(hosts.size());
  if (log.ranks == 0) log.ranks = RanksFromBandwidths(log);

  for (NcclTestsRow& row : log.rows) {
    for (const auto& [bytes, choice] : facts.by_bytes) {
      if (bytes == row.bytes) {
        row.algorithm = choice.algorithm;
        row.protocol = choice.protocol;
      }
    }
    for (const auto& [count, choice] : facts.by_count) {
      if (count == row.count && row.algorithm.empty()) {
        row.algorithm = choice.algorithm;
        row.protocol = choice.protocol;
      }
    }
  }
  return log;
}

Result<NcclTestsLog> ReadNcclTestsLog(const std::string& path, std::optional<CollectiveOp> op) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return Error{path + ": cannot read (" + ec.message() + ")"};
  if (size > kMaxNcclTestsLogBytes) {
    return Error{path + ": " + std::to_string(size) + " bytes; a log may hold at most " +
                 std::to_string(kMaxNcclTestsLogBytes)};
  }
  Result<std::string> text = ReadTextFile(path, kMaxNcclTestsLogBytes);
  if (!text.ok()) return text.error();
  if (IsNcclTestsTable(path, *text)) return ParseNcclTestsTable(*text, path, op);
  return ParseNcclTestsLog(*text, path, op);
}

}  // namespace aifabric
