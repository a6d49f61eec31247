#include "flow/gpu_network.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <tuple>

namespace aifabric {

GpuNetwork::GpuNetwork(Simulator& sim, const ClusterLayout& layout, NetworkModel& fabric, FlowId first_fabric_id)
    : layout_(layout),
      fabric_(fabric),
      nvlink_(sim, [this](uint64_t id, Time at) { Done(id, at); }),
      next_nic_(static_cast<size_t>(layout.gpus()), 0),
      next_fabric_id_(first_fabric_id) {
  for (GpuId g = 0; g < layout.gpus(); ++g) {
    nvlink_.AddResource(layout.spec().nvlink_per_dir);  // 2g: out of the GPU
    nvlink_.AddResource(layout.spec().nvlink_per_dir);  // 2g + 1: into it
  }
  fabric_.SetObserver(this);
}

void GpuNetwork::StartTransfer(const TransferRequest& request) {
  const GpuId src = static_cast<GpuId>(request.src), dst = static_cast<GpuId>(request.dst);
  const GpuId gpus = layout_.gpus();
  assert(src != dst && src >= 0 && dst >= 0 && src < gpus + layout_.servers() && dst < gpus + layout_.servers());
  if (src >= gpus || dst >= gpus) {
    // To or from a server's NVSwitch: only the GPU's own port is crossed.
    const int port = src >= gpus ? RxPort(dst) : TxPort(src);
    assert(src >= gpus ? layout_.server_of(dst) == src - gpus : layout_.server_of(src) == dst - gpus);
    nvlink_.Start(request.id, request.bytes, std::span<const int>(&port, 1), layout_.spec().nvlink_latency);
    return;
  }
  if (layout_.same_server(src, dst)) {
    const std::array<int, 2> ports{TxPort(src), RxPort(dst)};
    nvlink_.Start(request.id, request.bytes, ports, layout_.spec().nvlink_latency);
    return;
  }
  TransferRequest over_fabric = request;
  over_fabric.id = next_fabric_id_++;
  // NCCL spreads a GPU's channels over its NICs: its transfers between
  // servers take them in turn (by id they could all land on one: a step
  // DAG's ids for one GPU can share a stride).
  uint32_t& turn = next_nic_[static_cast<size_t>(src)];
  std::tie(over_fabric.src, over_fabric.dst) = Nics(src, dst, turn++);
  fabric_to_request_.emplace(over_fabric.id, request.id);
  fabric_.StartTransfer(over_fabric);
}

Status GpuNetwork::StartCoflow(const CoflowRequest& request) {
  assert((request.id & kCoflowBit) == 0);
  const GpuId gpus = layout_.gpus();
  CoflowRequest over_fabric;
  over_fabric.priority = request.priority;
  uint64_t nvlink_reference = 0;
  double chain_ps = static_cast<double>(request.timing.chain.ps());
  for (const CoflowEdge& e : request.edges) {
    const GpuId src = static_cast<GpuId>(e.src), dst = static_cast<GpuId>(e.dst);
    assert(src != dst && src >= 0 && dst >= 0 && src < gpus + layout_.servers() && dst < gpus + layout_.servers());
    if (OnNvlink(src, dst)) {
      nvlink_reference = std::max(nvlink_reference, e.bytes);
      chain_ps += e.latency_weight * static_cast<double>(layout_.spec().nvlink_latency.ps());
      continue;
    }
    // One edge stands for every channel's connections between the pair;
    // NCCL spreads channels over a GPU's NICs, so the edge is cut in equal
    // parts, one per NIC of the GPU with more of them, each with its
    // share of the latency weight (the parts' paths are alike).
    const int parts = std::max(layout_.nic_count(src), layout_.nic_count(dst));
    const auto n = static_cast<uint64_t>(parts);
    for (int k = 0; k < parts; ++k) {
      CoflowEdge nic = e;
      nic.src = layout_.nic_of(src, k % layout_.nic_count(src));
      nic.dst = layout_.nic_of(dst, k % layout_.nic_count(dst));
      nic.bytes = e.bytes / n + (static_cast<uint64_t>(k) < e.bytes % n ? 1 : 0);
      nic.latency_weight = e.latency_weight / parts;
      over_fabric.edges.push_back(nic);
    }
  }
  const Time chain = Time::FromPs(static_cast<int64_t>(std::llround(chain_ps)));
  const FlowId index = coflows_.size();
  coflows_.push_back(PendingCoflow{request.id, 0, Time::Zero()});
  if (nvlink_reference > 0 || over_fabric.edges.empty()) {
    coflow_ports_.clear();
    coflow_coefficients_.clear();
    for (const CoflowEdge& e : request.edges) {
      const GpuId src = static_cast<GpuId>(e.src), dst = static_cast<GpuId>(e.dst);
      if (e.bytes == 0 || !OnNvlink(src, dst)) continue;
      const double coefficient = static_cast<double>(e.bytes) / static_cast<double>(nvlink_reference);
      if (src < gpus) {
        coflow_ports_.push_back(TxPort(src));
        coflow_coefficients_.push_back(coefficient);
      }
      if (dst < gpus) {
        coflow_ports_.push_back(RxPort(dst));
        coflow_coefficients_.push_back(coefficient);
      }
    }
    ++coflows_.back().parts_left;
    CoflowTiming timing = request.timing;
    timing.chain = chain;
    nvlink_.StartCoflow(kCoflowBit | index, nvlink_reference, coflow_ports_, coflow_coefficients_, timing);
  }
  if (!over_fabric.edges.empty()) {
    over_fabric.id = next_fabric_id_++;
    over_fabric.timing = request.timing;
    over_fabric.timing.chain = chain;  // its NVLink steps; the fabric adds its paths'
    fabric_to_request_.emplace(over_fabric.id, kCoflowBit | index);
    ++coflows_.back().parts_left;
    if (Status s = fabric_.StartCoflow(over_fabric); !s.ok()) return s;
  }
  return Status::Ok();
}

std::pair<NodeId, NodeId> GpuNetwork::Nics(GpuId src, GpuId dst, uint64_t spread) const {
  const int k = static_cast<int>(spread % static_cast<uint64_t>(layout_.nic_count(src)));
  return {layout_.nic_of(src, k), layout_.nic_of(dst, k % layout_.nic_count(dst))};
}

void GpuNetwork::OnTransferDone(FlowId id, Time finish) {
  const auto it = fabric_to_request_.find(id);
  assert(it != fabric_to_request_.end());
  const FlowId request = it->second;
  fabric_to_request_.erase(it);
  Done(request, finish);
}

void GpuNetwork::Done(FlowId id, Time finish) {
  if (id & kCoflowBit) {
    PendingCoflow& c = coflows_[id & ~kCoflowBit];
    c.finish = Max(c.finish, finish);
    if (--c.parts_left > 0) return;
    id = c.id;
    finish = c.finish;
  }
  if (observer_ != nullptr) observer_->OnTransferDone(id, finish);
}

}  // namespace aifabric
