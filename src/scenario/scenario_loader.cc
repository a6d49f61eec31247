#include "scenario/scenario_loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/text_file.h"
#include "scenario/cluster_section.h"
#include "scenario/fabric_section.h"
#include "scenario/faults_section.h"
#include "scenario/scheduling_section.h"
#include "scenario/section_reading.h"
#include "scenario/set_override.h"
#include "scenario/simulation_section.h"
#include "scenario/workload_section.h"
#include "scenario/yaml_reader.h"
#include "scenario/yaml_text.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// A name that, as out/<name>, stays one folder inside out/.
bool IsOutputName(const std::string& name) {
  if (name.empty() || name == "." || name == "..") return false;
  return std::none_of(name.begin(), name.end(), [](char ch) {
    return ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
  });
}

// calibration: FILE (relative to the scenario's folder), merged over the
// built-in data/calibration.yaml; its bus efficiencies scale the NVLink and
// NIC rates the cluster section set.
void ReadCalibration(const SectionContext& c, const MapReader& top, Scenario& s) {
  if (!top.Has("calibration")) return;
  fs::path path = top.String("calibration", "");
  if (path.empty()) {
    top.FailAt("calibration", "expected the path of a calibration file (the data/calibration.yaml format)");
    return;
  }
  if (path.is_relative()) path = fs::path(c.base_dir.empty() ? "." : c.base_dir) / path;
  Result<std::string> text = ReadTextFile(path.string());
  if (!text.ok()) {
    top.FailAt("calibration", text.error().message);
    return;
  }
  Result<CalibrationSpec> spec = ParseCalibrationOverBuiltIn(*text, path.string());
  if (!spec.ok()) {
    top.FailAt("calibration", spec.error().message);
    return;
  }
  auto scale = [](DataRate rate, double f) { return DataRate::BitsPerSecond(static_cast<uint64_t>(rate.bps() * f + 0.5)); };
  s.server.nvlink_per_dir = scale(s.server.nvlink_per_dir, spec->nvlink_bus_efficiency);
  s.topology.nic_rate = scale(s.topology.nic_rate, spec->nic_bus_efficiency);
  s.calibration = std::move(spec).value();
  s.calibration_file = path.string();
}

void ReadScenario(const SectionContext& c, const YAML::Node& root, const std::string& default_name, Scenario& s) {
  MapReader top(c.d, root, "");
  top.AllowOnly({"name", "seed", "cluster", "fabric", "workload", "simulation", "scheduling", "calibration",
                  "faults"});
  s.name = top.String("name", default_name);
  if (top.Has("name") && !IsOutputName(s.name)) {
    top.FailAt("name", Quote(s.name) + ": the default output folder is out/<name>, so a name may not be empty, '.' or "
                       "'..', nor hold '/', '\\' or control characters");
  }
  s.seed = top.Unsigned("seed", 1);
  ReadCluster(c, top.Map("cluster"), s);
  ReadCalibration(c, top, s);
  ReadFabric(c, top.Map("fabric"), s);
  ReadWorkload(c, top, s);
  ReadSimulation(top.Map("simulation"), s);
  ReadSchedulingSection(top.Map("scheduling"), s);
  ReadFaultsSection(top, s);
}

std::string DefaultName(const std::string& origin) {
  std::string stem = fs::path(origin).stem().string();
  return stem.empty() ? "scenario" : stem;
}

// Parses `text` and applies the overrides; errors go to `d` or are returned.
Result<YAML::Node> ParseWithOverrides(const std::string& text, Diagnostics& d,
                                      const std::vector<SetOverride>& overrides) {
  Result<YAML::Node> root = ParseYamlText(text, d);
  if (!root) return root.error();
  for (const SetOverride& ov : overrides) {
    Status st = ApplySetOverride(*root, ov);
    if (!st) return st.error();
  }
  return root;
}

}  // namespace

Result<Scenario> LoadScenarioText(const std::string& text, const std::string& origin,
                                  const std::string& base_dir, const std::vector<std::string>& set_overrides,
                                  const Catalog& catalog) {
  try {
    std::vector<SetOverride> overrides;
    std::vector<std::string> set_paths;
    for (const std::string& arg : set_overrides) {
      Result<SetOverride> ov = ParseSetOverride(arg);
      if (!ov) return ov.error();
      set_paths.push_back(ov->DottedPath());
      overrides.push_back(std::move(*ov));
    }
    Diagnostics d(origin, set_paths);
    Result<YAML::Node> root = ParseWithOverrides(text, d, overrides);
    if (!root) return root.error();
    Scenario s;
    std::map<std::string, uint8_t> classes;
    ReadScenario(SectionContext{d, catalog, base_dir, &classes}, *root, DefaultName(origin), s);
    if (!d.ok()) return d.error();
    return s;
  } catch (const std::exception& e) {
    // yaml-cpp reports some misuse by throwing; a scenario must never crash the caller.
    return Error{origin + ": internal error while reading the scenario: " + e.what()};
  }
}

Result<Scenario> LoadScenarioText(const std::string& text, const std::string& origin,
                                  const std::string& base_dir,
                                  const std::vector<std::string>& set_overrides) {
  return LoadScenarioText(text, origin, base_dir, set_overrides, Catalog::BuiltIn());
}

Result<Scenario> LoadScenarioFile(const std::string& path, const std::vector<std::string>& set_overrides) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the scenario file (" + std::strerror(errno) + ")"};
  Result<std::string> text = ReadTextFile(path);
  if (!text) return text.error();
  const std::string base_dir = fs::path(path).parent_path().string();
  Result<Scenario> s = LoadScenarioText(*text, path, base_dir.empty() ? "." : base_dir, set_overrides);
  if (s) s->source_file = path;
  return s;
}

}  // namespace aifabric
