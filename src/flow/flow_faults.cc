#include "flow/flow_faults.h"

#include <cmath>

#include "flow/flow_network.h"

namespace aifabric {
namespace {

// A fault that takes its links down (every kind but a gray link).
bool TakesDown(const LinkFault& f) { return f.kind != FaultKind::kGrayLink; }

}  // namespace

FlowFaults::FlowFaults(FlowNetwork& network, std::span<const LinkFault> faults, RouteBuilder rebuild)
    : network_(network), timeline_(network.topology(), network.base_routes(), faults, std::move(rebuild)) {
  down_.assign(network.topology().num_links(), 0);
  slow_rate_.assign(network.topology().num_links(), DataRate());
  resent_bytes_.assign(timeline_.faults().size(), 0.0);
  Simulator& sim = network.sim();
  const auto& transitions = timeline_.transitions();
  for (size_t i = 0; i < transitions.size(); ++i) {
    sim.ScheduleBackground(Max(transitions[i].at, sim.Now()), this, static_cast<uint64_t>(i) << 1);
  }
}

void FlowFaults::OnEvent(uint64_t tag) {
  if (tag & 1) {
    UpdateRouting(tag >> 1);
  } else {
    Apply(tag >> 1);
  }
}

void FlowFaults::UpdatePort(PortId port) {
  const LinkId link = network_.topology().port(port).link;
  const DataRate slow = slow_rate_[static_cast<size_t>(link)];
  const DataRate rate = down_[static_cast<size_t>(link)] ? DataRate() : slow.bps() > 0 ? slow : network_.topology().port(port).rate;
  network_.SetPortRate(port, rate);
}

void FlowFaults::Apply(size_t transition) {
  const FaultTimeline::Transition& t = timeline_.transitions()[transition];
  const LinkFault& fault = timeline_.faults()[t.fault];
  Simulator& sim = network_.sim();
  timeline_.Apply(transition, sim.Now());
  std::vector<PortId> ports;
  for (LinkId link : fault.links) {
    ports.push_back(static_cast<PortId>(2 * link));
    ports.push_back(static_cast<PortId>(2 * link + 1));
  }
  if (TakesDown(fault)) {
    // What is on the wire of a link that dies now is lost, at the rates
    // before it died.
    if (t.on) resent_bytes_[t.fault] += network_.LoseInFlight(ports);
    for (LinkId link : fault.links) down_[static_cast<size_t>(link)] = static_cast<uint8_t>(t.on);
  } else if (fault.rate.bps() > 0) {
    for (LinkId link : fault.links) slow_rate_[static_cast<size_t>(link)] = t.on ? fault.rate : DataRate();
  }
  for (PortId p : ports) UpdatePort(p);
  if (TakesDown(fault) && network_.ReroutesAtOnce()) {
    // Adaptive routing sees the dead ports at once.
    const uint64_t moved = network_.Reroute(timeline_.RoutesAvoiding(down_), down_, !t.on);
    FaultOutcome& o = timeline_.outcome(t.fault);
    o.flows_rerouted += moved;
    if (moved > 0 && o.rerouted.IsInfinite()) o.rerouted = sim.Now();
  }
  if (const Time heard = timeline_.DetectionAt(transition); !heard.IsInfinite()) {
    sim.ScheduleBackground(heard, this, static_cast<uint64_t>(transition) << 1 | 1);
  }
}

void FlowFaults::UpdateRouting(size_t transition) {
  const FaultTimeline::Transition& t = timeline_.transitions()[transition];
  if (!timeline_.Detect(transition, network_.sim().Now())) return;
  if (network_.ReroutesAtOnce()) return;  // it moved at the change itself
  timeline_.outcome(t.fault).flows_rerouted +=
      network_.Reroute(timeline_.RoutesNow(), timeline_.routed_down(), !t.on);
}

std::vector<FaultOutcome> FlowFaults::Outcomes() const {
  std::vector<FaultOutcome> out = timeline_.outcomes();
  for (size_t f = 0; f < out.size(); ++f) {
    out[f].packets_lost.reset();
    out[f].bytes_resent = static_cast<uint64_t>(std::llround(resent_bytes_[f]));
  }
  return out;
}

}  // namespace aifabric
