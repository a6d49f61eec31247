// ReplayFabric is the shared network of a scheduling replay: one fluid
// resource per directed port of the topology (its rate x the payload
// efficiency), jobs' traffic as coflows on one FluidNetwork, ECMP paths
// from the routing table (or, for Crux, the least-loaded of several ECMP
// paths), and the load a placement policy reads (FabricLoad): per port the
// larger of its measured utilization over the recent window and the
// average the running jobs' traffic asks of it. Lives in one Simulator;
// not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/cluster_layout.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/fluid_network.h"
#include "sched/fabric_load.h"

namespace aifabric {

// One flow of a coflow: `bytes` from NIC `src` to NIC `dst` (host nodes).
struct CommEdge {
  NodeId src = kNoNode;
  NodeId dst = kNoNode;
  double bytes = 0;
};

// A coflow routed on the fabric: its reference bytes (its largest edge),
// the ports it crosses with coefficients (bytes per reference byte, summed
// over its edges), and its latency (the longest path's).
struct CoflowPlan {
  double reference_bytes = 0;
  std::vector<int> ports;  // PortIds, which are also the FluidNetwork resources
  std::vector<double> coefficients;
  Time latency;
  bool empty() const { return ports.empty(); }
};

class ReplayFabric final : public FabricLoad {
 public:
  // `done` gets each coflow's id when it completes. The topology, routes
  // and storage list outlive this. REQUIRES: 0 < payload_efficiency <= 1,
  // load_window > 0.
  ReplayFabric(Simulator& sim, const Topology& topology, const RoutingTable& routes, double payload_efficiency,
               uint64_t ecmp_seed, Time load_window, std::vector<int> storage_servers,
               FluidNetwork::DoneCallback done);

  // Routes `edges` (skipping any whose ends are the same node) and sums
  // them into a plan. `flow_key` seeds the ECMP hashes (one per job and
  // coflow kind, so a job's flows keep their paths). With `least_loaded`,
  // each edge takes, of the ECMP paths of 16 hashes, the one whose busiest port has
  // the least expected load (then the least summed load, then the first),
  // counting the edges of this plan routed before it at `bytes_per_s` per
  // edge byte. An edge whose path crosses a down link takes instead the
  // first path of further hashes (up to 32) that does not, as ECMP does
  // once routing has converged around a failure; if there is none, it
  // keeps its path (counted in unroutable_edges).
  CoflowPlan Route(std::span<const CommEdge> edges, uint64_t flow_key, bool least_loaded = false,
                   double bytes_per_s_per_byte = 0) const;
  // The time `plan` takes on an idle fabric: its reference bytes at the
  // rate its tightest port allows, plus its latency.
  Time IdleDuration(const CoflowPlan& plan) const;
  // The same for `scale` times the plan's bytes (a folded macro-iteration).
  Time IdleDuration(const CoflowPlan& plan, double scale) const;
  // Starts `scale` times `plan` now as coflow `id` with max-min `weight`;
  // `id` must be unique among active coflows. REQUIRES: !plan.empty(),
  // scale > 0.
  void Start(uint64_t id, const CoflowPlan& plan, double scale, double weight);

  // Reference bytes coflow `id` still has to send now (0 if it is not in
  // flight). Linear in the active coflows.
  double RemainingBytes(uint64_t id) { return network_.remaining_bytes(id); }

  // Adds (sign +1) or removes (-1) a running job's average traffic: `plan`
  // carried `bytes_per_s / plan.reference_bytes` times per second.
  void AddExpectedLoad(const CoflowPlan& plan, double reference_bytes_per_s, int sign);

  // FabricLoad.
  double PortLoad(PortId port) const override;
  bool PortUp(PortId port) const override { return !link_down_[static_cast<size_t>(topology_.port(port).link)]; }

  // Takes link `link` down (both directions) or brings it back. Routes
  // made while it is down avoid it (see Route); coflows in flight keep
  // their ports. REQUIRES: 0 <= link < topology.num_links().
  void SetLinkUp(LinkId link, bool up) { link_down_[static_cast<size_t>(link)] = !up; }
  // Whether any port of `plan` is on a down link.
  bool CrossesDownLink(const CoflowPlan& plan) const;
  // Edges Route found no live path for (they kept their ECMP path).
  uint64_t unroutable_edges() const { return unroutable_edges_; }
  std::span<const int> StorageServers() const override { return storage_servers_; }

  // Takes a measurement snapshot when the newest is a window old (call at
  // each scheduling decision).
  void RefreshMeasuredLoad();
  // Bytes each port carried so far (index PortId).
  std::vector<double> BytesCarried() const;
  double capacity_bps(PortId port) const { return capacity_bps_[static_cast<size_t>(port)]; }
  // The bytes the switch-to-switch ports carried so far over what their
  // payload capacity could carry in `seconds` (ReplayMetrics::fabric_util);
  // 0 when seconds <= 0 or there is no such port.
  double SwitchPortUtilization(double seconds) const;
  uint64_t solves() const { return network_.solves(); }
  const Topology& topology() const { return topology_; }

 private:
  void AppendPath(NodeId src, NodeId dst, uint32_t hash, std::vector<PortId>& out) const;
  bool PathUp(std::span<const PortId> path) const;
  // Replaces `path` (from hash `base`'s candidates) by a live one if it
  // crosses a down link.
  void AvoidDownLinks(NodeId src, NodeId dst, uint64_t base, std::vector<PortId>& path) const;

  Simulator& sim_;
  const Topology& topology_;
  const RoutingTable& routes_;
  std::vector<uint64_t> salts_;
  std::vector<double> capacity_bps_;  // per port
  std::vector<bool> link_down_;       // per link
  mutable uint64_t unroutable_edges_ = 0;
  std::vector<int> storage_servers_;
  Time load_window_;
  FluidNetwork network_;
  std::vector<double> expected_bps_;  // per port: the running jobs' average
  // Measured load: the carried bytes at two snapshots, the older at least
  // a window before now when it exists.
  struct Snapshot {
    Time at;
    std::vector<double> bytes;
  };
  Snapshot older_, newer_;
  std::vector<double> measured_;  // per port, utilization between `older_` and now (at the last refresh)
};

}  // namespace aifabric
