// PacketNetwork's part in link faults (packet/packet_faults.h plays them).
#include <cassert>

#include "packet/host_nic.h"
#include "packet/packet_faults.h"
#include "packet/packet_network.h"

namespace aifabric {

Status PacketNetwork::InjectFaults(std::span<const LinkFault> faults, RouteBuilder rebuild) {
  if (faults.empty()) return {};
  if (faults_ != nullptr) return Error{"faults: already injected into this network"};
  if (Status st = CheckRebuild(faults, routes_, rebuild); !st.ok()) return st;
  faults_ = std::make_unique<PacketFaults>(*this, faults, rebuild ? std::move(rebuild) : ShortestPathRoutes(topology_));
  return {};
}

std::vector<FaultOutcome> PacketNetwork::FaultOutcomes() const {
  return faults_ ? faults_->Outcomes() : std::vector<FaultOutcome>{};
}

bool PacketNetwork::LinkDown(LinkId link) const { return faults_ != nullptr && faults_->LinkDown(link); }

void PacketNetwork::OnFaultLoss(Packet* p, EgressPort& at, bool counted) {
  if (credit_flow_control()) ReturnCredits(p);
  if (counted) {
    OnDropped(p, at);
    return;
  }
  if (p->kind == PacketKind::kData) flows_[p->flow_index].dropped_bytes += p->payload_bytes;
  pool_.Free(p);
}

uint64_t PacketNetwork::RerouteFlows(std::span<const uint8_t> routed_down, bool restoring) {
  if (moved_.size() < flows_.size()) moved_.resize(flows_.size(), 0);
  auto crosses = [&](const std::vector<PortId>& ports) {
    for (PortId p : ports) {
      if (routed_down[static_cast<size_t>(topology_.port(p).link)] != 0) return true;
    }
    return false;
  };
  uint64_t moved = 0;
  for (uint32_t i = 0; i < flows_.size(); ++i) {
    FlowState& f = flows_[i];
    if (f.done() && f.sender->Finished()) continue;
    const std::vector<PortId> forward = StoredRoute(f.route_offset, f.request.dst);
    std::vector<PortId> reverse;
    if (transport_ != nullptr) reverse = StoredRoute(f.reverse_route_offset, f.request.src);
    if (!crosses(forward) && !crosses(reverse) && !(restoring && moved_[i])) continue;
    bool changed = false;
    // A host with one link keeps it (routing leaves it its one port); a
    // multi-homed NIC (dual-ToR, planes) re-picks among its ports still up
    // by the same hash, as a bond does when a member goes down.
    const std::vector<PortId> new_forward =
        PathPorts(RoutesBetween(f.request.src, f.request.dst), f.request.src, f.request.dst, FlowHash(f.request));
    if (new_forward != forward) {
      if (left_routes_.size() < flows_.size()) left_routes_.resize(flows_.size());
      left_routes_[i].push_back(f.route_offset);
      f.route_offset = StoreRoute(new_forward);
      if (new_forward.front() != f.first_port) {
        f.first_port = new_forward.front();
        hosts_[f.request.src]->MoveFlow(i, f.first_port);
      }
      changed = true;
    }
    if (transport_ != nullptr) {
      TransferRequest back = f.request;
      std::swap(back.src, back.dst);
      std::swap(back.sport, back.dport);
      const std::vector<PortId> new_reverse =
          PathPorts(RoutesBetween(back.src, back.dst), back.src, back.dst, FlowHash(back));
      if (new_reverse != reverse) {
        f.reverse_route_offset = StoreRoute(new_reverse);
        changed = true;
      }
    }
    if (changed) {
      ++moved;
      moved_[i] = 1;
    }
  }
  return moved;
}

}  // namespace aifabric
