#include "chakra/chakra_trace_file.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace aifabric {
namespace fs = std::filesystem;

Result<ChakraRankTrace> ReadChakraTraceFile(const std::string& path, const ChakraFileLimits& limits) {
  Result<std::unique_ptr<ChakraTraceReader>> reader = ChakraTraceReader::Open(path, limits);
  if (!reader.ok()) return reader.error();
  ChakraRankTrace trace;
  trace.metadata = (*reader)->metadata();
  while (true) {
    ChakraProtoMsg::Node node;
    Result<bool> more = (*reader)->Next(node);
    if (!more.ok()) return more.error();
    if (!*more) break;
    trace.nodes.push_back(std::move(node));
  }
  return trace;
}

namespace {

void AppendFrame(const google::protobuf::MessageLite& message, std::string& out) {
  std::string bytes;
  message.SerializeToString(&bytes);
  uint64_t size = bytes.size();
  while (size >= 0x80) {
    out.push_back(static_cast<char>((size & 0x7f) | 0x80));
    size >>= 7;
  }
  out.push_back(static_cast<char>(size));
  out += bytes;
}

}  // namespace

Status WriteChakraTraceFile(const std::string& path, const ChakraRankTrace& trace) {
  std::string out;
  AppendFrame(trace.metadata, out);
  for (const ChakraProtoMsg::Node& node : trace.nodes) AppendFrame(node, out);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
    if (!file) return Error{path + ": cannot write"};
    file.write(out.data(), static_cast<std::streamsize>(out.size()));
    file.close();
    if (!file) {
      std::remove(tmp.c_str());
      return Error{path + ": cannot write"};
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    return Error{path + ": cannot write: " + ec.message()};
  }
  return Status::Ok();
}

std::string ChakraTracePath(const std::string& prefix, int rank) {
  std::string path = prefix;
  path += '.';
  path += std::to_string(rank);
  path += ".et";
  return path;
}

Status WriteChakraTraces(const std::string& prefix, const std::vector<ChakraRankTrace>& ranks) {
  for (size_t r = 0; r < ranks.size(); ++r) {
    Status s = WriteChakraTraceFile(ChakraTracePath(prefix, static_cast<int>(r)), ranks[r]);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Result<std::vector<std::string>> FindChakraTraceFiles(const std::string& prefix) {
  const fs::path p(prefix);
  const std::string base = p.filename().string();
  if (base.empty()) return Error{prefix + ": expected a trace prefix like dir/name (files dir/name.0.et, ...)"};
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) return Error{prefix + ": cannot list " + dir.string() + ": " + ec.message()};
  std::map<int, std::string> by_rank;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return Error{prefix + ": cannot list " + dir.string() + ": " + ec.message()};
    const std::string name = it->path().filename().string();
    const size_t head = base.size() + 1;
    if (name.size() <= head + 3 || name.compare(0, base.size(), base) != 0 || name[base.size()] != '.' ||
        name.compare(name.size() - 3, 3, ".et") != 0) {
      continue;
    }
    const std::string digits = name.substr(head, name.size() - 3 - head);
    if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
    if (digits.size() > 1 && digits[0] == '0') continue;
    by_rank[std::stoi(digits)] = (dir / name).string();
  }
  if (by_rank.empty()) return Error{prefix + ": no trace files " + ChakraTracePath(prefix, 0) + ", ..."};
  std::vector<std::string> files;
  for (const auto& [rank, path] : by_rank) {
    if (rank != static_cast<int>(files.size())) {
      std::string m = prefix;
      m += ": ";
      m += ChakraTracePath(prefix, static_cast<int>(files.size()));
      m += " is missing (rank ";
      m += std::to_string(rank);
      m += " has a file)";
      return Error{m};
    }
    files.push_back(path);
  }
  return files;
}

}  // namespace aifabric
