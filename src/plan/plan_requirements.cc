#include "plan/plan_requirements.h"

#include <yaml-cpp/yaml.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "core/text_file.h"
#include "scenario/yaml_reader.h"
#include "scenario/yaml_text.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

// Defaults of the cost model, with their sources (docs/plan.md repeats them).
// US industrial electricity, 2023 average: 8.06 US cents per kWh (EIA,
// "Average retail electricity price for industrial consumers", via Statista,
// March 2024).
constexpr double kDefaultEnergyUsdPerKwh = 0.0806;
// New large data centers reach a PUE of 1.3 or better; the industry average
// was 1.58 in 2023 (Uptime Institute Global Data Center Survey 2023 and its
// 2024 report). An AI cluster is built new: 1.3.
constexpr double kDefaultPue = 1.3;

bool IsPositive(double v) { return v > 0; }
bool IsAtLeastOne(double v) { return v >= 1; }

// Calls `each` for every item of m.key: a list, or one scalar as a list of one.
void ForEachItem(const MapReader& m, const std::string& key,
                 const std::function<void(const YAML::Node&, const std::string&)>& each) {
  std::optional<YAML::Node> v = m.Get(key);
  if (!v) return;
  if (v->IsSequence()) {
    if (v->size() == 0) m.FailAt(key, "expected at least one value, got an empty list");
    for (size_t i = 0; i < v->size(); ++i) each((*v)[i], m.Path(key) + "." + std::to_string(i));
    return;
  }
  each(*v, m.Path(key));
}

template <typename E>
std::vector<E> EnumList(const MapReader& m, const std::string& key, std::vector<E> fallback,
                        std::initializer_list<EnumName<E>> names) {
  if (!m.Has(key)) return fallback;
  std::vector<E> out;
  ForEachItem(m, key, [&](const YAML::Node& n, const std::string& path) {
    if (std::optional<E> e = ReadEnum(m.diagnostics(), n, path, names)) out.push_back(*e);
  });
  return out;
}

constexpr std::initializer_list<EnumName<LoadBalancing>> kBalancing = {
    {"ecmp", LoadBalancing::kEcmp},
    {"flowlet", LoadBalancing::kFlowlet},
    {"spray", LoadBalancing::kSpray},
    {"adaptive", LoadBalancing::kAdaptive}};
constexpr std::initializer_list<EnumName<FabricKind>> kKinds = {{"ib", FabricKind::kIb},
                                                                 {"roce", FabricKind::kRoce}};

void ReadCluster(const MapReader& c, const Catalog& catalog, PlanRequirements& r) {
  c.AllowOnly({"gpus", "gpu", "gpus_per_server", "nics_per_gpu"});
  if (!c.Has("gpus")) c.Fail("gpus", "required, missing (the number of GPUs of the cluster)");
  r.gpus = static_cast<int>(c.Int("gpus", 0, 1, 1 << 20));
  r.gpu = c.String("gpu", r.gpu);
  if (!catalog.FindGpu(r.gpu)) {
    std::string names;
    for (const GpuSpec& g : catalog.gpus()) names += (names.empty() ? "" : ", ") + g.name;
    c.FailAt("gpu", "unknown GPU '" + r.gpu + "'; the catalog has " + names);
  }
  r.gpus_per_server = static_cast<int>(c.Int("gpus_per_server", 8, 1, 64));
  r.nics_per_gpu = c.Number("nics_per_gpu", 1.0, IsPositive, "a number > 0");
  if (c.diagnostics().ok() && r.gpus % r.gpus_per_server != 0) {
    c.FailAt("gpus", "must be a multiple of gpus_per_server (" + std::to_string(r.gpus_per_server) + "), got " +
                         std::to_string(r.gpus));
  }
}

// The training entry as the scenario takes it; without dp (and without
// `parallelism`), dp = GPUs / (tp x pp): the job fills the cluster.
void FillDataParallel(const PlanRequirements& r, const MapReader& t, YAML::Node entry) {
  if (t.Has("dp") || t.Has("parallelism")) return;
  const YAML::Node tp = entry["tp"], pp = entry["pp"];
  int64_t tp_v = 1, pp_v = 1;
  try {
    if (tp) tp_v = tp.as<int64_t>();
    if (pp) pp_v = pp.as<int64_t>();
  } catch (const YAML::Exception&) {
    return;  // not integers: the scenario reader reports them
  }
  if (tp_v < 1 || pp_v < 1 || r.gpus % (tp_v * pp_v) != 0) {
    t.Fail("dp", "without dp the job fills the cluster, dp = gpus / (tp x pp), but " + std::to_string(r.gpus) +
                     " GPUs are not a multiple of tp x pp = " + std::to_string(tp_v * pp_v) + "; give dp");
    return;
  }
  entry["dp"] = r.gpus / (tp_v * pp_v);
}

