#include "fabric/catalog.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "core/units.h"
#include "fabric/catalog_data.h"

namespace aifabric {
namespace {

// Reads the fields of one catalog entry (a YAML map), remembering the first
// error. Every message reads "<origin>:<line>: <section>[<i>].<field>: ...".
class EntryReader {
 public:
  EntryReader(const YAML::Node& node, std::string origin, std::string path)
      : node_(node), origin_(std::move(origin)), path_(std::move(path)) {}

  bool ok() const { return !error_.has_value(); }
  const Error& error() const { return *error_; }

  // Flags keys not in `known` (typos would otherwise be silently ignored).
  void CheckKeys(std::initializer_list<const char*> known) {
    for (const auto& kv : node_) {
      const std::string key = kv.first.Scalar();
      bool found = false;
      for (const char* k : known) found = found || key == k;
      if (!found) {
        std::string list;
        for (const char* k : known) list += std::string(list.empty() ? "" : ", ") + k;
        Fail(kv.first, path_ + ": unknown field '" + key + "' (expected one of " + list + ")");
        return;
      }
    }
  }

  std::string String(const char* key) {
    YAML::Node v = Get(key);
    if (!v) return "";
    if (!v.IsScalar() || v.Scalar().empty()) {
      Fail(v, Field(key) + ": expected a non-empty string");
      return "";
    }
    return v.Scalar();
  }

  bool Boolean(const char* key) {
    YAML::Node v = Get(key);
    if (!v) return false;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    if (text != "true" && text != "false") Fail(v, Field(key) + ": expected true or false, got '" + text + "'");
    return text == "true";
  }

  int PositiveInt(const char* key) {
    YAML::Node v = Get(key);
    if (!v) return 0;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    char* end = nullptr;
    long value = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value <= 0 || value > 1000000) {
      Fail(v, Field(key) + ": expected a positive integer, got '" + text + "'");
      return 0;
    }
    return static_cast<int>(value);
  }

  double PositiveNumber(const char* key) {
    YAML::Node v = Get(key);
    if (!v) return 0;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0) {
      Fail(v, Field(key) + ": expected a positive number, got '" + text + "'");
      return 0;
    }
    return value;
  }

  DataRate Rate(const char* key) {
    return Parsed<DataRate>(key, [](std::string_view t) { return ParseRate(t); });
  }
  Time Duration(const char* key) {
    return Parsed<Time>(key, [](std::string_view t) { return ParseTime(t); });
  }
  uint64_t Bytes(const char* key) {
    uint64_t b = Parsed<uint64_t>(key, [](std::string_view t) { return ParseBytes(t); });
    YAML::Node v = node_[key];
    if (ok() && b == 0) Fail(v, Field(key) + ": must be > 0");
    return b;
  }

  // A memory bandwidth in bytes per second, "3.35TB/s" or "450GB/s";
  // returned in units of `unit_bytes` per second.
  double ByteRate(const char* key, double unit_bytes) {
    YAML::Node v = Get(key);
    if (!v) return 0;
    const std::string text = v.IsScalar() ? v.Scalar() : "";
    char* end = nullptr;
    double number = std::strtod(text.c_str(), &end);
    const std::string unit = end ? std::string(end) : "";
    double factor = 0;
    if (unit == "GB/s") factor = 1e9;
    else if (unit == "TB/s") factor = 1e12;
    if (text.empty() || end == text.c_str() || factor == 0 || !std::isfinite(number) || number <= 0) {
      Fail(v, Field(key) + ": expected a bandwidth like 450GB/s or 3.35TB/s, got '" + text + "'");
      return 0;
    }
    return number * factor / unit_bytes;
  }

 private:
  YAML::Node Get(const char* key) {
    if (!ok()) return YAML::Node();
    YAML::Node v = node_[key];
    if (!v || v.IsNull()) {
      Fail(node_, Field(key) + ": required field is missing");
      return YAML::Node();
    }
    return v;
  }

  template <typename T, typename F>
  T Parsed(const char* key, F parse) {
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

  std::string Field(const char* key) const { return path_ + "." + key; }

  void Fail(const YAML::Node& at, const std::string& what) {
    if (error_) return;
    error_ = Error{origin_ + ":" + std::to_string(at.Mark().line + 1) + ": " + what};
  }

  YAML::Node node_;
  std::string origin_;
  std::string path_;
  std::optional<Error> error_;
};

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
    EntryReader reader(entry, origin, path);
    T value = read(reader);
    if (!reader.ok()) return reader.error();
    if (!names.insert(value.name).second) {
      return At(origin, entry["name"], path + ".name: duplicate entry '" + value.name + "'");
    }
    out.push_back(std::move(value));
  }
  return std::nullopt;
}

SwitchSpec ReadSwitch(EntryReader& r) {
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

NicSpec ReadNic(EntryReader& r) {
  r.CheckKeys({"name", "rate", "source"});
  NicSpec n;
  n.name = r.String("name");
  n.rate = r.Rate("rate");
  n.source = r.String("source");
  return n;
}

GpuSpec ReadGpu(EntryReader& r) {
  r.CheckKeys({"name", "bf16_dense_tflops", "hbm", "hbm_bandwidth", "nvlink_per_dir", "nvlink_achievable_per_dir",
               "nvls", "source"});
  GpuSpec g;
  g.name = r.String("name");
  g.bf16_dense_tflops = r.PositiveNumber("bf16_dense_tflops");
  g.hbm_bytes = r.Bytes("hbm");
  g.hbm_tbps = r.ByteRate("hbm_bandwidth", 1e12);
  g.nvlink_gbps_per_dir = r.ByteRate("nvlink_per_dir", 1e9);
  g.nvlink_achievable_gbps_per_dir = r.ByteRate("nvlink_achievable_per_dir", 1e9);
  g.nvls = r.Boolean("nvls");
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
