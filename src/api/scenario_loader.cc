#include "api/scenario_loader.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include "api/scheduling_section.h"
#include "api/yaml_path.h"
#include "api/yaml_reader.h"
#include "core/units.h"

namespace aifabric {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kIntMax = INT_MAX;
constexpr uint64_t kMinMtu = 256;
constexpr uint64_t kMaxMtu = 64 * 1024;
constexpr uint64_t kMaxBytes = UINT64_MAX;

bool Positive(double v) {
  return v > 0;
}
bool AtLeastOne(double v) {
  return v >= 1;
}
bool Fraction(double v) {
  return v > 0 && v <= 1;
}

// What every reader needs besides the map it reads.
struct Context {
  Diagnostics& d;
  const Catalog& catalog;
  std::string base_dir;
  // fabric.qos.classes by name, for workload items' `class:` (filled while
  // reading fabric, which comes before workload).
  std::map<std::string, uint8_t>* classes = nullptr;
};

// Records "required, missing" for each of `keys` absent from `m`.
void Require(const MapReader& m, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (!m.Has(key)) m.Fail(key, "required, missing");
  }
}

template <typename T>
std::string Names(const std::vector<T>& items) {
  std::string out;
  for (const T& item : items) out += (out.empty() ? "" : ", ") + item.name;
  return out;
}

// Reads m.key as a path, resolves it against the scenario's folder and checks
// the file exists. Returns the resolved path ("" after an error).
std::string ResolveFile(const Context& c, const MapReader& m, const std::string& key) {
  std::optional<YAML::Node> v = m.Get(key);
  if (!v) {
    m.Fail(key, "required, missing (a file path)");
    return "";
  }
  std::optional<std::string> text = ReadString(c.d, *v, m.Path(key));
  if (!text) return "";
  fs::path p(*text);
  if (p.is_relative()) p = fs::path(c.base_dir.empty() ? "." : c.base_dir) / p;
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec).lexically_normal();
  if (ec) abs = p.lexically_normal();
  if (!fs::is_regular_file(abs, ec)) {
    c.d.Fail(*v, m.Path(key), "file not found: " + abs.string());
    return "";
  }
  return abs.string();
}

// ---- cluster ---------------------------------------------------------------

void ReadNic(const Context& c, const MapReader& nic, Scenario& s) {
  nic.AllowOnly({"rate", "model", "per_gpu"});
  DataRate rate = nic.Rate("rate", DataRate::Gbps(400));
  if (nic.Has("model")) {
    const std::string model = nic.String("model", "");
    const NicSpec* spec = c.catalog.FindNic(model);
    if (spec == nullptr) {
      nic.FailAt("model", "unknown NIC '" + model + "'; the catalog has " + Names(c.catalog.nics()));
    } else if (nic.Has("rate") && spec->rate != rate) {
      nic.FailAt("rate", "rate " + FormatRate(rate) + " disagrees with model " + spec->name + " (" +
                             FormatRate(spec->rate) + "); give one of them");
    } else {
      rate = spec->rate;
      s.nic_model = spec->name;
    }
  }
  s.topology.nic_rate = rate;
  s.nics_per_gpu = nic.Number("per_gpu", 1.0, Positive, "a number > 0");
}

// nics_per_server = gpus_per_server * per_gpu must be a whole number >= 1.
void DeriveNicsPerServer(const MapReader& nic, Scenario& s) {
  const double nics = s.server.gpus_per_server * s.nics_per_gpu;
  const double whole = std::round(nics);
  if (std::fabs(nics - whole) > 1e-9 || whole < 1 || whole > kIntMax) {
    std::ostringstream what;
    what << "gpus_per_server (" << s.server.gpus_per_server << ") * per_gpu (" << s.nics_per_gpu << ") = " << nics
         << " NICs per server; expected a whole number >= 1";
    nic.FailAt("per_gpu", what.str());
    return;
  }
  s.topology.nics_per_server = static_cast<int>(whole);
}

void ReadCluster(const Context& c, const MapReader& cluster, Scenario& s) {
  cluster.AllowOnly({"servers", "gpus_per_server", "gpu", "nic", "nvlink"});
  s.topology.servers = static_cast<int>(cluster.Int("servers", 1, 1, kIntMax));
  s.server.gpus_per_server = static_cast<int>(cluster.Int("gpus_per_server", 8, 1, kIntMax));
  const std::string gpu = cluster.String("gpu", "H100");
  if (const GpuSpec* spec = c.catalog.FindGpu(gpu)) {
    s.gpu = *spec;
  } else {
    cluster.FailAt("gpu", "unknown GPU '" + gpu + "'; the catalog has " + Names(c.catalog.gpus()));
  }
  // Inside a server: each GPU's NVLink bandwidth per direction (the
  // catalog's, unless given) and the NVLink latency.
  MapReader nvlink = cluster.Map("nvlink");
  nvlink.AllowOnly({"bandwidth", "latency"});
  // The rate NCCL achieves, not the datasheet's (data/catalog.yaml).
  const DataRate catalog_nvlink =
      DataRate::BitsPerSecond(static_cast<uint64_t>(s.gpu.nvlink_achievable_gbps_per_dir * 8e9));
  s.server.nvlink_per_dir = nvlink.Rate("bandwidth", catalog_nvlink.IsZero() ? s.server.nvlink_per_dir : catalog_nvlink);
  s.server.nvlink_latency = nvlink.TimeValue("latency", s.server.nvlink_latency);
  MapReader nic = cluster.Map("nic");
  ReadNic(c, nic, s);
  if (c.d.ok()) DeriveNicsPerServer(nic, s);
}

// ---- fabric ----------------------------------------------------------------

void ReadTopologyFile(const Context& c, const MapReader& t, TopologySpec& spec) {
  t.AllowOnly({"format", "file", "oversubscription", "agg_oversubscription"});
  if (!t.Has("format")) t.Fail("format", "required, missing (hpcc or lingjun)");
  spec.type =
      t.Enum<TopologyType>("format", TopologyType::kHpccFile,
                           {{"hpcc", TopologyType::kHpccFile}, {"lingjun", TopologyType::kLingjunFile}});
  spec.file = ResolveFile(c, t, "file");
  // A Lingjun file names switch groups but not their cables, which are sized
  // from these ratios; an HPCC file lists every link itself.
  for (const char* key : {"oversubscription", "agg_oversubscription"}) {
    if (spec.type == TopologyType::kHpccFile && t.Has(key)) {
      t.Fail(key, "only used with format lingjun (an HPCC topology.txt lists its links)");
    }
  }
  spec.oversubscription = t.Number("oversubscription", 1.0, AtLeastOne, "a number >= 1");
  spec.agg_oversubscription = t.Number("agg_oversubscription", 1.0, AtLeastOne, "a number >= 1");
}

