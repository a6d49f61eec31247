// DataFields reads the fields of one YAML map of the built-in data files
// (data/catalog.yaml, data/models.yaml, data/calibration.yaml), keeping the
// first error, which reads "<origin>:<line>: <path>.<field>: <what>".
// Getters return the value, or the fallback when the key is absent (optional
// fields) or bad (the error is then kept), so a schema reads as a flat list
// of fields. Not thread-safe; one per map.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

#include "core/data_rate.h"
#include "core/result.h"
#include "core/time.h"

namespace aifabric {

class DataFields {
 public:
  DataFields(YAML::Node node, std::string origin, std::string path);

  bool ok() const { return !error_.has_value(); }
  // REQUIRES: !ok()
  const Error& error() const { return *error_; }

  // Flags keys not in `known` (a typo would otherwise be ignored).
  void CheckKeys(std::initializer_list<const char*> known);
  bool Has(const char* key) const;

  // Required fields fail when absent; Optional* return `fallback` then.
  std::string String(const char* key);
  int64_t Int(const char* key, int64_t min, int64_t max);
  int64_t OptionalInt(const char* key, int64_t min, int64_t max, int64_t fallback);
  double Number(const char* key, double min, double max);
  bool OptionalBool(const char* key, bool fallback);
  // One of `choices`; `fallback` when absent.
  std::string OptionalChoice(const char* key, std::initializer_list<const char*> choices, const char* fallback);
  // A bandwidth in bytes per second written "48.5GB/s" or "3.35TB/s" (powers
  // of 1000), returned in units of `unit_bytes` per second.
  double ByteRate(const char* key, double unit_bytes = 1);
  // Required fields with units or signs: a positive integer (<= 10^6), a
  // positive number, true/false, a rate ("400Gbps"), a time ("400ns"), a
  // size > 0 ("64MiB").
  int PositiveInt(const char* key);
  double PositiveNumber(const char* key);
  bool Bool(const char* key);
  DataRate Rate(const char* key);
  Time Duration(const char* key);
  uint64_t Bytes(const char* key);
  // A map below this one, for nested groups; fails if absent or not a map.
  YAML::Node Map(const char* key);

  std::string Field(const char* key) const;
  void Fail(const YAML::Node& at, const std::string& what);

 private:
  YAML::Node Get(const char* key);
  // A required scalar parsed by `parse` (a Result-returning unit parser).
  template <typename T, typename F>
  T Parsed(const char* key, F parse);

  YAML::Node node_;
  std::string origin_;
  std::string path_;
  std::optional<Error> error_;
};

}  // namespace aifabric
