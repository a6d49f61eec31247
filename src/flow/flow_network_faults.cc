// FlowNetwork's part in link faults (flow/flow_faults.h plays them).
#include <algorithm>
#include <cassert>

#include "fabric/ecmp_path.h"
#include "flow/flow_dcqcn.h"
#include "flow/flow_faults.h"
#include "flow/flow_network.h"

namespace aifabric {

FlowNetwork::~FlowNetwork() = default;

Status FlowNetwork::InjectFaults(std::span<const LinkFault> faults, RouteBuilder rebuild) {
  if (faults.empty()) return {};
  if (faults_ != nullptr) return Error{"faults: already injected into this network"};
  if (Status st = CheckRebuild(faults, routes_, rebuild); !st.ok()) return st;
  faults_ = std::make_unique<FlowFaults>(*this, faults, rebuild ? std::move(rebuild) : ShortestPathRoutes(topology_));
  return {};
}

std::vector<FaultOutcome> FlowNetwork::FaultOutcomes() const {
  return faults_ ? faults_->Outcomes() : std::vector<FaultOutcome>{};
}

void FlowNetwork::SetPortRate(PortId port, DataRate rate) {
  const size_t p = static_cast<size_t>(port);
  fluid_.SetCapacity(port, static_cast<double>(rate.bps()) * config_.mtu_bytes /
                               (config_.mtu_bytes + config_.wire_overhead_bytes));
  if (rate.bps() > 0) full_packet_time_[p] = rate.TransmitTime(config_.mtu_bytes + config_.wire_overhead_bytes);
}

double FlowNetwork::LoseInFlight(std::span<const PortId> ports) {
  double total = 0;
  fluid_.Revise([&](uint64_t id, double rate_bps, std::span<const int> rs, std::span<const double> cs,
                    FluidNetwork::Revision& out) {
    double lost = 0, units = 0;
    for (size_t k = 0; k < rs.size(); ++k) {
      const PortId p = static_cast<PortId>(rs[k]);
      if (std::find(ports.begin(), ports.end(), p) == ports.end()) continue;
      const Time wire = topology_.port(p).latency + full_packet_time_[static_cast<size_t>(p)];
      const double bytes = cs[k] * rate_bps / 8 * static_cast<double>(wire.ps()) * 1e-12;
      lost += bytes;
      // A transfer sends those bytes again; a coflow's edges move together,
      // so the edge across the dead port holds the whole back by its share.
      units += (id & kCoflowBit) ? bytes / cs[k] : bytes;
    }
    if (lost <= 0) return false;
    out.extra_bytes = units;
    total += lost;
    if (!(id & kCoflowBit)) {
      const uint64_t whole = static_cast<uint64_t>(std::llround(lost));
      payload_.sent += whole;
      payload_.dropped += whole;
      payload_.retransmitted += whole;
    }
    return true;
  });
  return total;
}

uint64_t FlowNetwork::Reroute(const RoutingTable& routes, std::span<const uint8_t> avoid, bool restoring) {
  active_routes_ = &routes;
  // Cached paths and routed coflows were taken over the old routes.
  paths_.Clear();
  routed_.clear();
  if (moved_.size() < flows_.size()) moved_.resize(flows_.size(), 0);
  uint64_t moved = 0;
  fluid_.Revise([&](uint64_t id, double, std::span<const int> rs, std::span<const double> cs,
                    FluidNetwork::Revision& out) {
    const size_t ports = topology_.ports().size();  // beyond: DCQCN's caps (flow_dcqcn.h)
    const bool crosses = std::any_of(rs.begin(), rs.end(), [&](int r) {
      return static_cast<size_t>(r) < ports &&
             avoid[static_cast<size_t>(topology_.port(static_cast<PortId>(r)).link)] != 0;
    });
    const bool coflow = (id & kCoflowBit) != 0;
    const bool was_moved = coflow ? coflow_moved_.contains(id & ~kCoflowBit) : moved_[id] != 0;
    if (!crosses && !(restoring && was_moved)) return false;
    const bool changed =
        coflow ? RerouteCoflow(id & ~kCoflowBit, rs, cs, out) : RerouteQueuePair(static_cast<uint32_t>(id), out);
    if (!changed) return false;
    ++moved;
    if (coflow) {
      coflow_moved_[id & ~kCoflowBit] = 1;
    } else {
      moved_[id] = 1;
    }
    return true;
  });
  return moved;
}

bool FlowNetwork::RerouteQueuePair(uint32_t index, FluidNetwork::Revision& out) {
  QueuePair& qp = flows_[index];
  const std::span<const PortId> old_path = path(index);
  std::vector<PortId> ports;
  std::vector<double> fractions;
  if (spread()) {
    const bool adaptive = config_.balancing == FlowBalancing::kAdaptive;
    if (adaptive) {  // its own load leaves the ports it crossed
      for (uint32_t k = 0; k < qp.path_length; ++k) {
        offered_[static_cast<size_t>(path_arena_[qp.path_offset + k])] -= share_arena_[qp.path_offset + k];
      }
    }
    split_.clear();
    SplitNow(qp.request.src, qp.request.dst, adaptive ? std::span<const double>(offered_) : std::span<const double>(),
                    split_);
    for (const PortShare& share : split_) {
      ports.push_back(share.port);
      fractions.push_back(share.fraction);
      if (adaptive) offered_[static_cast<size_t>(share.port)] += share.fraction;
    }
  } else {
    ports = EcmpPath(topology_, RoutesFor(qp.request.src, qp.request.dst), salts_, qp.request.src, qp.request.dst, qp.hash);
    // A single-homed host keeps its one port (routing leaves it that); a
    // multi-homed NIC (dual-ToR, planes) re-picks among its ports still up
    // by the same hash, as a bond does when a member goes down, and back
    // at the repair.
    if (ports.front() != old_path.front() && topology_.node(qp.request.src).ports.size() < 2) return false;
  }
  const std::vector<double> old_fractions = path_fractions(index);
  if (std::equal(ports.begin(), ports.end(), old_path.begin(), old_path.end()) &&
      (!spread() || fractions == old_fractions)) {
    return false;
  }
  qp.path_offset = static_cast<uint32_t>(path_arena_.size());
  qp.path_length = static_cast<uint32_t>(ports.size());
  path_arena_.insert(path_arena_.end(), ports.begin(), ports.end());
  if (spread()) {
    share_arena_.resize(qp.path_offset);  // the arenas stay side by side
    share_arena_.insert(share_arena_.end(), fractions.begin(), fractions.end());
  }
  ecmp_scratch_.clear();
  AppendEcmpPath(topology_, RoutesFor(qp.request.src, qp.request.dst), salts_, qp.request.src, qp.request.dst, qp.hash,
                 ecmp_scratch_);
  qp.latency = PathLatency(ecmp_scratch_, qp.request.bytes);
  out.reroute = true;
  out.resources.assign(ports.begin(), ports.end());
  out.coefficients = std::move(fractions);
  out.latency = qp.latency;
  if (dcqcn_ != nullptr) {  // its cap goes with it; it leaves the queue it was in
    if (const int cap = dcqcn_->cap_resource(index); cap >= 0) {
      out.resources.push_back(cap);
      if (!out.coefficients.empty()) out.coefficients.push_back(1.0);
    }
    dcqcn_->OnReroute(index);
  }
  return true;
}

bool FlowNetwork::RerouteCoflow(uint64_t index, std::span<const int> resources, std::span<const double> coefficients,
                                FluidNetwork::Revision& out) {
  const auto live = live_coflows_.find(index);
  assert(live != live_coflows_.end());
  const RoutedCoflow& r = Route(live->second);
  if (std::equal(r.resources.begin(), r.resources.end(), resources.begin(), resources.end()) &&
      std::equal(r.coefficients.begin(), r.coefficients.end(), coefficients.begin(), coefficients.end())) {
    return false;
  }
  // Its chain keeps the latency of its first paths (equal-cost paths have
  // as many hops).
  out.reroute = true;
  out.resources = r.resources;
  out.coefficients = r.coefficients;
  return true;
}

}  // namespace aifabric
