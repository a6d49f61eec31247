// GpuNetwork is the network as GPUs see it: a NetworkModel whose endpoints
// are GPU ids (ClusterLayout), not host nodes, and after them one NVSwitch
// per server (endpoint gpus() + s, for NVLS in-switch reduction: a GPU's
// transfer to its switch uses only its NVLink port out, one from the switch
// only the GPU's port in). Between two GPUs of one
// server a transfer crosses NVLink: a fluid over the sender's NVLink port
// out and the receiver's port in, max-min shared with the server's other
// NVLink transfers (the NVSwitch itself does not block), plus the NVLink
// latency. Between servers it goes NIC to NIC (each GPU's NIC is its rail)
// over the fabric model it wraps — packet, flow or analytic alike. GPUs
// that share a NIC share its link there; a GPU with several NICs takes
// them in turn, transfer after transfer. Lives in one Simulator; not
// thread-safe.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "fabric/network_model.h"
#include "flow/fluid_network.h"

namespace aifabric {

class GpuNetwork final : public NetworkModel, public TransferObserver {
 public:
  // `layout` and `fabric` outlive this; this becomes `fabric`'s observer
  // (a caller sharing the fabric may observe it instead and pass the
  // completions of ids from `first_fabric_id` on to OnTransferDone). The
  // fabric transfers get ids first_fabric_id, first_fabric_id + 1, ...
  GpuNetwork(Simulator& sim, const ClusterLayout& layout, NetworkModel& fabric, FlowId first_fabric_id = 0);
  GpuNetwork(const GpuNetwork&) = delete;
  GpuNetwork& operator=(const GpuNetwork&) = delete;

  // REQUIRES: request.src != request.dst, both endpoints of the layout
  // (an NVSwitch only with a GPU of its server); request.id unique among
  // this network's transfers.
  void StartTransfer(const TransferRequest& request) override;
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  const char* name() const override { return fabric_.name(); }
  // A coflow over GPU endpoints splits in two coflows that run side by
  // side: its NVLink edges (on the NVLink fluid) and its edges between
  // servers (NIC to NIC, on the fabric model; an edge of a GPU with
  // several NICs is cut in equal parts, one over each, as NCCL spreads a
  // GPU's channels over its NICs). The chain is the request's
  // plus each NVLink edge's weight x the NVLink latency (both parts) and,
  // for the fabric part, its paths' latencies. It is done when both are,
  // so each part's rate is its own: a ring whose NVLink edges are slower
  // than its network edges ends when its NVLink part drains (a pipeline
  // would end then too), but frees the faster part's links early.
  // Possible when the fabric model supports coflows. Coflow ids must not
  // have bit 63 set.
  bool SupportsCoflows() const override { return fabric_.SupportsCoflows(); }
  Status StartCoflow(const CoflowRequest& request) override;

  // A fabric transfer of this network finished.
  void OnTransferDone(FlowId id, Time finish) override;

  const ClusterLayout& layout() const { return layout_; }
  GpuId nvswitch(int server) const { return layout_.gpus() + server; }
  // Bytes that have left GPU `gpu` over NVLink so far.
  double nvlink_bytes_sent(GpuId gpu) const { return nvlink_.bytes_carried(TxPort(gpu)); }

 private:
  // Whether a transfer between these endpoints stays on NVLink: an
  // NVSwitch's, or two GPUs of one server.
  bool OnNvlink(GpuId a, GpuId b) const { return a >= layout_.gpus() || b >= layout_.gpus() || layout_.same_server(a, b); }
  // The NICs a transfer between servers leaves and enters by: a GPU with
  // several NICs of its own (NCCL uses them all) takes them in turn,
  // `spread` counting its transfers, and the receiver's of the same index
  // (its rail). A coflow's edge between servers is instead cut over all of
  // them (StartCoflow).
  std::pair<NodeId, NodeId> Nics(GpuId src, GpuId dst, uint64_t spread) const;
  int TxPort(GpuId gpu) const { return 2 * gpu; }
  int RxPort(GpuId gpu) const { return 2 * gpu + 1; }
  void Done(FlowId id, Time finish);
  // Ids with this bit set are parts of coflows_[id & ~kCoflowBit].
  static constexpr FlowId kCoflowBit = FlowId{1} << 63;
  struct PendingCoflow {
    FlowId id;
    int parts_left;
    Time finish;
  };
  std::vector<PendingCoflow> coflows_;
  std::vector<int> coflow_ports_;         // scratch
  std::vector<double> coflow_coefficients_;  // scratch

  const ClusterLayout& layout_;
  NetworkModel& fabric_;
  TransferObserver* observer_ = nullptr;
  FluidNetwork nvlink_;
  std::vector<uint32_t> next_nic_;  // per GPU: its transfers between servers so far
  // Fabric transfers get ids of their own; this maps them back.
  std::unordered_map<FlowId, FlowId> fabric_to_request_;
  FlowId next_fabric_id_ = 0;
};

}  // namespace aifabric
