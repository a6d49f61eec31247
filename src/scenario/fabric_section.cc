#include "scenario/fabric_section.h"

#include <cstdio>

#include "core/units.h"
#include "fabric/clos_sizing.h"
#include "scenario/ib_section.h"
#include "scenario/qos_section.h"
#include "scenario/roce_section.h"

namespace aifabric {
namespace {

constexpr uint64_t kMinMtu = 256;
constexpr uint64_t kMaxMtu = 64 * 1024;

void ReadTopologyFile(const SectionContext& c, const MapReader& t, TopologySpec& spec) {
  t.AllowOnly({"format", "file", "oversubscription", "agg_oversubscription"});
  if (!t.Has("format")) t.Fail("format", "required, missing (hpcc, lingjun or ibnetdiscover)");
  spec.type = t.Enum<TopologyType>("format", TopologyType::kHpccFile,
                                   {{"hpcc", TopologyType::kHpccFile},
                                    {"lingjun", TopologyType::kLingjunFile},
                                    {"ibnetdiscover", TopologyType::kIbnetdiscoverFile}});
  spec.file = ResolveFile(c, t, "file");
  // A Lingjun file names switch groups but not their cables, which are sized
  // from these ratios; an HPCC or ibnetdiscover file lists every link itself.
  for (const char* key : {"oversubscription", "agg_oversubscription"}) {
    if (spec.type != TopologyType::kLingjunFile && t.Has(key)) {
      t.Fail(key, "only used with format lingjun (an HPCC or ibnetdiscover file lists its links)");
    }
  }
  spec.oversubscription = t.Number("oversubscription", 1.0, IsAtLeastOne, "a number >= 1");
  spec.agg_oversubscription = t.Number("agg_oversubscription", 1.0, IsAtLeastOne, "a number >= 1");
}

void ReadTopologyBuilder(const MapReader& t, FabricKind kind, TopologySpec& spec) {
  t.AllowOnly({"type", "oversubscription", "agg_oversubscription", "hosts_per_leaf", "spines", "k",
               "leaves_per_pod", "aggs_per_pod", "cores", "tiers", "dual_tor", "planes"});
  spec.type = t.Enum<TopologyType>("type", TopologyType::kLeafSpine,
                                   {{"leaf_spine", TopologyType::kLeafSpine},
                                    {"fat_tree", TopologyType::kFatTree},
                                    {"rail_optimized", TopologyType::kRailOptimized}});
  spec.oversubscription = t.Number("oversubscription", 1.0, IsAtLeastOne, "a number >= 1");
  spec.agg_oversubscription = t.Number("agg_oversubscription", 1.0, IsAtLeastOne, "a number >= 1");
  spec.hosts_per_leaf = static_cast<int>(t.Int("hosts_per_leaf", 0, 0, kMaxInt));
  spec.spines = static_cast<int>(t.Int("spines", 0, 0, kMaxInt));
  spec.k = static_cast<int>(t.Int("k", 0, 0, kMaxInt));
  spec.leaves_per_pod = static_cast<int>(t.Int("leaves_per_pod", 0, 0, kMaxInt));
  spec.aggs_per_pod = static_cast<int>(t.Int("aggs_per_pod", 0, 0, kMaxInt));
  spec.cores = static_cast<int>(t.Int("cores", 0, 0, kMaxInt));
  if (t.Has("tiers")) {
    spec.tiers = static_cast<int>(t.Int("tiers", 0, 2, 3));
    if (spec.type != TopologyType::kRailOptimized) {
      t.FailAt("tiers", "only rail_optimized takes tiers (leaf_spine has 2, fat_tree 3)");
    }
  }
  spec.dual_tor = t.Bool("dual_tor", false);
  spec.planes = static_cast<int>(t.Int("planes", 1, 1, kMaxPlanes));
  // An InfiniBand HCA port is a LID of its own, to which the subnet manager
  // programs one route per switch: two ports into one subnet are two
  // destinations, with no bond or MC-LAG hashing across the two switches.
  // Planes are separate subnets, one port in each (fabric/ib_subnets.h).
  if (kind == FabricKind::kIb && spec.dual_tor) {
    t.FailAt("dual_tor",
             "only with kind: roce: InfiniBand has no MC-LAG or bond hashing a NIC's flows over two switches (each "
             "HCA port is its own LID, routed by the subnet manager); for a NIC that survives a lost link or switch "
             "use planes: N (one HCA port per plane, each plane its own subnet)");
  }
}

void ReadTopology(const SectionContext& c, const MapReader& t, FabricKind kind, TopologySpec& spec) {
  if (t.Has("format") || t.Has("file")) {
    ReadTopologyFile(c, t, spec);
  } else {
    ReadTopologyBuilder(t, kind, spec);
  }
}

// `family`: the default of an inline switch's family (the fabric's own, so a
// switch the scenario describes itself is taken to be of its kind).
SwitchSpec ReadInlineSwitch(const MapReader& m, SwitchFamily family) {
  m.AllowOnly({"name", "family", "radix", "port_rate", "latency", "buffer", "capacity_tbps"});
  RequireKeys(m, {"radix", "port_rate", "latency", "buffer"});
  SwitchSpec spec;
  spec.name = m.String("name", "custom");
  spec.radix = static_cast<int>(m.Int("radix", 1, 1, kMaxInt));
  spec.port_rate = m.Rate("port_rate", DataRate::Gbps(400));
  spec.latency = m.TimeValue("latency", Time::Zero());
  spec.buffer_bytes = m.Size("buffer", 1, 1, kMaxBytes);
  // Default capacity: every port at full rate in both directions.
  const double all_ports_tbps = spec.radix * spec.port_rate.gbps() * 2 / 1000;
  spec.capacity_tbps = m.Number("capacity_tbps", all_ports_tbps, IsPositive, "a number > 0");
  spec.family = m.Enum<SwitchFamily>("family", family,
                                     {{"ethernet", SwitchFamily::kEthernet}, {"infiniband", SwitchFamily::kInfiniband}});
  spec.source = "inline in the scenario";
  return spec;
}

void ReadSwitch(const SectionContext& c, const MapReader& fabric, FabricKind kind, TopologySpec& spec) {
  std::optional<YAML::Node> node = fabric.Get("switch");
  const std::string path = fabric.Path("switch");
  if (node && node->IsMap()) {
    const SwitchFamily family = kind == FabricKind::kIb ? SwitchFamily::kInfiniband : SwitchFamily::kEthernet;
    spec.switch_spec = ReadInlineSwitch(MapReader(c.d, *node, path), family);
    return;
  }
  const std::string name = fabric.String("switch", "128x400G");
  if (const SwitchSpec* found = c.catalog.FindSwitch(name)) {
    spec.switch_spec = *found;
  } else {
    fabric.FailAt("switch", "unknown switch '" + name + "'; the catalog has " + CatalogNames(c.catalog.switches()) +
                                " (or give an inline map {radix, port_rate, latency, buffer})");
  }
}

// "QM9700 (400Gbps), Q3400 (800Gbps)": the catalog's switches of `family`,
// those at `rate` only when `rate` is given.
std::string SwitchesOf(const Catalog& catalog, SwitchFamily family, std::optional<DataRate> rate) {
  std::string out;
  for (const SwitchSpec& sw : catalog.switches()) {
    if (sw.family != family || (rate && sw.port_rate != *rate)) continue;
    out += (out.empty() ? "" : ", ") + sw.name;
    if (!rate) out += " (" + FormatRate(sw.port_rate) + ")";
  }
  return out;
}

// The switch must speak the fabric's protocol. RoCEv2 cannot run on an
// InfiniBand switch (an error). InfiniBand on an Ethernet switch runs the IB
// model on that switch's Ethernet latency and buffer: allowed, with a warning
// on stderr naming the IB switch of the same port rate to use instead.
void CheckSwitchFamily(const SectionContext& c, const MapReader& fabric, const Scenario& s) {
  const SwitchSpec& sw = s.topology.switch_spec;
  const bool given = fabric.Has("switch");
  const std::string which = given ? "'" + sw.name + "'" : "the default '" + sw.name + "' (fabric.switch not given)";
  if (s.packet.kind == FabricKind::kRoce && sw.family == SwitchFamily::kInfiniband) {
    fabric.FailAt("switch", which + " is an InfiniBand switch and cannot run RoCEv2 (fabric.kind: roce): use "
                                   "fabric.kind: ib, or an Ethernet switch: " +
                                   SwitchesOf(c.catalog, SwitchFamily::kEthernet, std::nullopt));
    return;
  }
  if (s.packet.kind != FabricKind::kIb || sw.family != SwitchFamily::kEthernet) return;
  std::string where = c.d.origin();
  if (std::optional<YAML::Node> node = fabric.Get("switch"); node && node->Mark().line >= 0) {
    where += ':';
    where += std::to_string(node->Mark().line + 1);
  }
  const std::string same_rate = SwitchesOf(c.catalog, SwitchFamily::kInfiniband, sw.port_rate);
  const std::string advice =
      same_rate.empty() ? "the catalog has no InfiniBand switch at " + FormatRate(sw.port_rate) +
                              "; its InfiniBand switches: " +
                              SwitchesOf(c.catalog, SwitchFamily::kInfiniband, std::nullopt)
                        : "use an InfiniBand switch at " + FormatRate(sw.port_rate) + ": " + same_rate;
  std::fprintf(stderr,
               "aifabric: warning: %s: fabric.switch: %s is an Ethernet switch but fabric.kind is ib: the "
               "InfiniBand model runs on its Ethernet latency and buffer; %s\n",
               where.c_str(), which.c_str(), advice.c_str());
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

}  // namespace

void ReadFabric(const SectionContext& c, const MapReader& fabric, Scenario& s) {
  fabric.AllowOnly({"kind", "topology", "switch", "link", "mtu", "forwarding", "buffer", "qos",
                    "load_balancing", "ecmp_seed", "roce", "transport", "ib"});
  PacketConfig& packet = s.packet;
  packet.kind = fabric.Enum<FabricKind>("kind", FabricKind::kRoce,
                                        {{"roce", FabricKind::kRoce}, {"ib", FabricKind::kIb}});
  packet.wire_overhead_bytes = packet.kind == FabricKind::kIb ? kIbWireOverheadBytes : kRoceWireOverheadBytes;
  ReadTopology(c, fabric.Map("topology"), packet.kind, s.topology);
  ReadSwitch(c, fabric, packet.kind, s.topology);
  if (c.d.ok()) CheckSwitchFamily(c, fabric, s);
  MapReader link = fabric.Map("link");
  link.AllowOnly({"latency"});
  s.topology.link_latency = link.TimeValue("latency", Time::FromNs(500));
  packet.mtu_bytes = static_cast<uint32_t>(fabric.Size("mtu", 4096, kMinMtu, kMaxMtu));
  packet.forwarding = fabric.Enum<Forwarding>(
      "forwarding", Forwarding::kStoreAndForward,
      {{"store_and_forward", Forwarding::kStoreAndForward}, {"cut_through", Forwarding::kCutThrough}});
  MapReader buffer = fabric.Map("buffer");
  buffer.AllowOnly({"alpha"});
  packet.buffer_alpha = buffer.Number("alpha", 1.0, IsPositive, "a number > 0");
  ReadQos(c, fabric.Map("qos"), s);
  ReadLoadBalancing(fabric, packet);
  packet.ecmp_seed = fabric.Unsigned("ecmp_seed", DefaultEcmpSeed(s.seed));
  ReadRoce(c, fabric, s);
  ReadIb(c, fabric, s);
  ReadTransport(fabric, s);
}

}  // namespace aifabric