void ReadTopologyBuilder(const MapReader& t, TopologySpec& spec) {
  t.AllowOnly({"type", "oversubscription", "agg_oversubscription", "hosts_per_leaf", "spines", "k",
               "leaves_per_pod", "aggs_per_pod", "cores"});
  spec.type = t.Enum<TopologyType>("type", TopologyType::kLeafSpine,
                                   {{"leaf_spine", TopologyType::kLeafSpine},
                                    {"fat_tree", TopologyType::kFatTree},
                                    {"rail_optimized", TopologyType::kRailOptimized}});
  spec.oversubscription = t.Number("oversubscription", 1.0, AtLeastOne, "a number >= 1");
  spec.agg_oversubscription = t.Number("agg_oversubscription", 1.0, AtLeastOne, "a number >= 1");
  spec.hosts_per_leaf = static_cast<int>(t.Int("hosts_per_leaf", 0, 0, kIntMax));
  spec.spines = static_cast<int>(t.Int("spines", 0, 0, kIntMax));
  spec.k = static_cast<int>(t.Int("k", 0, 0, kIntMax));
  spec.leaves_per_pod = static_cast<int>(t.Int("leaves_per_pod", 0, 0, kIntMax));
  spec.aggs_per_pod = static_cast<int>(t.Int("aggs_per_pod", 0, 0, kIntMax));
  spec.cores = static_cast<int>(t.Int("cores", 0, 0, kIntMax));
}

void ReadTopology(const Context& c, const MapReader& t, TopologySpec& spec) {
  if (t.Has("format") || t.Has("file")) {
    ReadTopologyFile(c, t, spec);
  } else {
    ReadTopologyBuilder(t, spec);
  }
}

SwitchSpec ReadInlineSwitch(const MapReader& m) {
  m.AllowOnly({"name", "radix", "port_rate", "latency", "buffer", "capacity_tbps"});
  Require(m, {"radix", "port_rate", "latency", "buffer"});
  SwitchSpec spec;
  spec.name = m.String("name", "custom");
  spec.radix = static_cast<int>(m.Int("radix", 1, 1, kIntMax));
  spec.port_rate = m.Rate("port_rate", DataRate::Gbps(400));
  spec.latency = m.TimeValue("latency", Time::Zero());
  spec.buffer_bytes = m.Size("buffer", 1, 1, kMaxBytes);
  // Default capacity: every port at full rate in both directions.
  const double all_ports_tbps = spec.radix * spec.port_rate.gbps() * 2 / 1000;
  spec.capacity_tbps = m.Number("capacity_tbps", all_ports_tbps, Positive, "a number > 0");
  spec.source = "inline in the scenario";
  return spec;
}

void ReadSwitch(const Context& c, const MapReader& fabric, TopologySpec& spec) {
  std::optional<YAML::Node> node = fabric.Get("switch");
  const std::string path = fabric.Path("switch");
  if (node && node->IsMap()) {
    spec.switch_spec = ReadInlineSwitch(MapReader(c.d, *node, path));
    return;
  }
  const std::string name = fabric.String("switch", "128x400G");
  if (const SwitchSpec* found = c.catalog.FindSwitch(name)) {
    spec.switch_spec = *found;
  } else {
    fabric.FailAt("switch", "unknown switch '" + name + "'; the catalog has " + Names(c.catalog.switches()) +
                                " (or give an inline map {radix, port_rate, latency, buffer})");
  }
}

// fabric.qos.strict: a list of distinct priorities 0..7.
void ReadStrict(const Context& c, const YAML::Node& list, const std::string& path, PacketConfig& packet) {
  if (!list.IsSequence()) {
    c.d.Fail(list, path, "expected a list of priorities 0..7, got " + Describe(list));
    return;
  }
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string item_path = path + "." + std::to_string(i);
    std::optional<int64_t> p = ReadInt(c.d, list[i], item_path, 0, kNumPriorities - 1);
    if (!p) continue;
    if (packet.queues[*p].strict) {
      c.d.Fail(list[i], item_path, "priority " + std::to_string(*p) + " listed twice");
    }
    packet.queues[*p].strict = true;
  }
}

// fabric.qos.weights: exactly one DWRR weight >= 1 per priority.
void ReadWeights(const Context& c, const YAML::Node& list, const std::string& path, PacketConfig& packet) {
  if (!list.IsSequence() || list.size() != kNumPriorities) {
    const std::string found = list.IsSequence() ? std::to_string(list.size()) + " items" : Describe(list);
    c.d.Fail(list, path, "expected a list of exactly 8 integers >= 1, got " + found);
    return;
  }
  for (int i = 0; i < kNumPriorities; ++i) {
    std::optional<int64_t> w = ReadInt(c.d, list[i], path + "." + std::to_string(i), 1, UINT32_MAX);
    if (w) packet.queues[i].dwrr_weight = static_cast<uint32_t>(*w);
  }
}

// fabric.qos.classes: named traffic classes, each on a priority (the DSCP
// or SL that maps to it is recorded for outputs), strict or weighted, and
// lossless (PFC) or lossy.
void ReadQosClasses(const Context& c, const YAML::Node& list, const std::string& path, Scenario& s) {
  if (!list.IsSequence()) {
    c.d.Fail(list, path, "expected a list of classes {name, priority, ...}, got " + Describe(list));
    return;
  }
  PacketConfig& packet = s.packet;
  bool any_lossless_key = false;
  uint8_t lossless = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    MapReader m(c.d, list[i], path + "." + std::to_string(i));
    m.AllowOnly({"name", "priority", "dscp", "sl", "scheduler", "weight", "lossless"});
    Require(m, {"name", "priority"});
    QosClass q;
    q.name = m.String("name", "");
    q.priority = static_cast<uint8_t>(m.Int("priority", 0, 0, kNumPriorities - 1));
    q.dscp = static_cast<int>(m.Int("dscp", -1, 0, 63));
    q.sl = static_cast<int>(m.Int("sl", -1, 0, 15));
    const bool strict = m.Enum<bool>("scheduler", false, {{"dwrr", false}, {"strict", true}});
    packet.queues[q.priority].strict = strict;
    packet.queues[q.priority].dwrr_weight = static_cast<uint32_t>(m.Int("weight", 1, 1, UINT32_MAX));
    if (m.Has("lossless")) {
      any_lossless_key = true;
      if (m.Bool("lossless", false)) lossless |= static_cast<uint8_t>(1u << q.priority);
    }
    if (c.classes->count(q.name) != 0) m.FailAt("name", "class '" + q.name + "' defined twice");
    (*c.classes)[q.name] = q.priority;
    s.qos_classes.push_back(q);
  }
  if (any_lossless_key) packet.pfc.lossless_mask = lossless;
}

