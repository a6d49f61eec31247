#include "scenario/roce_section.h"

#include "scenario/qos_section.h"

namespace aifabric {
namespace {

// fabric.roce.pfc: true/false or a map.
void ReadPfc(const SectionContext& c, const MapReader& roce, PacketConfig& packet) {
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
  packet.pfc.alpha = pfc.Number("alpha", packet.pfc.alpha, IsPositive, "a number > 0");
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

}  // namespace

// fabric.roce: PFC, ECN and congestion control; defaults are a common
// RoCEv2 deployment (PFC on priorities 3 and 4, ECN, DCQCN).
void ReadRoce(const SectionContext& c, const MapReader& fabric, Scenario& s) {
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

}  // namespace aifabric
