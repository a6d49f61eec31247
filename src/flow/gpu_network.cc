#include "flow/gpu_network.h"

#include <array>
#include <algorithm>
#include <cassert>
#include <cmath>

namespace aifabric {

GpuNetwork::GpuNetwork(Simulator& sim, const ClusterLayout& layout, NetworkModel& fabric, FlowId first_fabric_id)
    : layout_(layout),
      fabric_(fabric),
      nvlink_(sim, [this](uint64_t id, Time at) { Done(id, at); }),
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
  // A GPU with several NICs of its own (NCCL uses them all) spreads its
  // transfers over them by transfer id: channels and chunks differ in id.
  const int k = static_cast<int>(request.id % static_cast<FlowId>(layout_.nic_count(src)));
  over_fabric.src = layout_.nic_of(src, k);
  over_fabric.dst = layout_.nic_of(dst, k % layout_.nic_count(dst));
  fabric_to_request_.emplace(over_fabric.id, request.id);
  fabric_.StartTransfer(over_fabric);
}

Status GpuNetwork::StartCoflow(const CoflowRequest& request) {
  assert((request.id & kCoflowBit) == 0);
  const GpuId gpus = layout_.gpus();
  CoflowRequest over_fabric;
  over_fabric.priority = request.priority;
  uint64_t nvlink_reference = 0;
  double chain_ps = static_cast<double>(request.chain_latency.ps());
  for (const CoflowEdge& e : request.edges) {
    const GpuId src = static_cast<GpuId>(e.src), dst = static_cast<GpuId>(e.dst);
    assert(src != dst && src >= 0 && dst >= 0 && src < gpus + layout_.servers() && dst < gpus + layout_.servers());
    if (src >= gpus || dst >= gpus || layout_.same_server(src, dst)) {
      nvlink_reference = std::max(nvlink_reference, e.bytes);
      chain_ps += e.latency_weight * static_cast<double>(layout_.spec().nvlink_latency.ps());
      continue;
    }
    CoflowEdge nic = e;
    const size_t k = over_fabric.edges.size() + request.id;
    nic.src = layout_.nic_of(src, static_cast<int>(k % static_cast<size_t>(layout_.nic_count(src))));
    nic.dst = layout_.nic_of(dst, static_cast<int>(k % static_cast<size_t>(layout_.nic_count(dst))));
    over_fabric.edges.push_back(nic);
  }
  const Time chain = Time::FromPs(static_cast<int64_t>(std::llround(chain_ps)));
  const FlowId index = coflows_.size();
  coflows_.push_back(PendingCoflow{request.id, 0, Time::Zero()});
  if (nvlink_reference > 0 || over_fabric.edges.empty()) {
    coflow_ports_.clear();
    coflow_coefficients_.clear();
    for (const CoflowEdge& e : request.edges) {
      const GpuId src = static_cast<GpuId>(e.src), dst = static_cast<GpuId>(e.dst);
      if (e.bytes == 0 || !(src >= gpus || dst >= gpus || layout_.same_server(src, dst))) continue;
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
    FluidNetwork::CoflowTiming timing;
    timing.chain = chain;
    timing.depth = request.pipeline_depth;
    timing.fill = request.fill;
    timing.fill_depth = request.fill_depth;
    timing.latency = request.latency;
    nvlink_.StartCoflow(kCoflowBit | index, nvlink_reference, coflow_ports_, coflow_coefficients_, timing);
  }
  if (!over_fabric.edges.empty()) {
    over_fabric.id = next_fabric_id_++;
    over_fabric.chain_latency = chain;  // its NVLink steps; the fabric adds its paths'
    over_fabric.latency = request.latency;
    over_fabric.pipeline_depth = request.pipeline_depth;
    over_fabric.fill = request.fill;
    over_fabric.fill_depth = request.fill_depth;
    fabric_to_request_.emplace(over_fabric.id, kCoflowBit | index);
    ++coflows_.back().parts_left;
    if (Status s = fabric_.StartCoflow(over_fabric); !s.ok()) return s;
  }
  return Status::Ok();
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