void ReadQos(const Context& c, const MapReader& qos, Scenario& s) {
  qos.AllowOnly({"strict", "weights", "classes"});
  if (std::optional<YAML::Node> strict = qos.Get("strict")) ReadStrict(c, *strict, qos.Path("strict"), s.packet);
  if (std::optional<YAML::Node> weights = qos.Get("weights")) {
    ReadWeights(c, *weights, qos.Path("weights"), s.packet);
  }
  if (std::optional<YAML::Node> classes = qos.Get("classes")) ReadQosClasses(c, *classes, qos.Path("classes"), s);
}

// fabric.load_balancing: a mode, or {mode, flowlet_gap, spray}.
void ReadLoadBalancing(const MapReader& fabric, PacketConfig& packet) {
  static const std::initializer_list<EnumName<LoadBalancing>> kModes = {{"ecmp", LoadBalancing::kEcmp},
                                                                        {"flowlet", LoadBalancing::kFlowlet},
                                                                        {"spray", LoadBalancing::kSpray},
                                                                        {"adaptive", LoadBalancing::kAdaptive}};
  std::optional<YAML::Node> v = fabric.Get("load_balancing");
  if (!v || v->IsScalar()) {
    packet.load_balancing = fabric.Enum<LoadBalancing>("load_balancing", LoadBalancing::kEcmp, kModes);
    return;
  }
  MapReader m = fabric.Map("load_balancing");
  m.AllowOnly({"mode", "flowlet_gap", "spray"});
  packet.load_balancing = m.Enum<LoadBalancing>("mode", LoadBalancing::kEcmp, kModes);
  packet.flowlet_gap = m.TimeValue("flowlet_gap", packet.flowlet_gap);
  packet.spray_round_robin = m.Enum<bool>("spray", false, {{"random", false}, {"round_robin", true}});
}

// fabric.ib.sl2vl: the VL (0..7) of each SL 0..7.
void ReadSl2Vl(const Context& c, const MapReader& ib, PacketConfig& packet) {
  std::optional<YAML::Node> list = ib.Get("sl2vl");
  if (!list) return;
  const std::string path = ib.Path("sl2vl");
  if (!list->IsSequence() || list->size() != kNumPriorities) {
    c.d.Fail(*list, path, "expected a list of 8 VLs (0..7), one per SL 0..7, got " + Describe(*list));
    return;
  }
  for (int sl = 0; sl < kNumPriorities; ++sl) {
    std::optional<int64_t> vl = ReadInt(c.d, (*list)[sl], path + "." + std::to_string(sl), 0, kNumPriorities - 1);
    if (vl) packet.ib.sl2vl[sl] = static_cast<uint8_t>(*vl);
  }
}

// fabric.ib.vlarb: {high: [{vl, weight}], low: [...], high_limit: 0..255}.
// Defaults are OpenSM's: VL0 alone in the high table (weight 4), VLs 1-7 in
// the low table (weight 4), LimitOfHighPriority 0 (one high packet, then a
// waiting low one).
void ReadVlArbitration(const Context& c, const MapReader& m, PacketConfig& packet) {
  m.AllowOnly({"high", "low", "high_limit"});
  packet.weighted_high = true;
  for (int vl = 0; vl < kNumPriorities; ++vl) {
    packet.queues[vl].strict = vl == 0;
    packet.queues[vl].dwrr_weight = 4;
  }
  for (const char* table : {"high", "low"}) {
    std::optional<YAML::Node> list = m.Get(table);
    if (!list) continue;
    const std::string path = m.Path(table);
    if (!list->IsSequence()) {
      c.d.Fail(*list, path, "expected a list of {vl, weight}, got " + Describe(*list));
      continue;
    }
    if (std::string(table) == "high") {
      for (int vl = 0; vl < kNumPriorities; ++vl) packet.queues[vl].strict = false;
    }
    for (size_t i = 0; i < list->size(); ++i) {
      MapReader e(c.d, (*list)[i], path + "." + std::to_string(i));
      e.AllowOnly({"vl", "weight"});
      Require(e, {"vl", "weight"});
      const int vl = static_cast<int>(e.Int("vl", 0, 0, kNumPriorities - 1));
      packet.queues[vl].strict = std::string(table) == "high";
      packet.queues[vl].dwrr_weight = static_cast<uint32_t>(e.Int("weight", 4, 1, 255));
    }
  }
  const int64_t limit = m.Int("high_limit", 0, 0, 255);
  packet.high_limit_bytes = limit == 255 ? kUnboundedHighPriority : static_cast<uint64_t>(limit) * 4096;
}

// fabric.ib.congestion_control: true/false or a map of the switch marking
// (SwitchCongestionSetting) and adapter (CACongestionSetting, CCT) knobs.
void ReadIbCongestionControl(const Context& c, const MapReader& ib, Scenario& s) {
  std::optional<YAML::Node> v = ib.Get("congestion_control");
  if (!v) return;
  IbCcMarkingConfig& sw = s.packet.ib.congestion_control;
  IbCcConfig& ca = s.transport.ib_cc;
  if (v->IsScalar()) {
    sw.enabled = ib.Bool("congestion_control", false);
  } else {
    MapReader m = ib.Map("congestion_control");
    m.AllowOnly({"enabled", "threshold", "marking_rate", "packet_size", "mark_victims", "ccti_increase", "ccti_min",
                 "ccti_limit", "ccti_timer", "cct"});
    sw.enabled = m.Bool("enabled", true);
    sw.threshold = static_cast<int>(m.Int("threshold", sw.threshold, 0, 15));
    sw.marking_rate = static_cast<uint32_t>(m.Int("marking_rate", sw.marking_rate, 0, 0xffff));
    sw.packet_size_bytes = static_cast<uint32_t>(m.Size("packet_size", sw.packet_size_bytes, 0, 0x3fc0));
    sw.mark_victims = m.Bool("mark_victims", sw.mark_victims);
    ca.ccti_increase = static_cast<int>(m.Int("ccti_increase", ca.ccti_increase, 0, 255));
    ca.ccti_timer = static_cast<uint32_t>(m.Int("ccti_timer", ca.ccti_timer, 1, 0xffff));
    if (std::optional<YAML::Node> list = m.Get("cct")) {
      const std::string path = m.Path("cct");
      if (!list->IsSequence() || list->size() == 0 || list->size() > 128) {
        c.d.Fail(*list, path, "expected a list of 1 to 128 inter-packet delays (e.g. [0ns, 40ns, 80ns]), got " +
                                  Describe(*list));
        return;
      }
      for (size_t i = 0; i < list->size(); ++i) {
        const YAML::Node& e = (*list)[i];
        Result<Time> t = e.IsScalar() ? ParseTime(e.Scalar()) : Result<Time>(Error{"not a scalar"});
        if (!t.ok() || t.value() < Time::Zero()) {
          c.d.Fail(e, path + "." + std::to_string(i), "expected a delay >= 0 such as 40ns, got " + Describe(e));
          return;
        }
        ca.cct.push_back(t.value());
      }
    }
    const int last = ca.cct.empty() ? 127 : static_cast<int>(ca.cct.size()) - 1;
    ca.ccti_limit = static_cast<int>(m.Int("ccti_limit", last, 0, last));
    ca.ccti_min = static_cast<int>(m.Int("ccti_min", ca.ccti_min, 0, ca.ccti_limit));
  }
  if (sw.enabled) s.transport.cc = CongestionControl::kIb;
}

