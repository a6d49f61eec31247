#include "fabric/catalog.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <cstdlib>
#include <set>

#include "fabric/catalog_data.h"
#include "fabric/catalog_entry_reader.h"
#include "fabric/data_fields.h"

namespace aifabric {
namespace {

std::string EntryPath(const char* section, size_t i) {
  return std::string(section) + "[" + std::to_string(i) + "]";
}

Error At(const std::string& origin, const YAML::Node& node, const std::string& what) {
  return Error{origin + ":" + std::to_string(node.Mark().line + 1) + ": " + what};
}

template <typename T>
T* FindMutable(std::vector<T>& v, const std::string& name) {
  for (T& e : v) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

// Runs `read` on each entry of the `section` sequence; stops at the first
// error. With `patch`, an entry whose name is already in `out` is read over
// it (EntryMode::kPatch) and a new one must be complete (kNew).
template <typename T, typename F>
std::optional<Error> ReadSection(const YAML::Node& root, const char* section, const std::string& origin, bool patch,
                                 std::vector<T>& out, F read) {
  YAML::Node seq = root[section];
  if (!seq || seq.IsNull()) return std::nullopt;
  if (!seq.IsSequence()) return At(origin, seq, std::string(section) + ": expected a list of entries");
  std::set<std::string> names;
  for (size_t i = 0; i < seq.size(); ++i) {
    const YAML::Node entry = seq[i];
    const EntryPlace place{origin, EntryPath(section, i)};
    if (!entry.IsMap()) return At(origin, entry, place.path + ": expected a map of fields");
    DataFields name_field(entry, origin, place.path);
    const std::string name = name_field.String("name");
    if (!name_field.ok()) return name_field.error();
    if (!names.insert(name).second) {
      return At(origin, entry["name"], place.path + ".name: duplicate entry '" + name + "'");
    }
    T* existing = patch ? FindMutable(out, name) : nullptr;
    T value = existing ? *existing : T{};
    const EntryMode mode = existing ? EntryMode::kPatch : (patch ? EntryMode::kNew : EntryMode::kCatalog);
    if (auto e = read(entry, place, mode, value)) return e;
    if (existing) {
      *existing = std::move(value);
    } else {
      out.push_back(std::move(value));
    }
  }
  return std::nullopt;
}

template <typename T>
const T* FindByName(const std::vector<T>& v, const std::string& name) {
  for (const T& e : v) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

std::optional<Error> Catalog::Read(const std::string& yaml_text, const std::string& origin, bool patch) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
  try {
    if (patch && root.IsNull()) return std::nullopt;  // an empty price file changes nothing
    if (!root.IsMap()) return Error{origin + ":1: expected a map with switches, nics, gpus and media"};
    for (const auto& kv : root) {
      const std::string key = kv.first.Scalar();
      if (key != "switches" && key != "nics" && key != "gpus" && key != "media") {
        return At(origin, kv.first, "unknown section '" + key + "' (expected switches, nics, gpus, media)");
      }
    }
    if (auto e = ReadSection(root, "switches", origin, patch, switches_, ReadSwitchEntry)) return e;
    if (auto e = ReadSection(root, "nics", origin, patch, nics_, ReadNicEntry)) return e;
    if (auto e = ReadSection(root, "gpus", origin, patch, gpus_, ReadGpuEntry)) return e;
    if (auto e = ReadSection(root, "media", origin, patch, media_, ReadMediaEntry)) return e;
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
  return std::nullopt;
}

Result<Catalog> Catalog::Parse(const std::string& yaml_text, const std::string& origin) {
  Catalog catalog;
  if (auto e = catalog.Read(yaml_text, origin, /*patch=*/false)) return *e;
  return catalog;
}

Result<Catalog> Catalog::WithOverrides(const std::string& yaml_text, const std::string& origin) const {
  Catalog catalog = *this;
  if (auto e = catalog.Read(yaml_text, origin, /*patch=*/true)) return *e;
  return catalog;
}

const Catalog& Catalog::BuiltIn() {
  // Immutable data, parsed once; the only process-wide object in the fabric.
  static const Catalog kCatalog = [] {
    Result<Catalog> r = Parse(kBuiltInCatalogYaml, "data/catalog.yaml");
    if (!r.ok()) {
      // The file is checked by catalog_test; reaching this is a build error.
      std::fprintf(stderr, "internal error: built-in catalog: %s\n", r.error().message.c_str());
      std::abort();
    }
    return std::move(r).value();
  }();
  return kCatalog;
}

const SwitchSpec* Catalog::FindSwitch(const std::string& name) const { return FindByName(switches_, name); }
const NicSpec* Catalog::FindNic(const std::string& name) const { return FindByName(nics_, name); }
const GpuSpec* Catalog::FindGpu(const std::string& name) const { return FindByName(gpus_, name); }
const LinkMediaSpec* Catalog::FindMedia(const std::string& name) const { return FindByName(media_, name); }

const LinkMediaSpec* Catalog::CheapestMedia(DataRate rate, double length_m) const {
  const LinkMediaSpec* best = nullptr;
  for (const LinkMediaSpec& m : media_) {
    if (m.rate != rate || m.max_reach_m < length_m) continue;
    if (!best || m.cost.price_usd < best->cost.price_usd) best = &m;
  }
  return best;
}

}  // namespace aifabric
