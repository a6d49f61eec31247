// Typed reading of a parsed YAML tree with errors that say where they are.
// Diagnostics keeps the first error found and formats its place as
// "<origin>:<line>:<col>: <path>: <what>", or "--set <path>: <what>" when the
// value came from a --set override. MapReader reads the fields of one map:
// each getter returns the value, or its fallback when the key is absent or
// the value is bad (the error is then recorded), so a schema reads as a flat
// list of fields and checks Diagnostics once. Not thread-safe; one per load.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data_rate.h"
#include "core/result.h"
#include "core/time.h"

namespace aifabric {

class Diagnostics {
 public:
  // `set_paths`: dotted paths written by --set; values at or under them are
  // reported as "--set <path>".
  Diagnostics(std::string origin, std::vector<std::string> set_paths);

  // Records an error about `path`, located at `at` (or, if `at` has no
  // position, at the origin alone). Only the first error is kept.
  void Fail(const YAML::Node& at, const std::string& path, const std::string& what);
  // Records an error located at an exception's mark (0-based line/column).
  void FailAt(const YAML::Mark& mark, const std::string& what);

  // Records an error whose message already names its place (e.g. from a
  // reader that knows the origin and line itself).
  void FailWith(const Error& error) {
    if (!first_) first_ = error;
  }

  bool ok() const { return !first_.has_value(); }
  // REQUIRES: !ok()
  const Error& error() const { return *first_; }
  const std::string& origin() const { return origin_; }

 private:
  bool FromSet(const std::string& path) const;

  const std::string origin_;
  const std::vector<std::string> set_paths_;
  std::optional<Error> first_;
};

// How a node is described in an error: "'abc'", "a map", "a list", "nothing".
std::string Describe(const YAML::Node& node);
// "a.b" + "c" -> "a.b.c"; "" + "c" -> "c".
std::string JoinPath(const std::string& parent, const std::string& key);

// Scalar readers: return nullopt (and record the error) when `node` is not
// the expected kind of value.
std::optional<std::string> ReadString(Diagnostics& d, const YAML::Node& node, const std::string& path);
std::optional<int64_t> ReadInt(Diagnostics& d, const YAML::Node& node, const std::string& path, int64_t min,
                               int64_t max);
std::optional<uint64_t> ReadUnsigned(Diagnostics& d, const YAML::Node& node, const std::string& path);
// `valid` decides the range; `expected` says it ("a number > 0").
std::optional<double> ReadNumber(Diagnostics& d, const YAML::Node& node, const std::string& path,
                                 bool (*valid)(double), const char* expected);
// A size with a unit ("4KiB") or a plain integer (bytes), within [min, max].
std::optional<uint64_t> ReadSize(Diagnostics& d, const YAML::Node& node, const std::string& path,
                                 uint64_t min, uint64_t max);
// A rate with a unit ("400Gbps"); must be > 0.
std::optional<DataRate> ReadRate(Diagnostics& d, const YAML::Node& node, const std::string& path);
// A time with a unit ("500ns"); a bare 0 is accepted as zero.
std::optional<Time> ReadTime(Diagnostics& d, const YAML::Node& node, const std::string& path);

// One allowed value of an enumerated field.
template <typename E>
struct EnumName {
  const char* name;
  E value;
};

// Reads one of `names`; values in `unavailable` are recognised but rejected
// as "not available in this version".
template <typename E>
std::optional<E> ReadEnum(Diagnostics& d, const YAML::Node& node, const std::string& path,
                          std::initializer_list<EnumName<E>> names,
                          std::initializer_list<const char*> unavailable = {});

// The fields of one map (a null or absent node reads as an empty map).
class MapReader {
 public:
  // Records an error if `node` is defined, not null and not a map.
  MapReader(Diagnostics& d, const YAML::Node& node, std::string path);

  // Records an error for a key not in `allowed` (listing them) or repeated.
  void AllowOnly(std::initializer_list<const char*> allowed) const;

  // The value under `key`; nullopt if absent or null.
  std::optional<YAML::Node> Get(const std::string& key) const;
  bool Has(const std::string& key) const { return Get(key).has_value(); }
  std::string Path(const std::string& key) const { return JoinPath(path_, key); }
  const std::string& path() const { return path_; }
  const YAML::Node& node() const { return node_; }
  Diagnostics& diagnostics() const { return d_; }
  // Records an error located at this map (e.g. a required key is missing).
  void Fail(const std::string& key, const std::string& what) const;
  // Records an error located at the value of `key` (or at this map if absent).
  void FailAt(const std::string& key, const std::string& what) const;

  MapReader Map(const std::string& key) const;
  std::string String(const std::string& key, const std::string& fallback) const;
  bool Bool(const std::string& key, bool fallback) const;
  int64_t Int(const std::string& key, int64_t fallback, int64_t min, int64_t max) const;
  uint64_t Unsigned(const std::string& key, uint64_t fallback) const;
  double Number(const std::string& key, double fallback, bool (*valid)(double), const char* expected) const;
  uint64_t Size(const std::string& key, uint64_t fallback, uint64_t min, uint64_t max) const;
  DataRate Rate(const std::string& key, DataRate fallback) const;
  Time TimeValue(const std::string& key, Time fallback) const;
  template <typename E>
  E Enum(const std::string& key, E fallback, std::initializer_list<EnumName<E>> names,
         std::initializer_list<const char*> unavailable = {}) const {
    std::optional<YAML::Node> v = Get(key);
    if (!v) return fallback;
    return ReadEnum(d_, *v, Path(key), names, unavailable).value_or(fallback);
  }

 private:
  Diagnostics& d_;
  YAML::Node node_;
  std::string path_;
};

template <typename E>
std::optional<E> ReadEnum(Diagnostics& d, const YAML::Node& node, const std::string& path,
                          std::initializer_list<EnumName<E>> names,
                          std::initializer_list<const char*> unavailable) {
  std::string allowed;
  for (const EnumName<E>& n : names) allowed += (allowed.empty() ? "" : ", ") + std::string(n.name);
  if (!node.IsScalar()) {
    d.Fail(node, path, "expected one of " + allowed + ", got " + Describe(node));
    return std::nullopt;
  }
  for (const EnumName<E>& n : names) {
    if (node.Scalar() == n.name) return n.value;
  }
  for (const char* u : unavailable) {
    if (node.Scalar() == u) {
      d.Fail(node, path, "'" + node.Scalar() + "' is not available in this version; expected " + allowed);
      return std::nullopt;
    }
  }
  d.Fail(node, path, "expected one of " + allowed + ", got " + Describe(node));
  return std::nullopt;
}

}  // namespace aifabric