// fabric.ib: InfiniBand routing, adaptive routing, VL buffers and
// congestion control.
void ReadIb(const Context& c, const MapReader& fabric, Scenario& s) {
  if (s.packet.kind != FabricKind::kIb) {
    if (fabric.Has("ib")) fabric.FailAt("ib", "only used with fabric.kind: ib");
    return;
  }
  MapReader m = fabric.Map("ib");
  m.AllowOnly({"adaptive_routing", "routing", "vl_buffer", "data_vls", "sl2vl", "vlarb", "congestion_control"});
  ReadSl2Vl(c, m, s.packet);
  ReadIbCongestionControl(c, m, s);
  // VL arbitration comes from fabric.ib.vlarb, or from fabric.qos's
  // scheduling keys, or else OpenSM's defaults; not from both.
  if (m.Has("vlarb") && fabric.Has("qos")) {
    m.FailAt("vlarb", "conflicts with fabric.qos: give the scheduling in one of them");
  } else if (!fabric.Has("qos")) {
    ReadVlArbitration(c, m.Map("vlarb"), s.packet);
  } else {
    s.packet.weighted_high = true;  // the strict queues share by weight, as an IB high table
  }
  if (m.Bool("adaptive_routing", false)) {
    if (fabric.Has("load_balancing") && s.packet.load_balancing != LoadBalancing::kAdaptive) {
      m.FailAt("adaptive_routing", "conflicts with fabric.load_balancing (adaptive routing is load_balancing: adaptive)");
    }
    s.packet.load_balancing = LoadBalancing::kAdaptive;
  }
  s.packet.ib.vl_buffer_bytes = m.Size("vl_buffer", 0, 0, kMaxBytes);
  s.packet.ib.data_vls = static_cast<uint32_t>(m.Int("data_vls", s.packet.ib.data_vls, 1, 15));
  std::optional<YAML::Node> routing = m.Get("routing");
  if (!routing || routing->IsScalar()) {
    s.ib_routing.engine = m.Enum<IbRouting::Engine>("routing", IbRouting::kMinHop,
                                                    {{"minhop", IbRouting::kMinHop},
                                                     {"ftree", IbRouting::kFtree},
                                                     {"shortest_paths", IbRouting::kShortestPaths}});
    return;
  }
  MapReader r = m.Map("routing");
  r.AllowOnly({"format", "file"});
  Require(r, {"format", "file"});
  s.ib_routing.engine = r.Enum<IbRouting::Engine>("format", IbRouting::kOpensmDump,
                                                  {{"opensm", IbRouting::kOpensmDump}, {"ibroute", IbRouting::kIbroute}});
  s.ib_routing.file = ResolveFile(c, r, "file");
}

// fabric.roce.pfc: true/false or a map.
void ReadPfc(const Context& c, const MapReader& roce, PacketConfig& packet) {
  std::optional<YAML::Node> v = roce.Get("pfc");
  if (v && v->IsScalar()) {
    packet.pfc.enabled = roce.Bool("pfc", true);
    return;
  }
  MapReader pfc = roce.Map("pfc");
  pfc.AllowOnly({"enabled", "lossless", "alpha", "xon_offset", "watchdog"});
  MapReader watchdog = pfc.Map("watchdog");
  watchdog.AllowOnly({"detection", "restoration", "action", "deadlock_check"});
  packet.pfc.watchdog_action = watchdog.Enum<PfcWatchdogAction>(
      "action", packet.pfc.watchdog_action, {{"drop", PfcWatchdogAction::kDrop}, {"forward", PfcWatchdogAction::kForward}});
  packet.pfc.deadlock_check_interval = watchdog.TimeValue("deadlock_check", packet.pfc.deadlock_check_interval);
  packet.pfc.watchdog_detection = watchdog.TimeValue("detection", packet.pfc.watchdog_detection);
  packet.pfc.watchdog_restoration = watchdog.TimeValue("restoration", packet.pfc.watchdog_restoration);
  packet.pfc.enabled = pfc.Bool("enabled", true);
  packet.pfc.alpha = pfc.Number("alpha", packet.pfc.alpha, Positive, "a number > 0");
  packet.pfc.xon_offset_bytes = static_cast<uint32_t>(pfc.Size("xon_offset", packet.pfc.xon_offset_bytes, 0, UINT32_MAX));
  if (std::optional<YAML::Node> lossless = pfc.Get("lossless")) {
    PacketConfig strict_probe;
    ReadStrict(c, *lossless, pfc.Path("lossless"), strict_probe);
    packet.pfc.lossless_mask = 0;
    for (int p = 0; p < kNumPriorities; ++p) {
      if (strict_probe.queues[p].strict) packet.pfc.lossless_mask |= static_cast<uint8_t>(1u << p);
    }
  }
}

// fabric.roce.ecn: true/false or a map of WRED thresholds.
void ReadEcn(const MapReader& roce, PacketConfig& packet) {
  std::optional<YAML::Node> v = roce.Get("ecn");
  if (v && v->IsScalar()) {
    packet.ecn.enabled = roce.Bool("ecn", true);
    return;
  }
  MapReader ecn = roce.Map("ecn");
  ecn.AllowOnly({"enabled", "kmin", "kmax", "pmax"});
  packet.ecn.enabled = ecn.Bool("enabled", true);
  packet.ecn.kmin_bytes = ecn.Size("kmin", 0, 0, kMaxBytes);
  packet.ecn.kmax_bytes = ecn.Size("kmax", 0, 0, kMaxBytes);
  packet.ecn.pmax = ecn.Number("pmax", packet.ecn.pmax, [](double x) { return x > 0 && x <= 1; }, "a number in (0, 1]");
  if (packet.ecn.kmin_bytes != 0 && packet.ecn.kmax_bytes <= packet.ecn.kmin_bytes) {
    ecn.FailAt("kmax", "must be larger than kmin");
  }
}

