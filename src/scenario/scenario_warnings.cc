#include "scenario/scenario_warnings.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace aifabric {
namespace {

std::string Us(Time t) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f us", t.us_f());
  return buf;
}

// Spraying and adaptive routing reorder a flow's packets; go-back-N takes
// each gap for a loss and resends from it. Issue 20's measurement: a k=8
// fat-tree permutation resent 1.6 GiB and ran 6.5x slower than on ECMP.
void ReorderingWithGoBackN(const Scenario& s, std::vector<ScenarioWarning>& out) {
  const LoadBalancing lb = s.packet.load_balancing;
  if (lb != LoadBalancing::kSpray && lb != LoadBalancing::kAdaptive) return;
  if (s.transport.kind != TransportKind::kRc || s.transport.recovery != LossRecovery::kGoBackN) return;
  const std::string mode = lb == LoadBalancing::kSpray ? "spray" : "adaptive";
  out.push_back({ScenarioTrap::kReorderingWithGoBackN, "fabric.transport.recovery",
                 "go-back-N with load_balancing " + mode +
                     ": per-packet paths reorder packets and go-back-N takes every gap for a loss, resending "
                     "everything after it (a k=8 fat-tree permutation resent 1.6 GiB and ran 6.5x slower than on "
                     "ECMP); set fabric.transport.recovery: selective_repeat, or fabric.load_balancing: ecmp"});
}

// A class whose `lossless` key says one thing while PFC does another on its
// priority: fabric.roce.pfc.lossless wins over the classes, and classes
// sharing a priority share its flow control.
void LossyClassOnLosslessPriority(const Scenario& s, std::vector<ScenarioWarning>& out) {
  if (s.packet.kind != FabricKind::kRoce) return;
  for (size_t i = 0; i < s.qos_classes.size(); ++i) {
    const QosClass& q = s.qos_classes[i];
    if (q.lossless < 0) continue;
    const bool protected_by_pfc = s.packet.pfc.enabled && (s.packet.pfc.lossless_mask & (1u << q.priority)) != 0;
    if ((q.lossless == 1) == protected_by_pfc) continue;
    const std::string field = "fabric.qos.classes." + std::to_string(i) + ".lossless";
    const std::string p = std::to_string(q.priority);
    if (protected_by_pfc) {
      std::string why = "fabric.roce.pfc.lossless lists it";
      for (const QosClass& other : s.qos_classes) {
        if (other.priority == q.priority && other.lossless == 1) why = "class '" + other.name + "' on it is lossless";
      }
      out.push_back({ScenarioTrap::kLossyClassOnLosslessPriority, field,
                     "class '" + q.name + "' is lossless: false, but PFC protects its priority " + p + " (" + why +
                         "): its packets are paused, never dropped, and its congestion pauses the lossless traffic "
                         "of priority " + p + " too; give the class a priority of its own outside the lossless set"});
    } else {
      const std::string why = s.packet.pfc.enabled ? "fabric.roce.pfc.lossless leaves priority " + p + " out"
                                                   : "PFC is off (fabric.roce.pfc)";
      out.push_back({ScenarioTrap::kLossyClassOnLosslessPriority, field,
                     "class '" + q.name + "' is lossless: true, but " + why +
                         ": its packets are dropped when a buffer fills; add priority " + p +
                         " to fabric.roce.pfc.lossless (or turn PFC on), or make the class lossless: false"});
    }
  }
}

