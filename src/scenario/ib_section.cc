#include "scenario/ib_section.h"

#include "core/units.h"
#include "scenario/fault_spec.h"

namespace aifabric {
namespace {

// fabric.ib.sl2vl: the VL (0..7) of each SL 0..7.
void ReadSl2Vl(const SectionContext& c, const MapReader& ib, PacketConfig& packet) {
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
void ReadVlArbitration(const SectionContext& c, const MapReader& m, PacketConfig& packet) {
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
      RequireKeys(e, {"vl", "weight"});
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
void ReadIbCongestionControl(const SectionContext& c, const MapReader& ib, Scenario& s) {
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

}  // namespace

// fabric.ib: InfiniBand routing, adaptive routing, VL buffers and
// congestion control.
void ReadIb(const SectionContext& c, const MapReader& fabric, Scenario& s) {
  if (s.packet.kind != FabricKind::kIb) {
    if (fabric.Has("ib")) fabric.FailAt("ib", "only used with fabric.kind: ib");
    return;
  }
  MapReader m = fabric.Map("ib");
  m.AllowOnly({"adaptive_routing", "routing", "vl_buffer", "data_vls", "sl2vl", "vlarb", "congestion_control",
               "sm_sweep_interval"});
  s.ib_routing.sm_sweep_interval = m.TimeValue("sm_sweep_interval", kOpensmSweepInterval);
  if (s.ib_routing.sm_sweep_interval < Time::Zero()) m.FailAt("sm_sweep_interval", "expected a time >= 0 (0: no periodic sweep)");
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
  RequireKeys(r, {"format", "file"});
  s.ib_routing.engine = r.Enum<IbRouting::Engine>("format", IbRouting::kOpensmDump,
                                                  {{"opensm", IbRouting::kOpensmDump}, {"ibroute", IbRouting::kIbroute}});
  s.ib_routing.file = ResolveFile(c, r, "file");
}

}  // namespace aifabric
