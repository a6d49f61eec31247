// NetworkAwarePolicy, "network_aware": places a job where its traffic will
// flow best on the fabric as it is now. It weighs GPU load, topology
// distance, the live utilization of the links the job would cross, the
// congestion the job itself would add, link state and the path to storage,
// reading them from a FabricLoad (fabric_load.h) on every Place.
//
// Small job (fewer GPUs than a server): the most used server that still
// holds it (best fit, keeping whole servers free for multi-server jobs),
// ties to the lowest server, on its lowest free GPUs. Servers with a NIC
// link down and storage servers are skipped; apart from that this is
// `topology`'s rule: a job inside one server talks over NVLink only, so
// link loads do not weigh in (nor, for now, its storage bytes).
//
// Multi-server job (whole free servers, placement_policy.h): candidates are
// each leaf group that holds it, each pod that holds it, and the whole
// cluster (leaf group and pod as TopologyDistance defines them). A server is
// usable when it is fully free, every link of its NICs is up in both
// directions (a server with a NIC link down is never chosen), and it is not
// a storage server. Inside a leaf group the servers go in id order; inside a
// pod or the cluster two fillings are scored:
//  - packed, `topology`'s filling: leaf groups with the most usable servers
//    first, ties to the lowest id; across pods, the pods with the most
//    usable servers first, each filled so;
//  - coolest: leaf groups by heat (below), then most usable servers, then
//    lowest id; across pods, every group of the cluster by the hotter of
//    its own heat and its pod's.
// A domain's heat is what its busiest uplink would carry if it took one
// server of the job: its current load plus one server's traffic ((fabric +
// storage bytes/s per GPU) x GPUs per server) over its live uplink
// capacity, so a degraded group (uplinks down) runs hotter.
//
// The load a candidate would see. A leaf group's uplinks are the links from
// its tier-1 switches to tier-2 switches; a pod's, from its tier-2 switches
// to tier-3. Their current load is the largest PortLoad over both
// directions of their live links (a link is live when both its ports are
// up). The job's own traffic out of a leaf group g holding n_g of its N
// GPUs, from each server s of g with m_s of them, is
//   out_g = sum over s of m_s x f x (N - n_g) / (N - m_s)
//           + s_bytes x n_g   when no storage server sits in g,
// with f = fabric_bytes_per_s_per_gpu, s_bytes = storage_bytes_per_s_per_gpu:
// each GPU spreads its inter-server bytes evenly over the job's GPUs on the
// other servers (exact for an all-to-all and for two servers; for a group
// of whole servers contiguous in id order, at least what a ring over the
// servers in that order sends across the group's boundary, so for rings it
// errs high), and all its storage bytes leave a group without storage. A pod's out_p is the same with pods. A domain's
// uplinks are crossed when out > 0, and then run at
//   load + out / live capacity.
// Capacity lost to down uplinks thus raises the job's share in proportion
// (1 / live fraction). A domain that must be crossed but whose uplinks are
// all down would cut the job off: that candidate is dropped. A domain with
// no uplinks known (no tiered switch above it, e.g. an HPCC file) adds
// nothing.
//
// Ranking, lexicographic, lowest first (the first difference decides):
//  1. overload = max(0, U - 1), U the highest utilization over the crossed
//     uplinks. Below capacity, max-min fair sharing gives every flow on a
//     link its demand, so the job and its neighbours run at full speed;
//     above it they slow down, by about U. This is the communication
//     slowdown the issue is about (two all-reduces on one oversubscribed
//     uplink), so it comes first: crossing a tier through idle, not
//     oversubscribed uplinks costs nothing, and beats a closer placement
//     through a hot uplink.
//  2. tiers crossed (0 one server, 1 one leaf group, 2 one pod, 3 across
//     pods), as `topology`: when nothing overloads, staying low costs less
//     latency and leaves the upper tiers to the jobs that need them.
//  3. U itself: among equally close placements, the one leaving the most
//     headroom on its busiest link, so jobs spread away from hot links (and
//     from degraded groups) before those overload.
//  4. distance to storage, when the job sends to storage and the fabric has
//     storage servers: the sum over its GPUs of the tiers to the nearest
//     storage server (1 same leaf group, 2 same pod, 3 else). Its bytes
//     already weigh in U; this breaks the ties U leaves (e.g. two pods whose
//     leaf uplinks would carry the same share).
//  5. best fit: usable free servers the candidate's domain (leaf group, pod
//     or cluster) keeps, fewest first, as `topology`, so large free domains
//     stay for large jobs.
//  6. candidate order: leaf groups by id, then pods by id, then the
//     cluster; packed before coolest.
// A job that sends nothing (f = s_bytes = 0) crosses no uplink, so keys 1,
// 3 and 4 are 0 and it is placed exactly as `topology` places it (when
// every NIC link is up and there are no storage servers).
//
// Deterministic (no randomness; every tie has a rule). Each Place is
// O(servers + NIC and uplink ports + leaf groups x log(leaf groups)), about
// 50 us on a 2,048-server fat-tree. Never proposes a taken GPU; returns
// nullopt when nothing fits (gpus < 1, too few usable servers, or every
// candidate cut off). Holds a reference to the FabricLoad, which must
// outlive it. Not thread-safe (PlacementPolicy).
#pragma once

#include <vector>

#include "core/ids.h"
#include "fabric/cluster_layout.h"
#include "fabric/topology.h"
#include "sched/fabric_load.h"
#include "sched/placement_policy.h"
#include "sched/topology_distance.h"

namespace aifabric {

class NetworkAwarePolicy final : public PlacementPolicy {
 public:
  NetworkAwarePolicy(const Topology& topology, const ClusterLayout& layout, const FabricLoad& load);
  std::string_view name() const override { return "network_aware"; }
  // REQUIRES: `allocation` has the layout's servers (built from it); the
  // request's bytes per second are >= 0.
  std::optional<std::vector<GpuId>> Place(const PlacementRequest& request,
                                          const GpuAllocation& allocation) override;

  // A directed port from a switch up to the next tier; its reverse
  // (port ^ 1) carries the traffic coming back down. (Public only so the
  // implementation's helpers can name it.)
  struct Uplink {
    PortId port = kNoPort;
    double bytes_per_s = 0;  // capacity of each direction
  };

 private:
  // Fixed at construction.
  const FabricLoad& load_;
  const TopologyDistance distance_;
  const std::vector<std::vector<PortId>> server_nic_ports_;  // per server: its NICs' outgoing ports
  const std::vector<std::vector<Uplink>> group_uplinks_;     // per leaf group: tier 1 -> tier 2
  const std::vector<std::vector<Uplink>> pod_uplinks_;       // per pod: tier 2 -> tier 3
};

}  // namespace aifabric
