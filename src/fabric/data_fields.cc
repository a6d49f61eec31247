#include "fabric/data_fields.h"

#include <cmath>
#include <cstdlib>

#include "core/units.h"

namespace aifabric {
namespace {

std::string RangeMessage(const std::string& field, const char* kind, const std::string& min, const std::string& max,
                         const std::string& text) {
  std::string what = field;
  what += ": expected ";
  what += kind;
  what += " in [";
  what += min;
  what += ", ";
  what += max;
  what += "], got '";
  what += text;
  what += "'";
  return what;
}

}  // namespace

DataFields::DataFields(YAML::Node node, std::string origin, std::string path)
    : node_(std::move(node)), origin_(std::move(origin)), path_(std::move(path)) {}

void DataFields::CheckKeys(std::initializer_list<const char*> known) {
  for (const auto& kv : node_) {
    const std::string key = kv.first.Scalar();
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (found) continue;
    std::string what = path_.empty() ? std::string("top level") : path_;
    what += ": unknown field '";
    what += key;
    what += "' (expected one of ";
    bool first = true;
    for (const char* k : known) {
      if (!first) what += ", ";
      what += k;
      first = false;
    }
    what += ")";
    Fail(kv.first, what);
    return;
  }
}

bool DataFields::Has(const char* key) const {
  const YAML::Node v = node_[key];
  return v && !v.IsNull();
}

std::string DataFields::Field(const char* key) const {
  std::string f = path_;
  if (!f.empty()) f += ".";
  f += key;
  return f;
}

void DataFields::Fail(const YAML::Node& at, const std::string& what) {
  if (error_) return;
  std::string message = origin_;
  message += ":";
  message += std::to_string(at.Mark().line + 1);
  message += ": ";
  message += what;
  error_ = Error{std::move(message)};
}

YAML::Node DataFields::Get(const char* key) {
  if (!ok()) return YAML::Node();
  YAML::Node v = node_[key];
  if (!v || v.IsNull()) {
    Fail(node_, Field(key) + ": required field is missing");
    return YAML::Node();
  }
  return v;
}

std::string DataFields::String(const char* key) {
  YAML::Node v = Get(key);
  if (!v) return "";
  if (!v.IsScalar() || v.Scalar().empty()) {
    Fail(v, Field(key) + ": expected a non-empty string");
    return "";
  }
  return v.Scalar();
}

int64_t DataFields::Int(const char* key, int64_t min, int64_t max) {
  YAML::Node v = Get(key);
  if (!v) return min;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < min || value > max) {
    Fail(v, RangeMessage(Field(key), "an integer", std::to_string(min), std::to_string(max), text));
    return min;
  }
  return value;
}

int64_t DataFields::OptionalInt(const char* key, int64_t min, int64_t max, int64_t fallback) {
  return Has(key) ? Int(key, min, max) : fallback;
}

double DataFields::Number(const char* key, double min, double max) {
  YAML::Node v = Get(key);
  if (!v) return min;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value < min || value > max) {
    Fail(v, RangeMessage(Field(key), "a number", std::to_string(min), std::to_string(max), text));
    return min;
  }
  return value;
}

bool DataFields::OptionalBool(const char* key, bool fallback) {
  if (!Has(key)) return fallback;
  YAML::Node v = Get(key);
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  if (text == "true") return true;
  if (text == "false") return false;
  Fail(v, Field(key) + ": expected true or false, got '" + text + "'");
  return fallback;
}

std::string DataFields::OptionalChoice(const char* key, std::initializer_list<const char*> choices,
                                            const char* fallback) {
  if (!Has(key)) return fallback;
  const std::string text = String(key);
  for (const char* c : choices) {
    if (text == c) return text;
  }
  std::string what = Field(key);
  what += ": expected one of ";
  bool first = true;
  for (const char* c : choices) {
    if (!first) what += ", ";
    what += c;
    first = false;
  }
  what += ", got '";
  what += text;
  what += "'";
  Fail(node_[key], what);
  return fallback;
}

double DataFields::ByteRate(const char* key, double unit_bytes) {
  YAML::Node v = Get(key);
  if (!v) return 0;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  const std::string unit = end ? std::string(end) : "";
  double factor = 0;
  if (unit == "GB/s") factor = 1e9;
  if (unit == "TB/s") factor = 1e12;
  if (text.empty() || end == text.c_str() || factor == 0 || !std::isfinite(number) || number <= 0) {
    Fail(v, Field(key) + ": expected a bandwidth like 450GB/s or 3.35TB/s, got '" + text + "'");
    return 0;
  }
  return number * factor / unit_bytes;
}

int DataFields::PositiveInt(const char* key) {
  YAML::Node v = Get(key);
  if (!v) return 0;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value <= 0 || value > 1000000) {
    Fail(v, Field(key) + ": expected a positive integer, got '" + text + "'");
    return 0;
  }
  return static_cast<int>(value);
}

double DataFields::PositiveNumber(const char* key) {
  YAML::Node v = Get(key);
  if (!v) return 0;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0) {
    Fail(v, Field(key) + ": expected a positive number, got '" + text + "'");
    return 0;
  }
  return value;
}

bool DataFields::Bool(const char* key) {
  YAML::Node v = Get(key);
  if (!v) return false;
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  if (text != "true" && text != "false") Fail(v, Field(key) + ": expected true or false, got '" + text + "'");
  return text == "true";
}

template <typename T, typename F>
T DataFields::Parsed(const char* key, F parse) {
  YAML::Node v = Get(key);
  if (!v) return T{};
  const std::string text = v.IsScalar() ? v.Scalar() : "";
  auto r = parse(text);
  if (!r.ok()) {
    Fail(v, Field(key) + ": " + r.error().message);
    return T{};
  }
  return *r;
}

DataRate DataFields::Rate(const char* key) {
  return Parsed<DataRate>(key, [](std::string_view t) { return ParseRate(t); });
}

Time DataFields::Duration(const char* key) {
  return Parsed<Time>(key, [](std::string_view t) { return ParseTime(t); });
}

uint64_t DataFields::Bytes(const char* key) {
  const uint64_t b = Parsed<uint64_t>(key, [](std::string_view t) { return ParseBytes(t); });
  if (ok() && b == 0) Fail(node_[key], Field(key) + ": must be > 0");
  return b;
}

YAML::Node DataFields::Map(const char* key) {
  YAML::Node v = Get(key);
  if (!v) return YAML::Node();
  if (!v.IsMap()) {
    Fail(v, Field(key) + ": expected a map of fields");
    return YAML::Node();
  }
  return v;
}

}  // namespace aifabric