void ReadDcqcn(const MapReader& m, DcqcnConfig& d) {
  m.AllowOnly({"g", "alpha_period", "increase_period", "increase_bytes", "fast_recovery_steps", "additive_increase",
               "hyper_increase", "min_rate", "min_decrease_interval", "cnp_interval"});
  d.g = m.Number("g", d.g, [](double x) { return x > 0 && x <= 1; }, "a number in (0, 1]");
  d.alpha_period = m.TimeValue("alpha_period", d.alpha_period);
  d.increase_period = m.TimeValue("increase_period", d.increase_period);
  d.increase_bytes = m.Size("increase_bytes", d.increase_bytes, 1, kMaxBytes);
  d.fast_recovery_steps = static_cast<int>(m.Int("fast_recovery_steps", d.fast_recovery_steps, 0, 1000));
  if (m.Has("additive_increase")) d.additive_increase = m.Rate("additive_increase", d.additive_increase);
  if (m.Has("hyper_increase")) d.hyper_increase = m.Rate("hyper_increase", d.hyper_increase);
  d.min_rate = m.Rate("min_rate", d.min_rate);
  d.min_decrease_interval = m.TimeValue("min_decrease_interval", d.min_decrease_interval);
  d.cnp_interval = m.TimeValue("cnp_interval", d.cnp_interval);
}

// fabric.roce: PFC, ECN and congestion control; defaults are a common
// RoCEv2 deployment (PFC on priorities 3 and 4, ECN, DCQCN).
void ReadRoce(const Context& c, const MapReader& fabric, Scenario& s) {
  const bool roce = s.packet.kind == FabricKind::kRoce;
  if (!roce) {
    if (fabric.Has("roce")) fabric.FailAt("roce", "only used with fabric.kind: roce");
    s.transport.cc = CongestionControl::kNone;
    return;
  }
  MapReader m = fabric.Map("roce");
  m.AllowOnly({"pfc", "ecn", "cc", "dcqcn", "hpcc", "cnp_priority"});
  s.packet.pfc.enabled = true;
  ReadPfc(c, m, s.packet);
  s.packet.ecn.enabled = true;
  ReadEcn(m, s.packet);
  s.transport.cc = m.Enum<CongestionControl>("cc", CongestionControl::kDcqcn,
                                             {{"none", CongestionControl::kNone},
                                              {"dcqcn", CongestionControl::kDcqcn},
                                              {"hpcc", CongestionControl::kHpcc}});
  // HPCC steers by in-band telemetry the switches stamp.
  s.packet.int_telemetry = s.transport.cc == CongestionControl::kHpcc;
  ReadDcqcn(m.Map("dcqcn"), s.transport.dcqcn);
  MapReader hpcc = m.Map("hpcc");
  hpcc.AllowOnly({"eta", "max_stage"});
  s.transport.hpcc.eta = hpcc.Number("eta", s.transport.hpcc.eta, [](double x) { return x > 0 && x <= 1; },
                                     "a number in (0, 1]");
  s.transport.hpcc.max_stage = static_cast<int>(hpcc.Int("max_stage", s.transport.hpcc.max_stage, 0, 1000));
  s.transport.cnp_priority = static_cast<uint8_t>(m.Int("cnp_priority", s.transport.cnp_priority, 0, 7));
  if (s.transport.cc == CongestionControl::kDcqcn && !s.packet.ecn.enabled) {
    m.FailAt("cc", "dcqcn needs ECN marking (fabric.roce.ecn)");
  }
}

// fabric.transport: the RDMA transport on the NICs.
void ReadTransport(const MapReader& fabric, Scenario& s) {
  MapReader t = fabric.Map("transport");
  t.AllowOnly({"type", "recovery", "ack_interval", "rto", "qps"});
  s.packet.qps_per_transfer = static_cast<uint32_t>(t.Int("qps", 1, 1, 256));
  TransportConfig& tc = s.transport;
  tc.fabric = s.packet.kind;
  tc.kind = t.Enum<TransportKind>("type", TransportKind::kRc, {{"rc", TransportKind::kRc}, {"none", TransportKind::kNone}});
  tc.recovery = t.Enum<LossRecovery>("recovery", LossRecovery::kGoBackN,
                                     {{"go_back_n", LossRecovery::kGoBackN},
                                      {"selective_repeat", LossRecovery::kSelectiveRepeat}});
  tc.ack_interval = static_cast<uint32_t>(t.Int("ack_interval", tc.ack_interval, 1, 1 << 20));
  tc.rto = t.TimeValue("rto", tc.rto);
  if (tc.rto <= Time::Zero()) t.FailAt("rto", "must be > 0");
  if (tc.kind == TransportKind::kNone && tc.cc != CongestionControl::kNone) {
    t.FailAt("type", "congestion control needs a transport: use type rc, or turn it off (fabric.roce.cc: none, "
                "fabric.ib.congestion_control: false)");
  }
}

void ReadFabric(const Context& c, const MapReader& fabric, Scenario& s) {
  fabric.AllowOnly({"kind", "topology", "switch", "link", "mtu", "forwarding", "buffer", "qos",
                    "load_balancing", "ecmp_seed", "roce", "transport", "ib"});
  PacketConfig& packet = s.packet;
  packet.kind = fabric.Enum<FabricKind>("kind", FabricKind::kRoce,
                                        {{"roce", FabricKind::kRoce}, {"ib", FabricKind::kIb}});
  packet.wire_overhead_bytes = packet.kind == FabricKind::kIb ? kIbWireOverheadBytes : kRoceWireOverheadBytes;
  ReadTopology(c, fabric.Map("topology"), s.topology);
  ReadSwitch(c, fabric, s.topology);
  MapReader link = fabric.Map("link");
  link.AllowOnly({"latency"});
  s.topology.link_latency = link.TimeValue("latency", Time::FromNs(500));
  packet.mtu_bytes = static_cast<uint32_t>(fabric.Size("mtu", 4096, kMinMtu, kMaxMtu));
  packet.forwarding = fabric.Enum<Forwarding>(
      "forwarding", Forwarding::kStoreAndForward,
      {{"store_and_forward", Forwarding::kStoreAndForward}, {"cut_through", Forwarding::kCutThrough}});
  MapReader buffer = fabric.Map("buffer");
  buffer.AllowOnly({"alpha"});
  packet.buffer_alpha = buffer.Number("alpha", 1.0, Positive, "a number > 0");
  ReadQos(c, fabric.Map("qos"), s);
  ReadLoadBalancing(fabric, packet);
  packet.ecmp_seed = fabric.Unsigned("ecmp_seed", DefaultEcmpSeed(s.seed));
  ReadRoce(c, fabric, s);
  ReadIb(c, fabric, s);
  ReadTransport(fabric, s);
}

// ---- workload --------------------------------------------------------------