// `key`: "workloads" (a plan) or "models" (--existing).
void ReadWorkloads(const MapReader& top, const std::string& key, PlanRequirements& r) {
  std::optional<YAML::Node> list = top.Get(key);
  if (!list) {
    top.Fail(key, "required, missing (the training or inference workloads the designs are judged on)");
    return;
  }
  if (!list->IsSequence() || list->size() == 0) {
    top.FailAt(key, "expected a list of workload items ({training: {...}} or {inference: {...}})");
    return;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const std::string path = key + "." + std::to_string(i);
    const MapReader item(top.diagnostics(), (*list)[i], path);
    item.AllowOnly({"name", "training", "inference"});
    const bool training = item.Has("training"), inference = item.Has("inference");
    if (training == inference) {
      item.Fail("training", "expected exactly one of training or inference");
      return;
    }
    PlanWorkload w;
    w.kind = training ? "training" : "inference";
    w.path = path;
    const MapReader body = item.Map(w.kind);
    if (!body.node().IsMap()) {
      item.FailAt(w.kind, "expected a map of the scenario's " + w.kind + " fields (docs/scenario.md)");
      return;
    }
    YAML::Node copy = YAML::Clone(body.node());
    if (training) FillDataParallel(r, body, copy);
    const YAML::Node model = copy["model"];
    w.model = model && model.IsScalar() ? model.Scalar() : (model && model["name"] ? model["name"].Scalar() : "");
    w.name = item.String("name", w.model.empty() ? w.kind + "-" + std::to_string(i) : w.model);
    // Names head columns of plan.csv: letters, digits, '.', '-', '_'.
    for (char c : w.name) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') {
        item.FailAt("name", "'" + w.name + "': use letters, digits, '.', '-' and '_' only");
        return;
      }
    }
    for (const PlanWorkload& other : r.workloads) {
      if (other.name == w.name) item.FailAt("name", "'" + w.name + "' names two workloads; give each a name");
    }
    YAML::Node wrapped;
    wrapped[w.kind] = copy;
    YAML::Emitter out;
    out << YAML::Flow << wrapped;
    w.entry_yaml = out.c_str();
    r.workloads.push_back(std::move(w));
  }
}

void ReadDesignSpace(const MapReader& m, PlanRequirements& r) {
  m.AllowOnly({"fabric_kind", "link_gbps", "topology", "oversubscription", "switches", "load_balancing"});
  DesignSpace& s = r.space;
  s.fabric_kinds = EnumList<FabricKind>(m, "fabric_kind", s.fabric_kinds, kKinds);
  if (m.Has("link_gbps")) {
    s.link_gbps.clear();
    ForEachItem(m, "link_gbps", [&](const YAML::Node& n, const std::string& path) {
      if (std::optional<int64_t> v = ReadInt(m.diagnostics(), n, path, 1, 1 << 20)) {
        s.link_gbps.push_back(static_cast<int>(*v));
      }
    });
  }
  s.topologies = EnumList<TopologyType>(m, "topology", s.topologies,
                                        {{"rail_optimized", TopologyType::kRailOptimized},
                                         {"fat_tree", TopologyType::kFatTree},
                                         {"leaf_spine", TopologyType::kLeafSpine}});
  if (m.Has("oversubscription")) {
    s.oversubscription.clear();
    ForEachItem(m, "oversubscription", [&](const YAML::Node& n, const std::string& path) {
      if (std::optional<double> v = ReadNumber(m.diagnostics(), n, path, IsAtLeastOne, "a number >= 1")) {
        s.oversubscription.push_back(*v);
      }
    });
  }
  ForEachItem(m, "switches", [&](const YAML::Node& n, const std::string& path) {
    if (std::optional<std::string> v = ReadString(m.diagnostics(), n, path)) s.switches.push_back(*v);
  });
  const MapReader lb = m.Map("load_balancing");
  lb.AllowOnly({"ib", "roce"});
  s.ib_load_balancing = EnumList<LoadBalancing>(lb, "ib", s.ib_load_balancing, kBalancing);
  s.roce_load_balancing = EnumList<LoadBalancing>(lb, "roce", s.roce_load_balancing, kBalancing);
}

