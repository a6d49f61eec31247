#include "packet/packet_faults.h"

#include <cassert>

#include "core/rng.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

bool Lossy(const LinkFault& f) { return f.kind == FaultKind::kGrayLink; }

}  // namespace

PacketFaults::PacketFaults(PacketNetwork& network, std::span<const LinkFault> faults, RouteBuilder rebuild)
    : network_(network), timeline_(network.topology(), network.base_routes(), faults, std::move(rebuild)) {
  const Topology& topology = network.topology();
  index_.assign(topology.num_links(), -1);
  hit_flows_.resize(timeline_.faults().size());
  // Each faulted link's own generator: a fork of the run's seed by link,
  // so gray losses neither shift nor depend on the run's other draws.
  const Rng base = network.sim().rng();
  for (const LinkFault& fault : timeline_.faults()) {
    for (LinkId link : fault.links) {
      if (index_[static_cast<size_t>(link)] >= 0) continue;
      index_[static_cast<size_t>(link)] = static_cast<int>(links_.size());
      links_.push_back(std::make_unique<FaultedLink>(base.Fork(0xFA017000ull + static_cast<uint64_t>(link))));
      FaultedLink& state = *links_.back();
      for (PortId port : {static_cast<PortId>(2 * link), static_cast<PortId>(2 * link + 1)}) {
        gates_.push_back(std::make_unique<FaultGate>(*this, network.port(port), state));
      }
    }
  }
  Simulator& sim = network.sim();
  const auto& transitions = timeline_.transitions();
  for (size_t i = 0; i < transitions.size(); ++i) {
    sim.ScheduleBackground(Max(transitions[i].at, sim.Now()), this, static_cast<uint64_t>(i) << 1);
  }
}

void PacketFaults::OnEvent(uint64_t tag) {
  if (tag & 1) {
    UpdateRouting(tag >> 1);
  } else {
    Apply(tag >> 1);
  }
}

void PacketFaults::Apply(size_t transition) {
  const FaultTimeline::Transition& t = timeline_.transitions()[transition];
  const LinkFault& fault = timeline_.faults()[t.fault];
  const Time now = network_.sim().Now();
  timeline_.Apply(transition, now);
  for (LinkId link : fault.links) {
    FaultedLink& l = LinkOf(link);
    l.fault = t.fault;
    if (Lossy(fault)) {
      l.loss_rate = t.on ? fault.loss_rate : 0;
      l.corruption_rate = t.on ? fault.corruption_rate : 0;
      if (fault.rate.bps() > 0) {  // a degraded rate: both directions serialize at it
        for (PortId port : {static_cast<PortId>(2 * link), static_cast<PortId>(2 * link + 1)}) {
          network_.port(port).SetRate(t.on ? fault.rate : network_.topology().port(port).rate);
        }
      }
    } else {
      l.down = t.on;
      if (t.on) l.last_down_at = now;
    }
  }
  if (const Time heard = timeline_.DetectionAt(transition); !heard.IsInfinite()) {
    network_.sim().ScheduleBackground(heard, this, static_cast<uint64_t>(transition) << 1 | 1);
  }
}

void PacketFaults::UpdateRouting(size_t transition) {
  const FaultTimeline::Transition& t = timeline_.transitions()[transition];
  if (!timeline_.Detect(transition, network_.sim().Now())) return;
  network_.UseRoutes(timeline_.RoutesNow());
  timeline_.outcome(t.fault).flows_rerouted += network_.RerouteFlows(timeline_.routed_down(), !t.on);
}

void PacketFaults::OnLost(Packet* p, FaultedLink& link, EgressPort& port, LinkLoss how) {
  ++*timeline_.outcome(link.fault).packets_lost;
  if (how == LinkLoss::kCorrupted) ++port.counters().fcs_error_packets;
  hit_flows_[link.fault].insert(p->flow_index);
  network_.OnFaultLoss(p, port, /*counted=*/how != LinkLoss::kSilent);
}

std::vector<FaultOutcome> PacketFaults::Outcomes() const {
  std::vector<FaultOutcome> out = timeline_.outcomes();
  for (size_t f = 0; f < out.size(); ++f) {
    for (uint32_t flow : hit_flows_[f]) out[f].bytes_resent += network_.flows()[flow].transport.retransmitted_bytes;
  }
  return out;
}

}  // namespace aifabric
