#include "fabric/fault_timeline.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

RouteBuilder ShortestPathRoutes(const Topology& topology) {
  return [&topology](std::span<const uint8_t> down) { return RoutingTable::BuildShortestPaths(topology, down); };
}

Status CheckRebuild(std::span<const LinkFault> faults, const RoutingTable& routes, const RouteBuilder& rebuild) {
  if (!routes.forwarding() || rebuild) return {};
  for (const LinkFault& f : faults) {
    if (!f.detection.IsInfinite() || f.detection_period > Time::Zero()) {
      return Error{"faults: " + f.name + ": InfiniBand forwarding tables are rerouted by the subnet manager's "
                   "engine, and none was given"};
    }
  }
  return {};
}

FaultTimeline::FaultTimeline(const Topology& topology, const RoutingTable& base, std::span<const LinkFault> faults,
                             RouteBuilder rebuild)
    : base_(base), rebuild_(std::move(rebuild)), faults_(faults.begin(), faults.end()) {
  assert(rebuild_);
  last_change_.assign(topology.num_links(), Time::FromPs(-1));
  routed_down_.assign(topology.num_links(), 0);
  for (uint32_t f = 0; f < faults_.size(); ++f) {
    const LinkFault& fault = faults_[f];
    FaultOutcome o;
    o.kind = fault.kind;
    o.name = fault.name;
    o.at = fault.at;
    outcomes_.push_back(o);
    for (LinkId link : fault.links) {
      assert(link >= 0 && static_cast<size_t>(link) < topology.num_links());
      (void)link;
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
}

void FaultTimeline::Apply(size_t i, Time now) {
  for (LinkId link : faults_[transitions_[i].fault].links) last_change_[static_cast<size_t>(link)] = now;
}

Time FaultTimeline::DetectionAt(size_t i) const {
  const Transition& t = transitions_[i];
  const LinkFault& fault = faults_[t.fault];
  if (fault.detection_period > Time::Zero()) {
    const int64_t period = fault.detection_period.ps();
    return Time::FromPs((t.at.ps() / period + 1) * period);
  }
  return fault.detection.IsInfinite() ? Time::Infinite() : t.at + fault.detection;
}

bool FaultTimeline::Detect(size_t i, Time now) {
  const Transition& t = transitions_[i];
  const LinkFault& fault = faults_[t.fault];
  // Routing reacts only to a state that held for the detection time.
  for (LinkId link : fault.links) {
    if (last_change_[static_cast<size_t>(link)] != t.at) return false;
  }
  FaultOutcome& o = outcomes_[t.fault];
  if (t.on && o.detected.IsInfinite()) o.detected = now;
  bool changed = false;
  for (LinkId link : fault.links) {
    uint8_t& down = routed_down_[static_cast<size_t>(link)];
    if (down != static_cast<uint8_t>(t.on)) {
      down = static_cast<uint8_t>(t.on);
      changed = true;
    }
  }
  if (!changed) return false;
  ++o.route_changes;
  if (o.rerouted.IsInfinite()) o.rerouted = now;
  return true;
}

const RoutingTable& FaultTimeline::RoutesAvoiding(std::span<const uint8_t> down) {
  if (std::all_of(down.begin(), down.end(), [](uint8_t d) { return d == 0; })) return base_;
  for (const auto& [set, table] : tables_) {
    if (std::equal(set.begin(), set.end(), down.begin(), down.end())) return *table;
  }
  tables_.emplace_back(std::vector<uint8_t>(down.begin(), down.end()), std::make_unique<RoutingTable>(rebuild_(down)));
  return *tables_.back().second;
}

}  // namespace aifabric