void ReadConstraints(const MapReader& m, PlanRequirements& r) {
  m.AllowOnly({"budget_usd", "power_kw", "max_oversubscription", "ecosystem", "min_slo_attainment"});
  PlanConstraints& c = r.constraints;
  if (m.Has("budget_usd")) c.budget_usd = m.Number("budget_usd", 0, IsPositive, "a number > 0 (US dollars)");
  if (m.Has("power_kw")) c.power_kw = m.Number("power_kw", 0, IsPositive, "a number > 0 (kW)");
  c.max_oversubscription = m.Number("max_oversubscription", c.max_oversubscription, IsAtLeastOne, "a number >= 1");
  c.min_slo_attainment = m.Number("min_slo_attainment", c.min_slo_attainment,
                                  [](double v) { return v >= 0 && v <= 1; }, "a share from 0 to 1");
  if (m.Has("ecosystem") && m.String("ecosystem", "") != "any") {
    c.ecosystem = m.Enum<FabricKind>("ecosystem", FabricKind::kRoce, kKinds);
  }
}

void ReadCosts(const MapReader& m, const std::string& base_dir, PlanRequirements& r) {
  m.AllowOnly({"years", "energy_usd_per_kwh", "pue", "prices", "cable_m"});
  PlanCosts& c = r.costs;
  c.years = static_cast<int>(m.Int("years", c.years, 1, 50));
  c.energy_usd_per_kwh = m.Number("energy_usd_per_kwh", kDefaultEnergyUsdPerKwh,
                                  [](double v) { return v >= 0; }, "a number >= 0 (US dollars per kWh)");
  c.pue = m.Number("pue", kDefaultPue, IsAtLeastOne, "a number >= 1 (facility power / IT power)");
  if (m.Has("prices")) {
    fs::path p = m.String("prices", "");
    if (p.is_relative()) p = fs::path(base_dir) / p;
    if (!fs::is_regular_file(p)) m.FailAt("prices", "no such file: " + p.string());
    c.prices_file = p.string();
  }
  const MapReader cable = m.Map("cable_m");
  cable.AllowOnly({"host", "leaf", "spine"});
  auto length = [](double v) { return v > 0 && v <= 10000; };
  c.cable.host_m = cable.Number("host", c.cable.host_m, length, "a length in meters in (0, 10000]");
  c.cable.leaf_m = cable.Number("leaf", c.cable.leaf_m, length, "a length in meters in (0, 10000]");
  c.cable.spine_m = cable.Number("spine", c.cable.spine_m, length, "a length in meters in (0, 10000]");
}

void ReadPacketCheck(const MapReader& m, PlanRequirements& r) {
  m.AllowOnly({"designs", "servers", "layers_per_stage"});
  PacketCheckSpec& c = r.packet_check;
  c.designs = static_cast<int>(m.Int("designs", c.designs, 0, 64));
  c.servers = static_cast<int>(m.Int("servers", c.servers, 1, PacketCheckSpec::kMaxServers));
  c.layers_per_stage = static_cast<int>(m.Int("layers_per_stage", c.layers_per_stage, 1, 1024));
}

// The text as a YAML map; `what` says what the map should hold.
Result<YAML::Node> ParseMap(const std::string& text, Diagnostics& d, const std::string& what) {
  Result<YAML::Node> root = ParseYamlText(text, d);
  if (!root) return root.error();
  if (!root->IsMap()) return Error{d.origin() + ": expected a map of " + what};
  return root;
}

}  // namespace

