#include "flow/gpu_network.h"

#include <array>
#include <cassert>

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

void GpuNetwork::OnTransferDone(FlowId id, Time finish) {
  const auto it = fabric_to_request_.find(id);
  assert(it != fabric_to_request_.end());
  const FlowId request = it->second;
  fabric_to_request_.erase(it);
  Done(request, finish);
}

void GpuNetwork::Done(FlowId id, Time finish) {
  if (observer_ != nullptr) observer_->OnTransferDone(id, finish);
}

}  // namespace aifabric