// `priority: 0..7` or `class: <name of a fabric.qos.classes entry>`.
uint8_t Priority(const Context& c, const MapReader& m) {
  if (m.Has("class")) {
    if (m.Has("priority")) m.FailAt("class", "give either class or priority, not both");
    const std::string name = m.String("class", "");
    const auto it = c.classes->find(name);
    if (it != c.classes->end()) return it->second;
    std::string known;
    for (const auto& [n, p] : *c.classes) known += (known.empty() ? "" : ", ") + n;
    m.FailAt("class", "unknown class '" + name + "'; fabric.qos.classes defines " + (known.empty() ? "none" : known));
    return 0;
  }
  return static_cast<uint8_t>(m.Int("priority", 3, 0, kNumPriorities - 1));
}
uint64_t TrafficSize(const MapReader& m) {
  return m.Size("size", 1 << 20, 1, kMaxBytes);
}
NodeId ReadNodeId(const MapReader& m, const std::string& key, NodeId fallback) {
  return static_cast<NodeId>(m.Int(key, fallback, 0, kIntMax));
}

FlowSpec ReadFlow(const Context& c, const MapReader& m) {
  m.AllowOnly({"src", "dst", "size", "start", "priority", "class", "dport"});
  Require(m, {"src", "dst", "size"});
  FlowSpec flow;
  flow.src = ReadNodeId(m, "src", kNoNode);
  flow.dst = ReadNodeId(m, "dst", kNoNode);
  if (m.Has("src") && m.Has("dst") && flow.src == flow.dst && flow.src != kNoNode) {
    m.FailAt("dst", "expected a node other than src, got " + std::to_string(flow.dst));
  }
  flow.bytes = m.Size("size", 0, 1, kMaxBytes);
  flow.start = m.TimeValue("start", Time::Zero());
  flow.priority = Priority(c, m);
  flow.dport = static_cast<uint16_t>(m.Int("dport", 4791, 0, 65535));
  return flow;
}

std::optional<TrafficSpec> ReadFlows(const Context& c, const YAML::Node& node, const std::string& path) {
  if (node.IsSequence()) {
    FlowListSpec list;
    for (size_t i = 0; i < node.size(); ++i) {
      list.flows.push_back(ReadFlow(c, MapReader(c.d, node[i], path + "." + std::to_string(i))));
    }
    return list;
  }
  if (node.IsMap()) {
    MapReader m(c.d, node, path);
    m.AllowOnly({"format", "file"});
    if (!m.Has("format")) m.Fail("format", "required, missing (hpcc)");
    m.Enum<int>("format", 0, {{"hpcc", 0}});
    return HpccFlowFileSpec{ResolveFile(c, m, "file")};
  }
  c.d.Fail(node, path, "expected a list of flows or a map {format: hpcc, file: ...}, got " + Describe(node));
  return std::nullopt;
}

PermutationSpec ReadPermutation(const Context& c, const MapReader& m) {
  m.AllowOnly({"size", "start", "priority", "class"});
  PermutationSpec spec;
  spec.bytes = TrafficSize(m);
  spec.start = m.TimeValue("start", Time::Zero());
  spec.priority = Priority(c, m);
  return spec;
}

IncastSpec ReadIncast(const Context& c, const MapReader& m) {
  m.AllowOnly({"senders", "receiver", "size", "start", "priority", "class"});
  IncastSpec spec;
  spec.senders = static_cast<int>(m.Int("senders", 8, 1, kIntMax));
  spec.receiver = ReadNodeId(m, "receiver", kNoNode);
  spec.bytes = TrafficSize(m);
  spec.start = m.TimeValue("start", Time::Zero());
  spec.priority = Priority(c, m);
  return spec;
}

AllToAllSpec ReadAllToAll(const Context& c, const MapReader& m) {
  m.AllowOnly({"size", "start", "priority", "class"});
  AllToAllSpec spec;
  spec.bytes = TrafficSize(m);
  spec.start = m.TimeValue("start", Time::Zero());
  spec.priority = Priority(c, m);
  return spec;
}

PoissonSpec ReadPoisson(const Context& c, const MapReader& m) {
  m.AllowOnly({"load", "cdf", "start", "duration", "priority", "class"});
  PoissonSpec spec;
  spec.load = m.Number("load", 0.3, Fraction, "a number in (0, 1]");
  spec.cdf_file = ResolveFile(c, m, "cdf");
  spec.start = m.TimeValue("start", Time::Zero());
  spec.duration = m.TimeValue("duration", Time::FromMs(1));
  if (m.Has("duration") && spec.duration == Time::Zero()) m.FailAt("duration", "expected a time > 0, got 0");
  spec.priority = Priority(c, m);
  return spec;
}

constexpr const char* kWorkloadKinds = "flows, permutation, incast, all_to_all, poisson, training, chakra, inference";

// The serving model's description from a catalog model (the two share
// their names; docs/inference.md). MLA serves as multi-head attention with
// its cached width; moe_layer_freq > 1 is refused.
Result<InferenceModel> ServingModel(const ModelSpec& m) {
  if (m.moe() && m.moe_layer_freq != 1) return Error{"MoE layers every " + std::to_string(m.moe_layer_freq) +
                                                      " layers are not modelled for serving"};
  InferenceModel s;
  s.name = m.name;
  s.layers = m.layers;
  s.hidden = static_cast<int32_t>(m.hidden);
  s.heads = m.heads;
  s.kv_heads = m.kv_heads_or_default();
  s.head_dim = m.head_dim;
  s.ffn_hidden = static_cast<int32_t>(m.ffn_hidden);
  s.vocab = static_cast<int32_t>(m.vocab);
  s.mlp_matrices = m.gated_mlp ? 3 : 2;
  s.tied_embeddings = m.tied_embeddings;
  s.experts = m.experts;
  s.top_k = m.top_k;
  s.expert_ffn = static_cast<int32_t>(m.expert_ffn_hidden);
  s.shared_experts = m.shared_experts;
  s.dense_layers = m.first_dense_layers;
  return s;
}

