#include "scenario/yaml_reader.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <set>

#include "core/units.h"

namespace aifabric {
namespace {

// Parses all of `text` as T with std::from_chars.
template <typename T>
std::optional<T> ParseWhole(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

bool IsScalar(Diagnostics& d, const YAML::Node& node, const std::string& path, const std::string& expected) {
  if (node.IsScalar()) return true;
  d.Fail(node, path, "expected " + expected + ", got " + Describe(node));
  return false;
}

}  // namespace

Diagnostics::Diagnostics(std::string origin, std::vector<std::string> set_paths)
    : origin_(std::move(origin)), set_paths_(std::move(set_paths)) {}

bool Diagnostics::FromSet(const std::string& path) const {
  for (const std::string& p : set_paths_) {
    if (path == p || (path.size() > p.size() && path.compare(0, p.size(), p) == 0 && path[p.size()] == '.')) {
      return true;
    }
  }
  return false;
}

void Diagnostics::Fail(const YAML::Node& at, const std::string& path, const std::string& what) {
  if (first_) return;
  const std::string field = path.empty() ? "" : path + ": ";
  if (!path.empty() && FromSet(path)) {
    first_ = Error{"--set " + field + what};
    return;
  }
  YAML::Mark mark = at.IsDefined() ? at.Mark() : YAML::Mark::null_mark();
  if (mark.is_null()) {
    first_ = Error{origin_ + ": " + field + what};
  } else {
    first_ = Error{origin_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) +
                   ": " + field + what};
  }
}

void Diagnostics::FailAt(const YAML::Mark& mark, const std::string& what) {
  if (first_) return;
  if (mark.is_null()) {
    first_ = Error{origin_ + ": " + what};
  } else {
    first_ = Error{origin_ + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1) +
                   ": " + what};
  }
}

std::string Describe(const YAML::Node& node) {
  if (!node.IsDefined() || node.IsNull()) return "nothing";
  if (node.IsMap()) return "a map";
  if (node.IsSequence()) return "a list";
  return "'" + node.Scalar() + "'";
}

std::string JoinPath(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

std::optional<std::string> ReadString(Diagnostics& d, const YAML::Node& node, const std::string& path) {
  if (!IsScalar(d, node, path, "a string")) return std::nullopt;
  return node.Scalar();
}

std::optional<int64_t> ReadInt(Diagnostics& d, const YAML::Node& node, const std::string& path, int64_t min,
                               int64_t max) {
  std::string range = "an integer";
  if (max >= std::numeric_limits<int32_t>::max()) {  // "no upper limit" to a reader
    range += " >= " + std::to_string(min);
  } else {
    range += " in " + std::to_string(min) + ".." + std::to_string(max);
  }
  if (!IsScalar(d, node, path, range)) return std::nullopt;
  std::optional<int64_t> v = ParseWhole<int64_t>(node.Scalar());
  if (!v || *v < min || *v > max) {
    d.Fail(node, path, "expected " + range + ", got " + Describe(node));
    return std::nullopt;
  }
  return v;
}

std::optional<uint64_t> ReadUnsigned(Diagnostics& d, const YAML::Node& node, const std::string& path) {
  const std::string expected = "an unsigned integer";
  if (!IsScalar(d, node, path, expected)) return std::nullopt;
  std::optional<uint64_t> v = ParseWhole<uint64_t>(node.Scalar());
  if (!v) d.Fail(node, path, "expected " + expected + ", got " + Describe(node));
  return v;
}

std::optional<double> ReadNumber(Diagnostics& d, const YAML::Node& node, const std::string& path,
                                 bool (*valid)(double), const char* expected) {
  if (!IsScalar(d, node, path, expected)) return std::nullopt;
  std::optional<double> v = ParseWhole<double>(node.Scalar());
  if (!v || !std::isfinite(*v) || !valid(*v)) {
    d.Fail(node, path, std::string("expected ") + expected + ", got " + Describe(node));
    return std::nullopt;
  }
  return v;
}

std::optional<uint64_t> ReadSize(Diagnostics& d, const YAML::Node& node, const std::string& path,
                                 uint64_t min, uint64_t max) {
  if (!IsScalar(d, node, path, "a size like 4KiB, 1MB or 4096")) return std::nullopt;
  Result<uint64_t> v = ParseBytes(node.Scalar());
  if (!v) {
    d.Fail(node, path, v.error().message);
    return std::nullopt;
  }
  if (*v < min || *v > max) {
    d.Fail(
        node, path,
        "expected a size from " + FormatBytes(min) + " to " + FormatBytes(max) + ", got " + Describe(node));
    return std::nullopt;
  }
  return *v;
}

std::optional<DataRate> ReadRate(Diagnostics& d, const YAML::Node& node, const std::string& path) {
  if (!IsScalar(d, node, path, "a rate like 400Gbps")) return std::nullopt;
  Result<DataRate> v = ParseRate(node.Scalar());
  if (!v) {
    d.Fail(node, path, v.error().message);
    return std::nullopt;
  }
  if (v->IsZero()) {
    d.Fail(node, path, "expected a rate > 0, got " + Describe(node));
    return std::nullopt;
  }
  return *v;
}

std::optional<Time> ReadTime(Diagnostics& d, const YAML::Node& node, const std::string& path) {
  if (!IsScalar(d, node, path, "a time like 500ns")) return std::nullopt;
  if (node.Scalar() == "0") return Time::Zero();
  Result<Time> v = ParseTime(node.Scalar());
  if (!v) {
    d.Fail(node, path, v.error().message);
    return std::nullopt;
  }
  return *v;
}

MapReader::MapReader(Diagnostics& d, const YAML::Node& node, std::string path)
    : d_(d), node_(node), path_(std::move(path)) {
  if (node_.IsDefined() && !node_.IsNull() && !node_.IsMap()) {
    d_.Fail(node_, path_, "expected a map, got " + Describe(node_));
  }
}

void MapReader::AllowOnly(std::initializer_list<const char*> allowed) const {
  if (!node_.IsMap()) return;
  std::set<std::string> seen;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : Describe(it->first);
    bool known = false;
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      d_.Fail(it->first, Path(key), "unknown key; expected one of " + list);
      return;
    }
    if (!seen.insert(key).second) {
      d_.Fail(it->first, Path(key), "key given twice");
      return;
    }
  }
}

