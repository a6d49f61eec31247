#include "packet/packet_faults.h"

#include <algorithm>
#include <cassert>

#include "core/rng.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

bool Lossy(const LinkFault& f) { return f.kind == FaultKind::kGrayLink; }

}  // namespace

PacketFaults::PacketFaults(PacketNetwork& network, std::span<const LinkFault> faults)
    : network_(network), faults_(faults.begin(), faults.end()) {
  const Topology& topology = network.topology();
  index_.assign(topology.num_links(), -1);
  routed_down_.assign(topology.num_links(), 0);
  hit_flows_.resize(faults_.size());
  // Each faulted link's own generator: a fork of the run's seed by link,
  // so gray losses neither shift nor depend on the run's other draws.
  const Rng base = network.sim().rng();
  for (uint32_t f = 0; f < faults_.size(); ++f) {
    const LinkFault& fault = faults_[f];
    FaultOutcome o;
    o.kind = fault.kind;
    o.name = fault.name;
    o.at = fault.at;
    outcomes_.push_back(o);
    for (LinkId link : fault.links) {
      assert(link >= 0 && static_cast<size_t>(link) < topology.num_links());
      if (index_[static_cast<size_t>(link)] >= 0) continue;
      index_[static_cast<size_t>(link)] = static_cast<int>(links_.size());
      links_.push_back(std::make_unique<FaultedLink>(base.Fork(0xFA017000ull + static_cast<uint64_t>(link))));
      FaultedLink& state = *links_.back();
      for (PortId port : {static_cast<PortId>(2 * link), static_cast<PortId>(2 * link + 1)}) {
        gates_.push_back(std::make_unique<FaultGate>(*this, network.port(port), state));
      }
    }
    if (fault.kind == FaultKind::kLinkFlap) {
      assert(!fault.until.IsInfinite() && fault.period > Time::Zero());
      for (Time t = fault.at; t < fault.until; t += fault.period) {
        transitions_.push_back({t, f, true});
        transitions_.push_back({Min(t + fault.down_for, fault.until), f, false});
      }
    } else {
      transitions_.push_back({fault.at, f, true});
      if (!fault.until.IsInfinite()) transitions_.push_back({fault.until, f, false});
    }
  }
  // In time order; at one instant, in the order the faults were written.
  std::stable_sort(transitions_.begin(), transitions_.end(),
                   [](const Transition& a, const Transition& b) { return a.at < b.at; });
  Simulator& sim = network.sim();
  for (size_t i = 0; i < transitions_.size(); ++i) {
    sim.ScheduleBackground(Max(transitions_[i].at, sim.Now()), this, static_cast<uint64_t>(i) << 1);
  }
}

void PacketFaults::OnEvent(uint64_t tag) {
  const Transition& t = transitions_[tag >> 1];
  if (tag & 1) {
    UpdateRouting(t);
  } else {
    Apply(t);
  }
}

void PacketFaults::Apply(const Transition& t) {
  const LinkFault& fault = faults_[t.fault];
  const Time now = network_.sim().Now();
  for (LinkId link : fault.links) {
    FaultedLink& l = LinkOf(link);
    l.fault = t.fault;
    if (Lossy(fault)) {
      l.loss_rate = t.on ? fault.loss_rate : 0;
    } else {
      l.down = t.on;
      if (t.on) l.last_down_at = now;
    }
    l.last_change = now;
  }
  if (!fault.detection.IsInfinite()) {
    const size_t index = static_cast<size_t>(&t - transitions_.data());
    network_.sim().ScheduleBackground(now + fault.detection, this, static_cast<uint64_t>(index) << 1 | 1);
  }
}

void PacketFaults::UpdateRouting(const Transition& t) {
  const LinkFault& fault = faults_[t.fault];
  // Routing reacts only to a state that held for the detection time.
  for (LinkId link : fault.links) {
    if (LinkOf(link).last_change != t.at) return;
  }
  const Time now = network_.sim().Now();
  FaultOutcome& o = outcomes_[t.fault];
  if (t.on && o.detected.IsInfinite()) o.detected = now;
  bool changed = false;
  for (LinkId link : fault.links) {
    uint8_t& down = routed_down_[static_cast<size_t>(link)];
    if (down != static_cast<uint8_t>(t.on)) {
      down = static_cast<uint8_t>(t.on);
      LinkOf(link).routed_down = t.on;
      changed = true;
    }
  }
  if (!changed) return;
  ++o.route_changes;
  if (o.rerouted.IsInfinite()) o.rerouted = now;
  network_.UseRoutes(RoutesNow());
  o.flows_rerouted += network_.RerouteFlows(routed_down_, !t.on);
}

const RoutingTable& PacketFaults::RoutesNow() {
  if (std::all_of(routed_down_.begin(), routed_down_.end(), [](uint8_t d) { return d == 0; })) {
    return network_.base_routes();
  }
  for (const auto& [down, table] : tables_) {
    if (down == routed_down_) return *table;
  }
  tables_.emplace_back(routed_down_,
                       std::make_unique<RoutingTable>(RoutingTable::BuildShortestPaths(network_.topology(), routed_down_)));
  return *tables_.back().second;
}

void PacketFaults::OnLost(Packet* p, FaultedLink& link, EgressPort& port, bool corrupted) {
  ++outcomes_[link.fault].packets_lost;
  if (corrupted) ++port.counters().fcs_error_packets;
  hit_flows_[link.fault].insert(p->flow_index);
  network_.OnFaultLoss(p, port);
}

std::vector<FaultOutcome> PacketFaults::Outcomes() const {
  std::vector<FaultOutcome> out = outcomes_;
  for (size_t f = 0; f < out.size(); ++f) {
    for (uint32_t flow : hit_flows_[f]) out[f].bytes_resent += network_.flows()[flow].transport.retransmitted_bytes;
  }
  return out;
}

}  // namespace aifabric