// workload: - inference: {model, tp, pp, replicas, rate, requests, ...}:
// LLM serving under load (workload/inference_server.h; docs/inference.md).
void ReadInference(const Context& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"model", "tp", "pp", "replicas", "disaggregated", "prefill_replicas", "decode_replicas",
               "max_num_batched_tokens", "max_num_seqs", "chunked_prefill", "router", "rate", "requests",
               "input_tokens", "output_tokens", "ttft_slo", "tpot_slo", "layers_per_block", "compute_efficiency"});
  Require(m, {"model"});
  if (!c.d.ok()) return;
  Scenario::Inference inf;
  inf.path = path;
  InferenceSpec& sp = inf.spec;
  Result<ModelSpec> model = FindModel(m.String("model", ""));
  if (!model.ok()) {
    m.FailAt("model", model.error().message);
    return;
  }
  Result<InferenceModel> serving = ServingModel(*model);
  if (!serving.ok()) {
    m.FailAt("model", serving.error().message);
    return;
  }
  sp.model = *serving;
  sp.gpu.peak_flops = s.gpu.bf16_dense_tflops * 1e12;
  sp.gpu.hbm_bytes_per_s = s.gpu.hbm_tbps * 1e12;
  sp.gpu.hbm_bytes = static_cast<double>(s.gpu.hbm_bytes);
  sp.gpu.compute_efficiency =
      m.Number("compute_efficiency", sp.gpu.compute_efficiency, [](double x) { return x > 0 && x <= 1; }, "a number in (0, 1]");
  sp.tp = static_cast<int32_t>(m.Int("tp", sp.tp, 1, 1 << 16));
  sp.pp = static_cast<int32_t>(m.Int("pp", sp.pp, 1, 1 << 16));
  sp.replicas = static_cast<int32_t>(m.Int("replicas", sp.replicas, 1, 1 << 20));
  sp.disaggregated = m.Bool("disaggregated", false);
  sp.prefill_replicas = static_cast<int32_t>(m.Int("prefill_replicas", sp.prefill_replicas, 1, 1 << 20));
  sp.decode_replicas = static_cast<int32_t>(m.Int("decode_replicas", sp.decode_replicas, 1, 1 << 20));
  sp.max_num_batched_tokens = static_cast<uint32_t>(m.Int("max_num_batched_tokens", sp.max_num_batched_tokens, 1, 1 << 24));
  sp.max_num_seqs = static_cast<uint32_t>(m.Int("max_num_seqs", sp.max_num_seqs, 1, 1 << 20));
  sp.chunked_prefill = m.Bool("chunked_prefill", false);
  sp.router = m.Enum<InferenceRouter>("router", InferenceRouter::kRoundRobin,
                                      {{"round_robin", InferenceRouter::kRoundRobin},
                                       {"least_loaded", InferenceRouter::kLeastLoaded}});
  sp.rate_per_s = m.Number("rate", sp.rate_per_s, Positive, "requests per second > 0");
  sp.num_requests = static_cast<uint32_t>(m.Int("requests", sp.num_requests, 1, 1'000'000));
  for (const char* key : {"input_tokens", "output_tokens"}) {
    MapReader t = m.Map(key);
    t.AllowOnly({"min", "max"});
    const bool input = std::string(key) == "input_tokens";
    uint32_t& lo = input ? sp.input_tokens_min : sp.output_tokens_min;
    uint32_t& hi = input ? sp.input_tokens_max : sp.output_tokens_max;
    lo = static_cast<uint32_t>(t.Int("min", lo, 1, 1 << 24));
    hi = static_cast<uint32_t>(t.Int("max", std::max<int64_t>(lo, hi), 1, 1 << 24));
    if (hi < lo) t.FailAt("max", "must be >= min");
  }
  sp.ttft_slo_ms = m.TimeValue("ttft_slo", Time::FromMs(2000)).seconds() * 1e3;
  sp.tpot_slo_ms = m.TimeValue("tpot_slo", Time::FromMs(200)).seconds() * 1e3;
  sp.layers_per_block = static_cast<int32_t>(m.Int("layers_per_block", 1, 1, 1 << 16));
  if (c.d.ok()) s.inferences.push_back(std::move(inf));
}

// workload: - chakra: {traces: PREFIX, comm_groups: FILE, skip_cpu_ops}:
// Chakra execution traces PREFIX.0.et, PREFIX.1.et, ... (docs/chakra.md).
void ReadChakra(const Context& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"traces", "comm_groups", "skip_cpu_ops"});
  Require(m, {"traces"});
  if (!c.d.ok()) return;
  Scenario::ChakraJob job;
  job.path = path;
  fs::path prefix(m.String("traces", ""));
  if (prefix.is_relative()) prefix = fs::path(c.base_dir.empty() ? "." : c.base_dir) / prefix;
  job.prefix = prefix.lexically_normal().string();
  std::error_code ec;
  if (!fs::is_regular_file(job.prefix + ".0.et", ec)) {
    m.FailAt("traces", "no trace file " + job.prefix + ".0.et (expected PREFIX.0.et, PREFIX.1.et, ...)");
    return;
  }
  if (m.Has("comm_groups")) job.comm_groups = ResolveFile(c, m, "comm_groups");
  job.skip_cpu_ops = m.Bool("skip_cpu_ops", false);
  if (c.d.ok()) s.chakras.push_back(std::move(job));
}

// workload: - training: {model, tp, pp, dp, ...}: one LLM training step
// (workload/training_step.h; docs/training.md). GPU peak and HBM come from
// cluster.gpu.
void ReadTraining(const Context& c, const YAML::Node& value, const std::string& path, Scenario& s) {
  const MapReader m(c.d, value, path);
  m.AllowOnly({"model", "tp", "pp", "dp", "ep", "sequence_parallel", "distributed_optimizer", "bucket", "overlap",
               "global_batch", "micro_batch", "seq_len", "recompute", "compute_efficiency", "layers_per_node",
               "checkpoint"});
  Require(m, {"model", "global_batch"});
  if (!c.d.ok()) return;
  Scenario::Training t;
  t.path = path;
  const YAML::Node model = value["model"];
  if (model.IsMap()) {
    Result<ModelSpec> spec = ReadModelSpec(model, c.d.origin(), m.Path("model"));
    if (!spec.ok()) {
      c.d.FailWith(spec.error());
      return;
    }
    t.model = *spec;
  } else {
    Result<ModelSpec> spec = FindModel(m.String("model", ""));
    if (!spec.ok()) {
      m.FailAt("model", spec.error().message);
      return;
    }
    t.model = *spec;
  }
  ParallelismSpec& p = t.parallelism;
  p.tp = static_cast<int>(m.Int("tp", 1, 1, 1 << 20));
  p.pp = static_cast<int>(m.Int("pp", 1, 1, 1 << 20));
  p.dp = static_cast<int>(m.Int("dp", 1, 1, 1 << 24));
  p.ep = static_cast<int>(m.Int("ep", 1, 1, 1 << 20));
  p.sequence_parallel = m.Bool("sequence_parallel", false);
  p.distributed_optimizer = m.Bool("distributed_optimizer", false);
  p.bucket_bytes = m.Size("bucket", p.bucket_bytes, 1, kMaxBytes);
  p.overlap_grad_reduce = m.Bool("overlap", true);
  p.layers_per_node = static_cast<int>(m.Int("layers_per_node", 1, 1, 1 << 20));
  TrainingSpec& tr = t.training;
  tr.global_batch = static_cast<int>(m.Int("global_batch", 0, 1, 1 << 28));
  tr.micro_batch = static_cast<int>(m.Int("micro_batch", 1, 1, 1 << 20));
  tr.seq_len = static_cast<int>(m.Int("seq_len", 0, 0, 1 << 24));
  tr.recompute = m.Bool("recompute", false);
  tr.compute_efficiency =
      m.Number("compute_efficiency", 0, [](double x) { return x >= 0 && x <= 1; }, "a number in [0, 1] (0: the calibration file's)");
  MapReader ck = m.Map("checkpoint");
  ck.AllowOnly({"storage_servers", "bytes", "priority"});
  if (m.Has("checkpoint")) Require(ck, {"storage_servers"});
  t.storage_servers = static_cast<int>(ck.Int("storage_servers", 0, 0, 1 << 20));
  t.checkpoint_bytes = ck.Size("bytes", 0, 0, kMaxBytes);
  t.checkpoint_priority = static_cast<uint8_t>(ck.Int("priority", 1, 0, kNumPriorities - 1));
  tr.gpu_peak_tflops = s.gpu.bf16_dense_tflops;
  tr.hbm_bytes_per_s = s.gpu.hbm_tbps * 1e12;
  if (c.d.ok()) s.trainings.push_back(std::move(t));
}

