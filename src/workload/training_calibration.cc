#include "workload/training_calibration.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "workload/model_data.h"
#include "fabric/data_fields.h"

namespace aifabric {
namespace {

// Reads a [LL, LL128, Simple] list of non-negative microseconds.
std::array<double, 3> ReadTriple(DataFields& f, const YAML::Node& map, const char* key) {
  std::array<double, 3> out{};
  if (!f.ok()) return out;
  const YAML::Node v = map[key];
  std::string field = f.Field(key);
  if (!v || !v.IsSequence() || v.size() != 3) {
    f.Fail(v ? v : map, field + ": expected a list [LL, LL128, Simple] of microseconds");
    return out;
  }
  for (size_t i = 0; i < 3; ++i) {
    const std::string text = v[i].IsScalar() ? v[i].Scalar() : "";
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value) || value < 0) {
      f.Fail(v[i], field + ": expected a non-negative number of microseconds, got '" + text + "'");
      return out;
    }
    out[i] = value;
  }
  return out;
}

NcclLatencyTable ReadTable(const YAML::Node& map, const std::string& origin, const std::string& path,
                           std::optional<Error>& error) {
  NcclLatencyTable t;
  if (error) return t;
  DataFields f(map, origin, path);
  f.CheckKeys({"tree", "ring", "collnet_direct", "collnet_chain", "nvls", "nvls_tree", "pat"});
  t.tree = ReadTriple(f, map, "tree");
  t.ring = ReadTriple(f, map, "ring");
  t.collnet_direct = ReadTriple(f, map, "collnet_direct");
  t.collnet_chain = ReadTriple(f, map, "collnet_chain");
  t.nvls = ReadTriple(f, map, "nvls");
  t.nvls_tree = ReadTriple(f, map, "nvls_tree");
  t.pat = ReadTriple(f, map, "pat");
  if (!f.ok()) error = f.error();
  return t;
}

Result<CalibrationSpec> ParseRoot(const YAML::Node& root, const std::string& origin) {
  CalibrationSpec c;
  if (!root.IsMap()) return Error{origin + ":1: expected a map with compute, optimizer, nic_bandwidth and nccl"};
  DataFields top(root, origin, "");
  top.CheckKeys({"compute", "optimizer", "nic_bandwidth", "nccl", "bus_efficiency"});
  const YAML::Node compute = top.Map("compute");
  const YAML::Node optimizer = top.Map("optimizer");
  const YAML::Node nccl = top.Map("nccl");
  if (!top.ok()) return top.error();

  DataFields fc(compute, origin, "compute");
  fc.CheckKeys({"efficiency", "source"});
  c.compute_efficiency = fc.Number("efficiency", 1e-6, 1.0);
  c.compute_source = fc.String("source");
  if (!fc.ok()) return fc.error();

  DataFields fo(optimizer, origin, "optimizer");
  fo.CheckKeys({"bytes_per_param", "source"});
  c.optimizer_bytes_per_param = fo.Number("bytes_per_param", 0, 1000);
  c.optimizer_source = fo.String("source");
  if (!fo.ok()) return fo.error();

  const YAML::Node nics = root["nic_bandwidth"];
  if (!nics || !nics.IsSequence()) {
    return Error{origin + ":" + std::to_string(root.Mark().line + 1) + ": nic_bandwidth: expected a list of entries"};
  }
  for (size_t i = 0; i < nics.size(); ++i) {
    std::string path = "nic_bandwidth[";
    path += std::to_string(i);
    path += "]";
    DataFields fn(nics[i], origin, path);
    fn.CheckKeys({"name", "line", "achievable", "source"});
    NicBandwidthSpec n;
    n.name = fn.String("name");
    n.line_bytes_per_s = fn.ByteRate("line");
    n.achievable_bytes_per_s = fn.ByteRate("achievable");
    n.source = fn.String("source");
    if (fn.ok() && n.achievable_bytes_per_s > n.line_bytes_per_s) {
      fn.Fail(nics[i]["achievable"], path + ".achievable: exceeds the line rate");
    }
    if (!fn.ok()) return fn.error();
    c.nics.push_back(std::move(n));
  }

  DataFields fn(nccl, origin, "nccl");
  fn.CheckKeys({"source", "net_overhead_us", "base_latency_us", "hw_latency_us"});
  c.nccl_source = fn.String("source");
  c.nccl_net_overhead_us = fn.Number("net_overhead_us", 0, 1e6);
  const YAML::Node base = fn.Map("base_latency_us");
  const YAML::Node hw = fn.Map("hw_latency_us");
  if (!fn.ok()) return fn.error();
  DataFields fh(hw, origin, "nccl.hw_latency_us");
  fh.CheckKeys({"nvlink", "pci", "net"});
  const YAML::Node nvlink = fh.Map("nvlink");
  const YAML::Node pci = fh.Map("pci");
  const YAML::Node net = fh.Map("net");
  if (!fh.ok()) return fh.error();
  std::optional<Error> error;
  c.nccl_base_us = ReadTable(base, origin, "nccl.base_latency_us", error);
  c.nccl_nvlink_us = ReadTable(nvlink, origin, "nccl.hw_latency_us.nvlink", error);
  c.nccl_pci_us = ReadTable(pci, origin, "nccl.hw_latency_us.pci", error);
  c.nccl_net_us = ReadTable(net, origin, "nccl.hw_latency_us.net", error);
  if (error) return *error;

  if (root["bus_efficiency"]) {
    const YAML::Node bus = top.Map("bus_efficiency");
    if (!top.ok()) return top.error();
    DataFields fb(bus, origin, "bus_efficiency");
    fb.CheckKeys({"nvlink", "nic", "nvls_tree", "protocol", "source"});
    c.nvlink_bus_efficiency = fb.Number("nvlink", 1e-3, 2.0);
    c.nic_bus_efficiency = fb.Number("nic", 1e-3, 2.0);
    c.nvls_tree_bus_efficiency = fb.Number("nvls_tree", 1e-3, 1.0);
    c.bus_efficiency_source = fb.String("source");
    if (bus["protocol"]) {
      c.protocol_bus_efficiency = ReadTriple(fb, bus, "protocol");
      for (double e : c.protocol_bus_efficiency) {
        if (fb.ok() && (e <= 0 || e > 2)) fb.Fail(bus["protocol"], "bus_efficiency.protocol: expected fractions in (0, 2]");
      }
    }
    if (!fb.ok()) return fb.error();
  }
  return c;
}

