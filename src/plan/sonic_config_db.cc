#include "plan/sonic_config_db.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "packet/pfc_headroom.h"
#include "plan/cabling_plan.h"
#include "plan/switch_port_names.h"

namespace aifabric {
namespace {

using SortedJson = nlohmann::json;  // objects are std::maps: keys come out sorted

// SONiC's name for the (one) map of each kind that every port uses.
constexpr const char* kMapName = "AZURE";
// dynamic_th for "no limit": alpha = 2^7, a queue may take 128/129 of the
// free buffer. The packet model limits lossy traffic at egress only, so the
// lossy ingress profile does not bind.
constexpr int kUnlimitedDynamicTh = 7;
// SONiC's default port MTU; carries a RoCEv2 packet of up to 9,040 payload
// bytes with its IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ICRC 4 header bytes.
constexpr uint32_t kSonicDefaultMtu = 9100;
constexpr uint32_t kRoceIpHeaderBytes = 20 + 8 + 12 + 16 + 4;
// CNPs leave NVIDIA/Mellanox NICs on DSCP 48 by default (REFERENCES.md 1).
constexpr int kCnpDscp = 48;

// SONiC's dynamic_th n means alpha = 2^n (SAI_BUFFER_PROFILE_ATTR_SHARED_DYNAMIC_TH,
// an int8; we accept n in -8..8).
Result<int> DynamicTh(double alpha, const char* field) {
  const int n = static_cast<int>(std::lround(std::log2(alpha)));
  if (n < -8 || n > 8 || std::fabs(std::ldexp(1.0, n) - alpha) > 1e-12 * alpha) {
    return Error{std::string(field) + ": SONiC's dynamic_th takes alpha = 2^n (n in -8..8); " +
                 fmt::format("{:g}", alpha) + " is not one (the configuration would not be what was simulated)"};
  }
  return n;
}

// A time in whole milliseconds within [lo_ms, hi_ms] (SONiC's PFC_WD
// fields, sonic-pfcwd.yang).
Result<int64_t> WholeMs(Time t, int64_t lo_ms, int64_t hi_ms, const char* field) {
  constexpr int64_t kPsPerMs = 1'000'000'000;
  const int64_t ms = t.ps() / kPsPerMs;
  if (t.ps() % kPsPerMs != 0 || ms < lo_ms || ms > hi_ms) {
    return Error{fmt::format("{}: SONiC's PFC watchdog takes whole milliseconds in {}..{} ms; {:g} ms is not one", field,
                             lo_ms, hi_ms, static_cast<double>(t.ps()) / kPsPerMs)};
  }
  return ms;
}

// Runs of consecutive priorities that are all in `mask` or all outside it:
// ("0-2", false), ("3-4", true), ("5-7", false) for {3, 4}.
std::vector<std::pair<std::string, bool>> PriorityRuns(uint8_t mask) {
  std::vector<std::pair<std::string, bool>> runs;
  int start = 0;
  for (int p = 1; p <= kNumPriorities; ++p) {
    const bool in = (mask >> start) & 1u;
    if (p < kNumPriorities && ((mask >> p) & 1u) == in) continue;
    const std::string name = start == p - 1 ? std::to_string(start) : fmt::format("{}-{}", start, p - 1);
    runs.emplace_back(name, in);
    start = p;
  }
  return runs;
}

std::string SpeedMbps(DataRate rate) { return std::to_string(rate.bps() / 1'000'000); }

// Whole metres, rounded up: ceil(ps x 1.98e8 / 1e12).
int64_t CableMetres(Time latency) { return (latency.ps() * 198 + 999'999) / 1'000'000; }

// DSCP -> TC: each class's DSCP to its priority; each priority no class
// gives a DSCP keeps DSCP = priority (unless a class claimed that DSCP);
// DSCP 48 (CNPs) to the CNP priority if unclaimed; every other DSCP to 0.
SortedJson DscpToTc(const Scenario& scenario) {
  std::map<int, int> tc;
  std::vector<bool> has_dscp(kNumPriorities, false);
  for (const QosClass& q : scenario.qos_classes) {
    if (q.dscp < 0) continue;
    tc[q.dscp] = q.priority;
    has_dscp[q.priority] = true;
  }
  for (int p = 0; p < kNumPriorities; ++p) {
    if (!has_dscp[p]) tc.emplace(p, p);
  }
  tc.emplace(kCnpDscp, scenario.transport.cnp_priority);
  SortedJson map = SortedJson::object();
  for (int d = 0; d < 64; ++d) {
    auto it = tc.find(d);
    map[std::to_string(d)] = std::to_string(it == tc.end() ? 0 : it->second);
  }
  return map;
}

SortedJson Identity() {
  SortedJson map = SortedJson::object();
  for (int p = 0; p < kNumPriorities; ++p) map[std::to_string(p)] = std::to_string(p);
  return map;
}

}  // namespace

Result<std::string> SonicConfigDb(const Scenario& scenario, const Topology& topology, NodeId sw) {
  const PacketConfig& packet = scenario.packet;
  const Node& node = topology.node(sw);
  const SwitchSpec& spec = topology.switch_specs()[static_cast<size_t>(node.switch_spec)];
  const PfcConfig& pfc = packet.pfc;
  const uint8_t lossless = pfc.enabled ? pfc.lossless_mask : 0;
  const uint32_t max_wire = packet.mtu_bytes + packet.wire_overhead_bytes;

  Result<int> lossy_th = DynamicTh(packet.buffer_alpha, "fabric.buffer.alpha");
  if (!lossy_th.ok()) return lossy_th.error();
  Result<int> lossless_th = DynamicTh(pfc.alpha, "fabric.roce.pfc.alpha");
  if (lossless != 0 && !lossless_th.ok()) return lossless_th.error();

  SortedJson db = SortedJson::object();
  db["DEVICE_METADATA"]["localhost"] = {{"hostname", node.name}, {"buffer_model", "traditional"}};

  // Ports, and the headroom each reserves per lossless priority (the
  // packet model reserves it out of the switch buffer: switch_node.cc).
  uint64_t total_headroom = 0;
  std::map<std::pair<uint64_t, int64_t>, std::string> profile_of;  // (bps, latency ps) -> name
  std::map<std::string, uint64_t> profile_xoff;
  std::vector<std::string> port_profile(node.ports.size());
  const int lossless_count = std::popcount(static_cast<unsigned>(lossless));
  for (size_t i = 0; i < node.ports.size(); ++i) {
    const Port& port = topology.port(node.ports[i]);
    const std::string name = SonicPortName(i);
    const std::string peer = topology.node(port.peer).name;
    db["PORT"][name] = {{"admin_status", "up"},
                        {"alias", "etp" + std::to_string(i + 1)},
                        {"description", peer},
                        {"mtu", std::to_string(std::max(kSonicDefaultMtu, packet.mtu_bytes + kRoceIpHeaderBytes))},
                        {"speed", SpeedMbps(port.rate)}};
    db["CABLE_LENGTH"][kMapName][name] = std::to_string(CableMetres(port.latency)) + "m";
    if (lossless == 0) continue;
    const uint64_t xoff = PfcHeadroomBytes(port, spec.latency, max_wire);
    total_headroom += xoff * static_cast<uint64_t>(lossless_count);
    const auto key = std::make_pair(port.rate.bps(), port.latency.ps());
    auto it = profile_of.find(key);
    if (it == profile_of.end()) {
      std::string profile = fmt::format("pg_lossless_{}_{}m_profile", SpeedMbps(port.rate), CableMetres(port.latency));
      // Two latencies that round to the same metre: name the second by its picoseconds.
      if (profile_xoff.count(profile) != 0 && profile_xoff[profile] != xoff) {
        profile = fmt::format("pg_lossless_{}_{}ps_profile", SpeedMbps(port.rate), port.latency.ps());
      }
      profile_xoff[profile] = xoff;
      it = profile_of.emplace(key, profile).first;
      db["BUFFER_PROFILE"][profile] = {{"dynamic_th", std::to_string(*lossless_th)},
                                       {"pool", "ingress_lossless_pool"},
                                       {"size", std::to_string(xoff)},
                                       {"xoff", std::to_string(xoff)},
                                       {"xon", "0"},
                                       {"xon_offset", std::to_string(pfc.xon_offset_bytes)}};
    }
    port_profile[i] = it->second;
  }

  // Pools: the shared part is the buffer less every reserved headroom, as
  // the packet model's SharedBuffer holds it; lossless egress never limits.
  const uint64_t shared = spec.buffer_bytes - std::min(spec.buffer_bytes, total_headroom);
  db["BUFFER_POOL"]["ingress_lossless_pool"] = {{"mode", "dynamic"}, {"size", std::to_string(shared)}, {"type", "ingress"}};
  db["BUFFER_POOL"]["egress_lossy_pool"] = {{"mode", "dynamic"}, {"size", std::to_string(shared)}, {"type", "egress"}};
  db["BUFFER_POOL"]["egress_lossless_pool"] = {
      {"mode", "static"}, {"size", std::to_string(spec.buffer_bytes)}, {"type", "egress"}};
  db["BUFFER_PROFILE"]["ingress_lossy_profile"] = {
      {"dynamic_th", std::to_string(kUnlimitedDynamicTh)}, {"pool", "ingress_lossless_pool"}, {"size", "0"}};
  db["BUFFER_PROFILE"]["egress_lossy_profile"] = {
      {"dynamic_th", std::to_string(*lossy_th)}, {"pool", "egress_lossy_pool"}, {"size", "0"}};
  db["BUFFER_PROFILE"]["egress_lossless_profile"] = {
      {"pool", "egress_lossless_pool"}, {"size", "0"}, {"static_th", std::to_string(spec.buffer_bytes)}};

  // ECN: one WRED profile per distinct (kmin, kmax); 0 in the scenario
  // scales with the port rate, 2,000 and 8,000 bytes per Gbps, as
  // packet/egress_port.cc marks.
  const EcnConfig& ecn = packet.ecn;
  int drop_percent = 0;
  if (ecn.enabled) {
    const double percent = ecn.pmax * 100;
    drop_percent = static_cast<int>(std::lround(percent));
    if (std::fabs(percent - drop_percent) > 1e-9) {
      return Error{fmt::format("fabric.roce.ecn.pmax: SONiC's WRED drop probability is a whole percent; {:g} is not one",
                               ecn.pmax)};
    }
  }

  // Schedulers: one per queue, strict or DWRR with the scenario's weight.
  for (int q = 0; q < kNumPriorities; ++q) {
    const QueueSchedulingConfig& s = packet.queues[static_cast<size_t>(q)];
    const std::string name = "scheduler." + std::to_string(q);
    if (s.strict) {
      db["SCHEDULER"][name] = {{"type", "STRICT"}};
      continue;
    }
    if (s.dwrr_weight > 100) {
      return Error{fmt::format("fabric.qos: priority {}'s DWRR weight is {}; SONiC's is 1..100", q, s.dwrr_weight)};
    }
    db["SCHEDULER"][name] = {{"type", "DWRR"}, {"weight", std::to_string(s.dwrr_weight)}};
  }

  // The PFC watchdog (off when its detection time is 0).
  const bool watchdog = lossless != 0 && pfc.watchdog_detection > Time::Zero();
  int64_t detection_ms = 0, restoration_ms = 0;
  if (watchdog) {
    Result<int64_t> d = WholeMs(pfc.watchdog_detection, 100, 5000, "fabric.roce.pfc.watchdog.detection");
    if (!d.ok()) return d.error();
    Result<int64_t> r = WholeMs(pfc.watchdog_restoration, 100, 60000, "fabric.roce.pfc.watchdog.restoration");
    if (!r.ok()) return r.error();
    detection_ms = *d;
    restoration_ms = *r;
    // SONiC's default poll interval, 200 ms, or less so it never exceeds a time.
    db["PFC_WD"]["GLOBAL"] = {{"POLL_INTERVAL", std::to_string(std::min<int64_t>({200, detection_ms, restoration_ms}))}};
  }

  const auto runs = PriorityRuns(lossless);
  for (size_t i = 0; i < node.ports.size(); ++i) {
    const Port& port = topology.port(node.ports[i]);
    const std::string name = SonicPortName(i);
    for (const auto& [range, is_lossless] : runs) {
      const std::string key = name + "|" + range;
      db["BUFFER_PG"][key] = {{"profile", is_lossless ? port_profile[i] : "ingress_lossy_profile"}};
      db["BUFFER_QUEUE"][key] = {{"profile", is_lossless ? "egress_lossless_profile" : "egress_lossy_profile"}};
    }
    SortedJson qos = {{"dscp_to_tc_map", kMapName},
                {"pfc_to_queue_map", kMapName},
                {"tc_to_pg_map", kMapName},
                {"tc_to_queue_map", kMapName}};
    if (lossless != 0) {
      std::string enable;
      for (int p = 0; p < kNumPriorities; ++p) {
        if (((lossless >> p) & 1u) == 0) continue;
        if (!enable.empty()) enable += ',';
        enable += std::to_string(p);
      }
      qos["pfc_enable"] = enable;
    }
    db["PORT_QOS_MAP"][name] = qos;

    std::string wred;
    if (ecn.enabled) {
      const double gbps = port.rate.gbps();
      const uint64_t kmin = ecn.kmin_bytes != 0 ? ecn.kmin_bytes : static_cast<uint64_t>(2000.0 * gbps);
      const uint64_t kmax = ecn.kmax_bytes != 0 ? ecn.kmax_bytes : static_cast<uint64_t>(8000.0 * gbps);
      wred = ecn.kmin_bytes != 0 && ecn.kmax_bytes != 0 ? "AZURE_ECN" : "AZURE_ECN_" + SpeedMbps(port.rate);
      SortedJson profile = {{"ecn", "ecn_all"}};
      for (const char* color : {"green", "yellow", "red"}) {
        profile[std::string(color) + "_min_threshold"] = std::to_string(kmin);
        profile[std::string(color) + "_max_threshold"] = std::to_string(kmax);
        profile[std::string(color) + "_drop_probability"] = std::to_string(drop_percent);
        profile["wred_" + std::string(color) + "_enable"] = "true";
      }
      db["WRED_PROFILE"][wred] = profile;
    }
    for (int q = 0; q < kNumPriorities; ++q) {
      SortedJson queue = {{"scheduler", "scheduler." + std::to_string(q)}};
      if (!wred.empty() && ((ecn.marked_mask >> q) & 1u)) queue["wred_profile"] = wred;
      db["QUEUE"][name + "|" + std::to_string(q)] = queue;
    }
    if (watchdog) {
      db["PFC_WD"][name] = {{"action", pfc.watchdog_action == PfcWatchdogAction::kDrop ? "drop" : "forward"},
                            {"detection_time", std::to_string(detection_ms)},
                            {"restoration_time", std::to_string(restoration_ms)}};
    }
  }

  db["DSCP_TO_TC_MAP"][kMapName] = DscpToTc(scenario);
  db["TC_TO_PRIORITY_GROUP_MAP"][kMapName] = Identity();
  db["TC_TO_QUEUE_MAP"][kMapName] = Identity();
  db["MAP_PFC_PRIORITY_TO_QUEUE"][kMapName] = Identity();
  return db.dump(4) + "\n";
}

}  // namespace aifabric
