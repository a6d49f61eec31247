// Small helpers for the line-oriented topology readers: reading a whole file
// and splitting text into numbered lines and fields. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace aifabric {

// The whole file; the error names the path and the OS reason.
Result<std::string> ReadTextFile(const std::string& path);

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

// Parses a whole base-10 integer ("-3" allowed); false on anything else.
bool ParseInt64(std::string_view text, int64_t& out);

}  // namespace aifabric
