#include "fabric/catalog.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <set>

#include "fabric/catalog_data.h"
#include "fabric/data_fields.h"

namespace aifabric {
namespace {

std::string EntryPath(const char* section, size_t i) {
  return std::string(section) + "[" + std::to_string(i) + "]";
}

Error At(const std::string& origin, const YAML::Node& node, const std::string& what) {
  return Error{origin + ":" + std::to_string(node.Mark().line + 1) + ": " + what};
}

// Runs `read` on each entry of the `section` sequence; stops at the first error.
template <typename T, typename F>
std::optional<Error> ReadSection(const YAML::Node& root, const char* section, const std::string& origin,
                                 std::vector<T>& out, F read) {
  YAML::Node seq = root[section];
  if (!seq || seq.IsNull()) return std::nullopt;
  if (!seq.IsSequence()) return At(origin, seq, std::string(section) + ": expected a list of entries");
  std::set<std::string> names;
  for (size_t i = 0; i < seq.size(); ++i) {
    const YAML::Node entry = seq[i];
    const std::string path = EntryPath(section, i);
    if (!entry.IsMap()) return At(origin, entry, path + ": expected a map of fields");
    DataFields reader(entry, origin, path);
    T value = read(reader);
    if (!reader.ok()) return reader.error();
    if (!names.insert(value.name).second) {
      return At(origin, entry["name"], path + ".name: duplicate entry '" + value.name + "'");
    }
    out.push_back(std::move(value));
  }
  return std::nullopt;
}

SwitchSpec ReadSwitch(DataFields& r) {
  r.CheckKeys({"name", "radix", "port_rate", "latency", "buffer", "capacity", "source"});
  SwitchSpec s;
  s.name = r.String("name");
  s.radix = r.PositiveInt("radix");
  s.port_rate = r.Rate("port_rate");
  s.latency = r.Duration("latency");
  s.buffer_bytes = r.Bytes("buffer");
  s.capacity_tbps = r.Rate("capacity").gbps() / 1000.0;
  s.source = r.String("source");
  return s;
}

NicSpec ReadNic(DataFields& r) {
  r.CheckKeys({"name", "rate", "source"});
  NicSpec n;
  n.name = r.String("name");
  n.rate = r.Rate("rate");
  n.source = r.String("source");
  return n;
}

GpuSpec ReadGpu(DataFields& r) {
  r.CheckKeys({"name", "bf16_dense_tflops", "hbm", "hbm_bandwidth", "nvlink_per_dir", "nvlink_achievable_per_dir",
               "nvls", "source"});
  GpuSpec g;
  g.name = r.String("name");
  g.bf16_dense_tflops = r.PositiveNumber("bf16_dense_tflops");
  g.hbm_bytes = r.Bytes("hbm");
  g.hbm_tbps = r.ByteRate("hbm_bandwidth", 1e12);
  g.nvlink_gbps_per_dir = r.ByteRate("nvlink_per_dir", 1e9);
  g.nvlink_achievable_gbps_per_dir = r.ByteRate("nvlink_achievable_per_dir", 1e9);
  g.nvls = r.Bool("nvls");
  g.source = r.String("source");
  return g;
}

template <typename T>
const T* FindByName(const std::vector<T>& v, const std::string& name) {
  for (const T& e : v) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace

Result<Catalog> Catalog::Parse(const std::string& yaml_text, const std::string& origin) {
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
  Catalog catalog;
  try {
    if (!root.IsMap()) return Error{origin + ":1: expected a map with switches, nics and gpus"};
    for (const auto& kv : root) {
      const std::string key = kv.first.Scalar();
      if (key != "switches" && key != "nics" && key != "gpus") {
        return At(origin, kv.first, "unknown section '" + key + "' (expected switches, nics, gpus)");
      }
    }
    if (auto e = ReadSection(root, "switches", origin, catalog.switches_, ReadSwitch)) return *e;
    if (auto e = ReadSection(root, "nics", origin, catalog.nics_, ReadNic)) return *e;
    if (auto e = ReadSection(root, "gpus", origin, catalog.gpus_, ReadGpu)) return *e;
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
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

}  // namespace aifabric