// ECN marks on the egress queue: thresholds above the switch's buffer are
// never (kmin) or only partly (kmax) reached, so DCQCN hears of congestion
// late or never and PFC or drops do its work.
void EcnAboveBuffer(const Scenario& s, const Topology* topology, std::vector<ScenarioWarning>& out) {
  if (s.packet.kind != FabricKind::kRoce || !s.packet.ecn.enabled) return;
  std::vector<SwitchSpec> specs = {s.topology.switch_spec};
  if (topology != nullptr && !topology->switch_specs().empty()) specs = topology->switch_specs();
  for (const SwitchSpec& spec : specs) {
    const double gbps = spec.port_rate.gbps();
    const uint64_t kmin = s.packet.ecn.KminAt(gbps), kmax = s.packet.ecn.KmaxAt(gbps);
    if (kmax <= spec.buffer_bytes) continue;
    const std::string reach = kmin >= spec.buffer_bytes ? "no queue can reach kmin, so nothing is ever marked"
                                                        : "no queue can reach kmax, so marking never reaches pmax";
    out.push_back({ScenarioTrap::kEcnAboveBuffer, "fabric.roce.ecn",
                   "kmin " + std::to_string(kmin) + " B / kmax " + std::to_string(kmax) + " B (at " +
                       std::to_string(static_cast<int>(gbps)) + " Gb/s ports) are above switch " + spec.name +
                       "'s " + std::to_string(spec.buffer_bytes) + " B buffer: " + reach +
                       " and DCQCN slows down late; set fabric.roce.ecn.kmin and kmax well below the buffer (e.g. " +
                       std::to_string(spec.buffer_bytes / 16) + " B and " + std::to_string(spec.buffer_bytes / 4) +
                       " B)"});
    return;  // one switch model is enough to name
  }
}

// The workload cannot end before any host has sent (and received) all its
// bytes at its link rate from its first flow's start: if simulation.until
// comes earlier, the run stops with flows unfinished.
void UntilBeforeIdeal(const Scenario& s, const Topology* topology, std::span<const FlowSpec> flows,
                      std::vector<ScenarioWarning>& out) {
  if (topology == nullptr || flows.empty() || s.until.IsInfinite()) return;
  struct Load {
    Time first = Time::Infinite();
    uint64_t bytes = 0;
  };
  std::map<std::pair<NodeId, bool>, Load> loads;  // (host, receiving)
  for (const FlowSpec& f : flows) {
    for (const auto& key : {std::make_pair(f.src, false), std::make_pair(f.dst, true)}) {
      Load& l = loads[key];
      l.first = Min(l.first, f.start);
      l.bytes += f.bytes;
    }
  }
  Time ideal;
  std::string who;
  for (const auto& [key, load] : loads) {
    uint64_t bps = 0;
    for (PortId p : topology->node(key.first).ports) bps += topology->port(p).rate.bps();
    if (bps == 0) continue;
    const Time end = load.first + DataRate::BitsPerSecond(bps).TransmitTime(load.bytes);
    if (end > ideal) {
      ideal = end;
      who = topology->node(key.first).name + (key.second ? " receives " : " sends ") + std::to_string(load.bytes) +
            " B at " + std::to_string(static_cast<uint64_t>(static_cast<double>(bps) / 1e9)) + " Gb/s";
    }
  }
  if (s.until >= ideal) return;
  out.push_back({ScenarioTrap::kUntilBeforeIdeal, "simulation.until",
                 Us(s.until) + " ends before the workload can: " + who + ", which takes until at least " +
                     Us(ideal) + " even on an idle fabric, so the run stops with flows unfinished; raise "
                     "simulation.until above that (or drop it to run to the end)"});
}

}  // namespace

const char* ScenarioTrapName(ScenarioTrap trap) {
  switch (trap) {
    case ScenarioTrap::kReorderingWithGoBackN:
      return "reordering_with_go_back_n";
    case ScenarioTrap::kLossyClassOnLosslessPriority:
      return "lossy_class_on_lossless_priority";
    case ScenarioTrap::kEcnAboveBuffer:
      return "ecn_above_buffer";
    case ScenarioTrap::kUntilBeforeIdeal:
      return "until_before_ideal";
  }
  return "unknown";
}

std::vector<ScenarioWarning> ScenarioWarnings(const Scenario& scenario, const Topology* topology,
                                              std::span<const FlowSpec> flows) {
  std::vector<ScenarioWarning> out;
  ReorderingWithGoBackN(scenario, out);
  LossyClassOnLosslessPriority(scenario, out);
  EcnAboveBuffer(scenario, topology, out);
  UntilBeforeIdeal(scenario, topology, flows, out);
  return out;
}

}  // namespace aifabric
