#include "core/text_file.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace aifabric {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string ByteCountText(uint64_t bytes) {
  if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

Result<std::string> ReadTextFile(const std::string& path, uint64_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot open file (" + std::strerror(errno) + ")"};
  const std::string too_large =
      path + ": larger than " + ByteCountText(max_bytes) + ", the most aifabric reads from one input file";
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return Error{path + ": is a folder, not a file"};
  std::string text;
  if (std::filesystem::is_regular_file(path, ec)) {
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && size > max_bytes) return Error{too_large};
    if (!ec) text.reserve(size);
  }
  // Chunks until end of file, so a pipe or a device is bounded too.
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    const auto got = static_cast<uint64_t>(in.gcount());
    if (text.size() + got > max_bytes) return Error{too_large};
    text.append(chunk, got);
  }
  if (in.bad()) return Error{path + ": read error (" + std::strerror(errno) + ")"};
  return text;
}

std::vector<TextLine> SplitLines(std::string_view text) {
  std::vector<TextLine> lines;
  int number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(TextLine{++number, line});
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::vector<std::string_view> SplitWhitespace(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

std::vector<std::string_view> SplitTrimmed(std::string_view line, char sep) {
  std::vector<std::string_view> fields;
  while (true) {
    const size_t end = line.find(sep);
    fields.push_back(Trim(line.substr(0, end)));
    if (end == std::string_view::npos) break;
    line.remove_prefix(end + 1);
  }
  return fields;
}

std::string FileLine(const std::string& origin, int line) {
  std::string prefix = origin;
  prefix += ':';
  prefix += std::to_string(line);
  prefix += ": ";
  return prefix;
}

// Built by appending: GCC 12 warns falsely (-Wrestrict, bug 105329) on
// "literal" + std::string.
std::string Quote(std::string_view text) {
  std::string quoted = "'";
  quoted.append(text);
  quoted += '\'';
  return quoted;
}

bool ParseInt64(std::string_view text, int64_t& out) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, out);
  return ec == std::errc() && ptr == end;
}

}  // namespace aifabric
