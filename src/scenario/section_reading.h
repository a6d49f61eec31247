// What the readers of the scenario's sections share (scenario_loader.cc
// calls one reader per section: cluster_section.h, fabric_section.h,
// workload_section.h, simulation_section.h, scheduling_section.h): the
// context of one load, bounds and predicates of common fields, and file
// paths resolved against the scenario's folder. Not thread-safe; one
// context per load.
#pragma once

#include <climits>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

#include "fabric/catalog.h"
#include "scenario/yaml_reader.h"

namespace aifabric {

inline constexpr int64_t kMaxInt = INT_MAX;
inline constexpr uint64_t kMaxBytes = UINT64_MAX;

inline bool IsPositive(double v) { return v > 0; }
inline bool IsAtLeastOne(double v) { return v >= 1; }
inline bool IsFraction(double v) { return v > 0 && v <= 1; }

// What every reader needs besides the map it reads.
struct SectionContext {
  Diagnostics& d;
  const Catalog& catalog;
  std::string base_dir;
  // fabric.qos.classes by name, for workload items' `class:` (filled while
  // reading fabric, which comes before workload).
  std::map<std::string, uint8_t>* classes = nullptr;
};

// Records "required, missing" for each of `keys` absent from `m`.
void RequireKeys(const MapReader& m, std::initializer_list<const char*> keys);

// "a, b, c": the names of catalog entries, for "the catalog has ...".
template <typename T>
std::string CatalogNames(const std::vector<T>& items) {
  std::string out;
  for (const T& item : items) out += (out.empty() ? "" : ", ") + item.name;
  return out;
}

// `priority: 0..7` or `class: <name of a fabric.qos.classes entry>`
// (both absent: `fallback`).
uint8_t ReadPriority(const SectionContext& c, const MapReader& m, uint8_t fallback = 3);

// Reads m.key as a path, resolves it against the scenario's folder and checks
// the file exists. Returns the resolved path ("" after an error).
std::string ResolveFile(const SectionContext& c, const MapReader& m, const std::string& key);

}  // namespace aifabric
