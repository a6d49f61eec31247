#include "core/units.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "core/text_file.h"

namespace aifabric {
namespace {

struct Split {
  double number = 0;
  std::string_view unit;
  bool ok = false;
};

// Splits "  1.5 us " into 1.5 and "us". Rejects signs, exponents, NaN.
Split SplitNumber(std::string_view text) {
  Split out;
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  size_t i = 0;
  bool digits = false, dot = false;
  while (i < text.size()) {
    char c = text[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits = true;
    } else if (c == '.' && !dot) {
      dot = true;
    } else {
      break;
    }
    ++i;
  }
  if (!digits) return out;
  out.number = std::strtod(std::string(text.substr(0, i)).c_str(), nullptr);
  std::string_view unit = text.substr(i);
  while (!unit.empty() && std::isspace(static_cast<unsigned char>(unit.front()))) unit.remove_prefix(1);
  out.unit = unit;
  out.ok = std::isfinite(out.number);
  return out;
}

// Multiplies and checks the result fits in int64/uint64 and is integral
// after rounding.
bool Scale(double number, double factor, double limit, double& out) {
  out = std::round(number * factor);
  return out >= 0 && out <= limit;
}

}  // namespace

Result<uint64_t> ParseBytes(std::string_view text) {
  const std::string expected = "expected a size like 4KiB, 1MB or 4096, got " + Quote(text);
  Split s = SplitNumber(text);
  if (!s.ok) return Error{expected};
  double factor;
  const std::string_view u = s.unit;
  if (u.empty() || u == "B") factor = 1;
  else if (u == "KB" || u == "kB") factor = 1e3;
  else if (u == "MB") factor = 1e6;
  else if (u == "GB") factor = 1e9;
  else if (u == "TB") factor = 1e12;
  else if (u == "KiB" || u == "K" || u == "k") factor = 1024.0;
  else if (u == "MiB" || u == "M") factor = 1024.0 * 1024;
  else if (u == "GiB" || u == "G") factor = 1024.0 * 1024 * 1024;
  else if (u == "TiB" || u == "T") factor = 1024.0 * 1024 * 1024 * 1024;
  else return Error{expected + " (unknown unit " + Quote(u) + ")"};
  double v;
  if (!Scale(s.number, factor, 1.8e19, v)) return Error{expected + " (too large)"};
  return static_cast<uint64_t>(v);
}

Result<DataRate> ParseRate(std::string_view text) {
  const std::string expected = "expected a rate like 400Gbps, 100Mbps or 450GB/s, got " + Quote(text);
  Split s = SplitNumber(text);
  if (!s.ok) return Error{expected};
  double factor;
  const std::string_view u = s.unit;
  if (u == "bps") factor = 1;
  else if (u == "Kbps" || u == "kbps") factor = 1e3;
  else if (u == "Mbps") factor = 1e6;
  else if (u == "Gbps" || u == "G") factor = 1e9;
  else if (u == "Tbps" || u == "T") factor = 1e12;
  // Bytes per second (powers of 1000), as GPU and NVLink figures are quoted.
  else if (u == "MB/s") factor = 8e6;
  else if (u == "GB/s") factor = 8e9;
  else if (u == "TB/s") factor = 8e12;
  else if (u.empty()) return Error{expected + " (the unit is required)"};
  else return Error{expected + " (unknown unit " + Quote(u) + ")"};
  double v;
  if (!Scale(s.number, factor, 1.8e19, v)) return Error{expected + " (too large)"};
  if (v <= 0) return Error{"expected a positive rate, got " + Quote(text)};
  return DataRate::BitsPerSecond(static_cast<uint64_t>(v));
}

Result<Time> ParseTime(std::string_view text) {
  const std::string expected = "expected a time like 500ns, 1.5us or 10ms, got " + Quote(text);
  Split s = SplitNumber(text);
  if (!s.ok) return Error{expected};
  double factor;
  const std::string_view u = s.unit;
  if (u == "ps") factor = 1;
  else if (u == "ns") factor = 1e3;
  else if (u == "us") factor = 1e6;
  else if (u == "ms") factor = 1e9;
  else if (u == "s") factor = 1e12;
  else if (u.empty()) return Error{expected + " (the unit is required)"};
  else return Error{expected + " (unknown unit " + Quote(u) + ")"};
  double v;
  if (!Scale(s.number, factor, 9.2e18, v)) return Error{expected + " (too large)"};
  return Time::FromPs(static_cast<int64_t>(v));
}

namespace {
// `v` to 6 significant digits, trailing zeros dropped: "400", "1.5".
std::string SixDigits(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}
}  // namespace

std::string FormatBytes(uint64_t bytes) {
  static const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) { v /= 1024; ++u; }
  return SixDigits(v) + kUnits[u];
}

std::string FormatRate(DataRate rate) {
  static const char* kUnits[] = {"bps", "Kbps", "Mbps", "Gbps", "Tbps"};
  double v = static_cast<double>(rate.bps());
  int u = 0;
  while (v >= 1000 && u < 4) { v /= 1000; ++u; }
  return SixDigits(v) + kUnits[u];
}

std::string FormatTime(Time t) {
  static const char* kUnits[] = {"ps", "ns", "us", "ms", "s"};
  double v = static_cast<double>(t.ps());
  int u = 0;
  while (std::fabs(v) >= 1000 && u < 4) { v /= 1000; ++u; }
  return SixDigits(v) + kUnits[u];
}

}  // namespace aifabric
