// ClusterLayout says where the GPUs are: servers of `gpus_per_server` GPUs,
// each GPU's NIC (a host node of the Topology: its rail), and the links
// inside a server (NVLink through an NVSwitch, per GPU and direction).
// GPU ids are dense: server s, local index i -> s * gpus_per_server + i.
// Immutable once built; safe to share between threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/result.h"
#include "core/time.h"
#include "fabric/topology.h"

namespace aifabric {

using GpuId = int32_t;

// What the links inside one server are like.
struct ServerSpec {
  int gpus_per_server = 8;
  // Each GPU's NVLink bandwidth into (and out of) the NVSwitch fabric, per
  // direction; the NVSwitch itself is non-blocking, so two transfers
  // contend only where they share a GPU's port.
  DataRate nvlink_per_dir = DataRate::Gbps(3600);  // H100: 450 GB/s
  Time nvlink_latency = Time::FromNs(25);          // SimAI's NVLink link latency
};

class ClusterLayout {
 public:
  // Servers are the hosts' `server` numbers (a host without one is a
  // server of its own), in order of first appearance; a server's NICs are
  // its hosts in rail order. GPU i of a server with N NICs and G GPUs uses
  // NIC floor(i * N / G): one each when N = G (rail-optimized), shared
  // when N < G (PCIe switch), the first of its N / G when N > G.
  // Errors if the topology has no hosts or G < 1.
  static Result<ClusterLayout> Build(const Topology& topology, const ServerSpec& spec);

  int servers() const { return static_cast<int>(nics_.size()); }
  int gpus_per_server() const { return spec_.gpus_per_server; }
  int gpus() const { return servers() * spec_.gpus_per_server; }
  int server_of(GpuId gpu) const { return gpu / spec_.gpus_per_server; }
  int local_index(GpuId gpu) const { return gpu % spec_.gpus_per_server; }
  bool same_server(GpuId a, GpuId b) const { return server_of(a) == server_of(b); }
  // The host node of the GPU's NIC (its first, when it has several).
  NodeId nic_of(GpuId gpu) const;
  // How many NICs the GPU has to itself: N / G when N > G, else 1 (shared
  // or its own). nic_of(gpu, k) is its k-th, for k < nic_count(gpu).
  int nic_count(GpuId gpu) const { return gpu_nic_count_[static_cast<size_t>(gpu)]; }
  NodeId nic_of(GpuId gpu, int k) const;
  // The NICs of a server, in rail order.
  const std::vector<NodeId>& nics(int server) const { return nics_[static_cast<size_t>(server)]; }
  const ServerSpec& spec() const { return spec_; }

 private:
  size_t nic_of_index(GpuId gpu) const;  // index of its first NIC in nics(server)

  ServerSpec spec_;
  std::vector<std::vector<NodeId>> nics_;  // per server
  std::vector<NodeId> gpu_nic_;            // per GPU: its first NIC
  std::vector<uint16_t> gpu_nic_count_;    // per GPU: nic_count
};

// The fastest NIC of any server, a NIC's rate being the sum of its links
// (a dual-ToR or multi-plane NIC moves over all of them): what a job's
// flows can reach at best, before placement. O(NIC links).
DataRate FastestNicRate(const Topology& topology, const ClusterLayout& layout);

}  // namespace aifabric