// Every key of `over` replaces or, where both are maps, merges into `base`.
void MergeInto(YAML::Node base, const YAML::Node& over) {
  for (auto it = over.begin(); it != over.end(); ++it) {
    const std::string key = it->first.Scalar();
    YAML::Node existing = static_cast<const YAML::Node&>(base)[key];  // const lookup: adds no key
    if (existing && existing.IsMap() && it->second.IsMap()) {
      MergeInto(existing, it->second);
    } else if (existing) {
      base[key] = it->second;
    } else {
      base.force_insert(it->first, it->second);  // keeps the file's key node, so errors name its line
    }
  }
}

}  // namespace

const NicBandwidthSpec* CalibrationSpec::FindNic(const std::string& name) const {
  for (const NicBandwidthSpec& n : nics) {
    if (n.name == name) return &n;
  }
  return nullptr;
}

Result<CalibrationSpec> ParseCalibration(const std::string& yaml_text, const std::string& origin) {
  try {
    return ParseRoot(YAML::Load(yaml_text), origin);
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
}

Result<CalibrationSpec> ParseCalibrationOverBuiltIn(const std::string& yaml_text, const std::string& origin) {
  try {
    const YAML::Node over = YAML::Load(yaml_text);
    if (!over.IsMap()) {
      return Error{origin + ":" + std::to_string(over.Mark().line + 1) +
                   ": expected a map of calibration groups (compute, optimizer, nic_bandwidth, nccl, bus_efficiency)"};
    }
    YAML::Node merged = YAML::Load(kBuiltInCalibrationYaml);
    MergeInto(merged, over);
    return ParseRoot(merged, origin);
  } catch (const YAML::Exception& e) {
    return Error{origin + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
  }
}

const CalibrationSpec& BuiltInCalibration() {
  // Immutable data, parsed once.
  static const CalibrationSpec kCalibration = [] {
    Result<CalibrationSpec> r = ParseCalibration(kBuiltInCalibrationYaml, "data/calibration.yaml");
    if (!r.ok()) {
      // The file is checked by training_calibration_test; reaching this is a build error.
      std::fprintf(stderr, "internal error: built-in calibration: %s\n", r.error().message.c_str());
      std::abort();
    }
    return std::move(r).value();
  }();
  return kCalibration;
}

}  // namespace aifabric
