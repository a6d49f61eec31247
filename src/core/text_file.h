// Small helpers shared by the line-oriented readers (topology files, flow
// files, flow-size CDFs): reading a whole file (bounded), splitting text into numbered
// lines and fields, and naming a line or quoting a field in messages. Pure;
// thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace aifabric {

// The most any reader takes from one input file: 256 MiB, far above any
// scenario, topology, trace or log this project reads (the largest in
// tests and examples is a few MiB), and small enough that a device file or
// a mistaken path ends in a clear error instead of memory exhaustion.
inline constexpr uint64_t kMaxInputFileBytes = 256ull << 20;

// The whole file, at most `max_bytes` of it; the error names the path and
// the OS reason, or says the file is larger than the bound (a regular file
// by its size, before reading; a pipe or device such as /dev/zero once
// more than `max_bytes` came out of it). Every reader of user input reads
// through this.
Result<std::string> ReadTextFile(const std::string& path, uint64_t max_bytes = kMaxInputFileBytes);

// "N bytes" as messages about sizes show it: "256 MiB" when a whole number
// of MiB, else the byte count.
std::string ByteCountText(uint64_t bytes);

struct TextLine {
  int number = 0;          // 1-based
  std::string_view text;   // without the line break and a trailing '\r'
};

// Splits `text` into lines (a final line without '\n' counts). The views
// point into `text`.
std::vector<TextLine> SplitLines(std::string_view text);

// Splits on runs of spaces and tabs.
std::vector<std::string_view> SplitWhitespace(std::string_view line);

// Splits on `sep`, trimming spaces and tabs around each field.
std::vector<std::string_view> SplitTrimmed(std::string_view line, char sep);

// "origin:line: ", the prefix of a message about line `line` of `origin`.
std::string FileLine(const std::string& origin, int line);

// `text` between single quotes, as messages show what they read: 'x'.
// Nothing is escaped.
std::string Quote(std::string_view text);

// Parses a whole base-10 integer ("-3" allowed); false on anything else.
bool ParseInt64(std::string_view text, int64_t& out);

}  // namespace aifabric