// "2 keys (permutation, incast)", or how a non-map is described.
std::string DescribeKeys(const YAML::Node& node) {
  if (!node.IsMap()) return Describe(node);
  std::string keys;
  for (auto it = node.begin(); it != node.end(); ++it) keys += (keys.empty() ? "" : ", ") + it->first.Scalar();
  return std::to_string(node.size()) + " keys" + (keys.empty() ? "" : " (" + keys + ")");
}

std::optional<TrafficSpec> ReadWorkloadItem(const Context& c, const MapReader& item, Scenario& s) {
  item.AllowOnly({"flows", "permutation", "incast", "all_to_all", "poisson", "training", "chakra", "inference"});
  if (!c.d.ok()) return std::nullopt;
  const YAML::Node& node = item.node();
  if (!node.IsMap() || node.size() != 1) {
    c.d.Fail(node, item.path(),
             std::string("expected a map with exactly one of ") + kWorkloadKinds + ", got " + DescribeKeys(node));
    return std::nullopt;
  }
  const std::string kind = node.begin()->first.Scalar();
  const YAML::Node value = node.begin()->second;
  const std::string path = item.Path(kind);
  if (kind == "flows") return ReadFlows(c, value, path);
  if (kind == "training") {
    ReadTraining(c, value, path, s);
    return std::nullopt;
  }
  if (kind == "chakra") {
    ReadChakra(c, value, path, s);
    return std::nullopt;
  }
  if (kind == "inference") {
    ReadInference(c, value, path, s);
    return std::nullopt;
  }
  const MapReader m(c.d, value, path);
  if (kind == "permutation") return ReadPermutation(c, m);
  if (kind == "incast") return ReadIncast(c, m);
  if (kind == "all_to_all") return ReadAllToAll(c, m);
  return ReadPoisson(c, m);
}

void ReadWorkload(const Context& c, const MapReader& top, Scenario& s) {
  std::optional<YAML::Node> list = top.Get("workload");
  if (!list) return;
  if (!list->IsSequence()) {
    c.d.Fail(*list, "workload",
             std::string("expected a list of items, each a map with one of ") + kWorkloadKinds + ", got " +
                 Describe(*list));
    return;
  }
  for (size_t i = 0; i < list->size() && c.d.ok(); ++i) {
    MapReader item(c.d, (*list)[i], "workload." + std::to_string(i));
    std::optional<TrafficSpec> spec = ReadWorkloadItem(c, item, s);
    if (spec) s.workload.push_back(std::move(*spec));
  }
}

// ---- top level -------------------------------------------------------------

void ReadSimulation(const MapReader& sim, Scenario& s) {
  sim.AllowOnly({"model", "collectives", "until", "telemetry"});
  s.model = sim.Enum<std::string>("model", "packet",
                                  {{"packet", "packet"}, {"flow", "flow"}, {"analytic", "analytic"}});
  s.collectives = sim.Enum<std::string>("collectives", "auto",
                                        {{"auto", "auto"}, {"steps", "steps"}, {"coflow", "coflow"}});
  if (s.collectives == "coflow" && s.model == "packet") {
    sim.FailAt("collectives", "coflow needs the flow or analytic model (simulation.model is packet)");
  }
  s.until = sim.TimeValue("until", Time::Infinite());
  if (sim.Has("until") && s.until == Time::Zero()) sim.FailAt("until", "expected a time > 0, got 0");
  const MapReader telemetry = sim.Map("telemetry");
  telemetry.AllowOnly({"enabled", "interval", "max_points"});
  s.telemetry.enabled = telemetry.Bool("enabled", true);
  s.telemetry.interval = telemetry.TimeValue("interval", Time::FromUs(10));
  if (s.telemetry.interval < Time::FromNs(100)) {
    telemetry.FailAt("interval", "expected a sampling interval of at least 100ns, got " +
                                     std::to_string(s.telemetry.interval.ps()) + " ps");
  }
  s.telemetry.max_points = telemetry.Unsigned("max_points", 512);
  if (s.telemetry.max_points < 4 || s.telemetry.max_points > 65536 || s.telemetry.max_points % 2 != 0) {
    telemetry.FailAt("max_points", "expected an even number of points from 4 to 65536, got " +
                                       std::to_string(s.telemetry.max_points));
  }
}

void ReadScenario(const Context& c, const YAML::Node& root, const std::string& default_name, Scenario& s) {
  MapReader top(c.d, root, "");
  top.AllowOnly({"name", "seed", "cluster", "fabric", "workload", "simulation", "scheduling"});
  s.name = top.String("name", default_name);
  s.seed = top.Unsigned("seed", 1);
  ReadCluster(c, top.Map("cluster"), s);
  ReadFabric(c, top.Map("fabric"), s);
  ReadWorkload(c, top, s);
  ReadSimulation(top.Map("simulation"), s);
  ReadSchedulingSection(top.Map("scheduling"), s);
}

std::string DefaultName(const std::string& origin) {
  std::string stem = fs::path(origin).stem().string();
  return stem.empty() ? "scenario" : stem;
}

// Parses `text` and applies the overrides; errors go to `d` or are returned.
Result<YAML::Node> ParseWithOverrides(const std::string& text, Diagnostics& d,
                                      const std::vector<SetOverride>& overrides) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    d.FailAt(e.mark, "invalid YAML: " + e.msg);
    return d.error();
  }
  for (const SetOverride& ov : overrides) {
    Status st = ApplySetOverride(root, ov);
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
    ReadScenario(Context{d, catalog, base_dir, &classes}, *root, DefaultName(origin), s);
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
  std::ostringstream text;
  text << in.rdbuf();
  const std::string base_dir = fs::path(path).parent_path().string();
  Result<Scenario> s = LoadScenarioText(text.str(), path, base_dir.empty() ? "." : base_dir, set_overrides);
  if (s) s->source_file = path;
  return s;
}

}  // namespace aifabric