std::optional<YAML::Node> MapReader::Get(const std::string& key) const {
  if (!node_.IsMap()) return std::nullopt;
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    if (it->first.IsScalar() && it->first.Scalar() == key) {
      if (it->second.IsNull()) return std::nullopt;
      return it->second;
    }
  }
  return std::nullopt;
}

void MapReader::Fail(const std::string& key, const std::string& what) const {
  d_.Fail(node_, Path(key), what);
}

void MapReader::FailAt(const std::string& key, const std::string& what) const {
  std::optional<YAML::Node> v = Get(key);
  d_.Fail(v ? *v : node_, Path(key), what);
}

MapReader MapReader::Map(const std::string& key) const {
  std::optional<YAML::Node> v = Get(key);
  return MapReader(d_, v ? *v : YAML::Node(), Path(key));
}

std::string MapReader::String(const std::string& key, const std::string& fallback) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadString(d_, *v, Path(key)).value_or(fallback);
}

bool MapReader::Bool(const std::string& key, bool fallback) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  if (v->IsScalar() && (v->Scalar() == "true" || v->Scalar() == "false")) return v->Scalar() == "true";
  d_.Fail(*v, Path(key), "expected true or false, got " + Describe(*v));
  return fallback;
}

int64_t MapReader::Int(const std::string& key, int64_t fallback, int64_t min, int64_t max) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadInt(d_, *v, Path(key), min, max).value_or(fallback);
}

uint64_t MapReader::Unsigned(const std::string& key, uint64_t fallback) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadUnsigned(d_, *v, Path(key)).value_or(fallback);
}

double MapReader::Number(const std::string& key, double fallback, bool (*valid)(double),
                         const char* expected) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadNumber(d_, *v, Path(key), valid, expected).value_or(fallback);
}

uint64_t MapReader::Size(const std::string& key, uint64_t fallback, uint64_t min, uint64_t max) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadSize(d_, *v, Path(key), min, max).value_or(fallback);
}

DataRate MapReader::Rate(const std::string& key, DataRate fallback) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadRate(d_, *v, Path(key)).value_or(fallback);
}

Time MapReader::TimeValue(const std::string& key, Time fallback) const {
  std::optional<YAML::Node> v = Get(key);
  if (!v) return fallback;
  return ReadTime(d_, *v, Path(key)).value_or(fallback);
}

}  // namespace aifabric