Result<PlanRequirements> ReadPlanRequirements(const std::string& text, const std::string& origin,
                                              const std::string& base_dir) {
  try {
    Diagnostics d(origin, {});
    Result<YAML::Node> root = ParseMap(text, d, "requirements (cluster, workloads, design_space, ...)");
    if (!root) return root.error();
    PlanRequirements r;
    r.base_dir = base_dir;
    const MapReader top(d, *root, "");
    top.AllowOnly({"name", "seed", "cluster", "workloads", "design_space", "constraints", "costs", "packet_check"});
    r.name = top.String("name", fs::path(origin).stem().string());
    // The default output folder is out/<name>-plan: keep it one folder inside out/.
    if (top.Has("name") && (r.name.empty() || r.name.find_first_of("/\\") != std::string::npos || r.name == "..")) {
      top.FailAt("name", "'" + r.name + "': the default output folder is out/<name>-plan, so a name may not be "
                         "empty or '..', nor hold '/' or '\\'");
    }
    r.seed = top.Unsigned("seed", 1);
    if (!top.Has("cluster")) top.Fail("cluster", "required, missing ({gpus, gpu, gpus_per_server})");
    ReadCluster(top.Map("cluster"), Catalog::BuiltIn(), r);
    if (d.ok()) ReadWorkloads(top, "workloads", r);
    ReadDesignSpace(top.Map("design_space"), r);
    ReadConstraints(top.Map("constraints"), r);
    ReadCosts(top.Map("costs"), base_dir, r);
    ReadPacketCheck(top.Map("packet_check"), r);
    if (!d.ok()) return d.error();
    return r;
  } catch (const std::exception& e) {
    return Error{origin + ": internal error while reading the requirements: " + e.what()};
  }
}

Result<FutureModels> ReadFutureModels(const std::string& text, const std::string& origin,
                                      const std::string& base_dir, const ExistingCluster& cluster) {
  try {
    Diagnostics d(origin, {});
    Result<YAML::Node> root = ParseMap(text, d, "future models (threshold, models, design_space, ...)");
    if (!root) return root.error();
    FutureModels f;
    PlanRequirements& r = f.requirements;
    r.base_dir = base_dir;
    r.name = cluster.name;
    r.seed = cluster.seed;
    r.gpus = cluster.gpus;
    r.gpu = cluster.gpu;
    r.gpus_per_server = cluster.gpus_per_server;
    const MapReader top(d, *root, "");
    top.AllowOnly({"models", "threshold", "nics_per_gpu", "design_space", "constraints", "costs"});
    // An upgrade is a new fabric: a NIC per GPU unless the file says otherwise.
    r.nics_per_gpu = top.Number("nics_per_gpu", 1.0, IsPositive, "a number > 0 (NICs per GPU of the upgrade designs)");
    if (!top.Has("threshold")) {
      top.Fail("threshold", "required, missing (the effective GPU utilization below which an upgrade is sought)");
    }
    f.threshold = top.Number("threshold", f.threshold, [](double v) { return v > 0 && v <= 1; },
                             "an effective GPU utilization in (0, 1]");
    f.upgrades = top.Has("design_space");
    // The upgrades are ranked by the flow level alone: no packet-level check.
    r.packet_check.designs = 0;
    ReadWorkloads(top, "models", r);
    for (const PlanWorkload& w : r.workloads) {
      if (w.kind != "training") top.Fail("models", w.path + ": --existing judges training models only");
    }
    ReadDesignSpace(top.Map("design_space"), r);
    ReadConstraints(top.Map("constraints"), r);
    ReadCosts(top.Map("costs"), base_dir, r);
    if (!d.ok()) return d.error();
    return f;
  } catch (const std::exception& e) {
    return Error{origin + ": internal error while reading the models: " + e.what()};
  }
}

Result<std::string> ReadInputFile(const std::string& path, const char* what) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return Error{path + ": cannot read the " + std::string(what) + " (not a regular file)"};
  // A requirements or models file is a page of YAML; refuse what cannot be one.
  if (fs::file_size(path, ec) > (16u << 20)) return Error{path + ": the " + std::string(what) + " is over 16 MiB"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{path + ": cannot read the " + std::string(what) + " (" + std::strerror(errno) + ")"};
  return ReadTextFile(path, 16u << 20);
}

std::string BaseDir(const std::string& path) {
  const std::string base = fs::path(path).parent_path().string();
  return base.empty() ? "." : base;
}

Result<PlanRequirements> ReadPlanRequirementsFile(const std::string& path) {
  Result<std::string> text = ReadInputFile(path, "requirements file");
  if (!text) return text.error();
  Result<PlanRequirements> r = ReadPlanRequirements(*text, path, BaseDir(path));
  if (r) r->source_file = path;
  return r;
}

Result<FutureModels> ReadFutureModelsFile(const std::string& path, const ExistingCluster& cluster) {
  Result<std::string> text = ReadInputFile(path, "models file");
  if (!text) return text.error();
  Result<FutureModels> f = ReadFutureModels(*text, path, BaseDir(path), cluster);
  if (f) f->requirements.source_file = path;
  return f;
}

}  // namespace aifabric
